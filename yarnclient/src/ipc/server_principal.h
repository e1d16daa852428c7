#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn::ipc {

// A Kerberos principal taken apart: "service/host@REALM" (host and realm
// may be missing).
struct PrincipalParts {
  std::string service;
  std::string host;
  std::string realm;
};
PrincipalParts split_principal(std::string_view principal);

// The configured server principal with its "_HOST" host part replaced by the
// server's host name in lower case, the way Hadoop's
// SecurityUtil.getServerPrincipal does; other principals stay as written.
std::string substitute_host(std::string_view configured, std::string_view server_host);

// The name Hadoop would put in place of _HOST for a server dialled as `host`:
// its canonical DNS name; this machine's for 0.0.0.0; the host itself when
// nothing resolves.
std::string canonical_host_name(const std::string& host);

// Whether the principal a server advertises ("protocol/serverId" from its
// SASL offer) is the one configured for it, as Hadoop's
// SaslRpcClient.getServerPrincipal checks before trusting it. The realm is
// compared when both sides name one (`default_realm` completes the
// advertised name, which has none). `server_host` is the canonical name.
Result<void> check_server_principal(std::string_view advertised, const KerberosOptions& options,
                                    std::string_view server_host, std::string_view default_realm);

}  // namespace spindle::yarn::ipc
