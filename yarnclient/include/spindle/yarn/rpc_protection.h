#pragma once

#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn {

// What SASL protects on a Hadoop RPC connection (hadoop.rpc.protection):
// only the login, every message's integrity too (SASL auth-int), or also
// its secrecy (auth-conf).
enum class RpcProtection { authentication, integrity, privacy };

std::string_view to_string(RpcProtection protection);

// hadoop.rpc.protection's value, a comma-separated list such as
// "integrity,privacy"; `where` names its source for the sentence about a
// value Hadoop does not know.
Result<std::vector<RpcProtection>> parse_rpc_protection(std::string_view value, std::string_view where);

}  // namespace spindle::yarn
