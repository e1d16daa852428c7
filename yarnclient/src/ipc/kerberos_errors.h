#pragma once

#include <cstdint>
#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// What was being attempted when GSS-API failed, and the names a sentence
// about it can use. Nothing here is secret: no ticket or key material.
struct KerberosAttempt {
  enum class Step { credentials, context, security_layer } step = Step::credentials;
  std::string server;            // the host being signed in to
  std::string target;            // the service principal asked for, "rm/host"
  std::string client_principal;  // who we are, when known
  std::string keytab;            // empty: the ticket cache
  std::string ticket_cache;      // e.g. "FILE:/tmp/krb5cc_1000"
  std::string realm;             // the default realm, when known
};

// The library's own words for a GSS-API status: the generic part, then the
// Kerberos mechanism's ("Clock skew too great", "Request is a replay").
std::string gss_status_text(std::uint32_t major, std::uint32_t minor);

// One sentence for a GSS-API failure, telling what to do: run kinit, fix
// krb5.conf, get a fresh keytab, and so on. `major` and `minor` are the
// GSS-API status codes; for the Kerberos mechanism `minor` is a krb5 error
// code. `detail` is the library's own description, used when nothing more
// specific fits.
Error kerberos_failure(const KerberosAttempt& attempt, std::uint32_t major, std::int32_t minor,
                       const std::string& detail);

// The sentence for an empty or missing ticket cache, which callers (the CLI)
// report like an unreachable cluster.
Error no_kerberos_ticket(const KerberosAttempt& attempt);

}  // namespace spindle::yarn::ipc
