#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ipc/sasl_mechanism.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn::ipc {

// SASL GSSAPI (Hadoop's "KERBEROS" method) through MIT Kerberos' GSS-API:
// checks the server's advertised principal against the configured one,
// acquires credentials (the ticket cache, or a keytab into memory), runs the
// Kerberos context exchange and RFC 4752's security-layer step, choosing the
// strongest layer the server offers and `allowed` (hadoop.rpc.protection)
// names. `server_host` is the host dialled, for _HOST in the configured
// principal. Credential problems surface at start(), as sentences.
Result<std::unique_ptr<SaslMechanism>> gssapi_mechanism(const KerberosOptions& options, const std::string& server_host,
                                                        const std::vector<RpcProtection>& allowed);

}  // namespace spindle::yarn::ipc
