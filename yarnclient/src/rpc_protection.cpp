#include "spindle/yarn/rpc_protection.h"

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
  std::size_t start = 0;
  while (start <= value.size()) {
    const auto comma = std::min(value.find(',', start), value.size());
    std::string item(value.substr(start, comma - start));
    start = comma + 1;
    item.erase(0, item.find_first_not_of(" \t\n"));
    item.erase(item.find_last_not_of(" \t\n") + 1);
    // Hadoop reads the names in any case.
    for (auto& letter : item) letter = static_cast<char>(std::tolower(static_cast<unsigned char>(letter)));
    if (item.empty()) continue;
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
