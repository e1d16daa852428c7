#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// Whose ticket the default credentials cache holds, as GSS-API names it.
Result<std::string> default_ticket_principal();

// A fresh ticket for `principal` from `keytab`, stored in an in-memory
// cache of this process (never the user's); returns the cache's name.
Result<std::string> log_in_from_keytab(const std::string& principal, const std::string& keytab);

}  // namespace spindle::yarn::ipc
