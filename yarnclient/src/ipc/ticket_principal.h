#pragma once

#include <gssapi/gssapi.h>

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// Whose ticket the default credentials cache holds, as GSS-API names it.
Result<std::string> default_ticket_principal();

// A ticket for `principal` (empty: the keytab's first) from `keytab`, kept
// in an in-memory cache of this process (never the user's) and got anew from
// the KDC once it is an hour old; returns the cache's name.
Result<std::string> log_in_from_keytab(const std::string& principal, const std::string& keytab);

// GSS-API initiator credentials holding that ticket.
Result<void> keytab_credential(const std::string& principal, const std::string& keytab, gss_cred_id_t* credential);

}  // namespace spindle::yarn::ipc
