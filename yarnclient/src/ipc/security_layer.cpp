#include "ipc/security_layer.h"

#include <algorithm>

namespace spindle::yarn::ipc {

std::optional<RpcProtection> strongest_common(const std::vector<RpcProtection>& allowed,
                                              const std::vector<RpcProtection>& offered) {
  for (const auto candidate : {RpcProtection::privacy, RpcProtection::integrity, RpcProtection::authentication}) {
    const bool ours = std::find(allowed.begin(), allowed.end(), candidate) != allowed.end();
    const bool theirs = std::find(offered.begin(), offered.end(), candidate) != offered.end();
    if (ours && theirs) return candidate;
  }
  return std::nullopt;
}

std::string describe_protections(const std::vector<RpcProtection>& protections) {
  std::string text;
  for (std::size_t i = 0; i < protections.size(); ++i) {
    if (i > 0) text += i + 1 == protections.size() ? " or " : ", ";
    text += to_string(protections[i]);
  }
  return text.empty() ? "nothing" : text;
}

Error no_common_protection(std::string_view server, const std::vector<RpcProtection>& offered,
                           const std::vector<RpcProtection>& allowed) {
  return authentication_error(std::string(server) + " requires RPC " + describe_protections(offered) +
                              ", but hadoop.rpc.protection here allows only " + describe_protections(allowed) +
                              "; set hadoop.rpc.protection in core-site.xml to what the cluster uses");
}

}  // namespace spindle::yarn::ipc
