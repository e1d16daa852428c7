#include "spindle/yarn/rpc_protection.h"
#include "spindle/core/text.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace spindle::yarn {

std::string_view to_string(RpcProtection protection) {
  switch (protection) {
    case RpcProtection::authentication: return "authentication";
    case RpcProtection::integrity: return "integrity";
    case RpcProtection::privacy: return "privacy";
  }
  return "authentication";
}

Result<std::vector<RpcProtection>> parse_rpc_protection(std::string_view value, std::string_view where) {
  std::vector<RpcProtection> allowed;
  for (const auto listed : split_list(value)) {
    // Hadoop reads the names in any case.
    const std::string item = to_lower(listed);
    RpcProtection protection{};
    if (item == "authentication") {
      protection = RpcProtection::authentication;
    } else if (item == "integrity") {
      protection = RpcProtection::integrity;
    } else if (item == "privacy") {
      protection = RpcProtection::privacy;
    } else {
      return make_error("hadoop.rpc.protection in " + std::string(where) + " names \"" + item +
                        "\"; it takes authentication, integrity or privacy, or a comma-separated list of them");
    }
    if (std::find(allowed.begin(), allowed.end(), protection) == allowed.end()) allowed.push_back(protection);
  }
  if (allowed.empty()) allowed.push_back(RpcProtection::authentication);  // Hadoop's default
  return allowed;
}

}  // namespace spindle::yarn
