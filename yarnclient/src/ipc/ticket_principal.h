#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// Whose ticket the default credentials cache holds, as GSS-API names it.
Result<std::string> default_ticket_principal();

}  // namespace spindle::yarn::ipc
