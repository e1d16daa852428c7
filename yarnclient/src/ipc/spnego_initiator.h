#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// The first SPNEGO token for the web server on `host` (its principal
// HTTP/<host> in the default realm), from the default Kerberos credentials.
// The server's answer is not checked: the request it authenticates carries
// no secret, and what comes back is a token the cluster itself will check.
Result<std::string> spnego_token(const std::string& host);

}  // namespace spindle::yarn::ipc
