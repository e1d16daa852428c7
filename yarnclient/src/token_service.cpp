#include "spindle/yarn/token_service.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "spindle/core/host_names.h"
#include "spindle/core/text.h"

namespace spindle::yarn {
namespace {

// The numeric address Java's InetSocketAddress would hold: IPv4 first, as
// Hadoop runs with java.net.preferIPv4Stack.
Result<std::string> numeric_address(const std::string& host) {
  // IPv4 addresses come first in what resolve_host answers.
  if (auto found = resolve_host(host, 0); found && !found->front().numeric().empty()) return found->front().numeric();
  return make_error("cannot resolve " + host + " to name the service of its delegation token; check DNS or /etc/hosts");
}

}  // namespace

Result<std::string> token_service(std::string_view host_port, int default_port,
                                  const HadoopConfiguration& configuration) {
  std::string host(host_port);
  std::string port = std::to_string(default_port);
  if (const auto colon = host.rfind(':'); colon != std::string::npos && host.find(']') == std::string::npos) {
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  if (host.empty()) return make_error("the address \"" + std::string(host_port) + "\" names no host");
  if (!configuration.get_bool("hadoop.security.token.service.use_ip", true)) {
    return to_lower(host) + ":" + port;
  }
  auto address = numeric_address(host);
  if (!address) return address.error();
  return *address + ":" + port;
}

Result<std::string> token_renewer(const HadoopConfiguration& configuration) {
  auto principal = configuration.get("yarn.resourcemanager.principal");
  if (!principal || principal->empty()) {
    return make_error(
        "yarn.resourcemanager.principal is not set; a Kerberos cluster names its ResourceManager's principal "
        "there in yarn-site.xml, and delegation tokens need it as their renewer");
  }
  std::string renewer = *principal;
  if (const auto at = renewer.find("_HOST"); at != std::string::npos) {
    // As SecurityUtil.getServerPrincipal: the host the ResourceManager serves clients on, in lower case.
    std::string host = configuration.resource_manager_address(RmService::client);
    host = host.substr(0, host.rfind(':'));
    renewer.replace(at, 5, to_lower(host));
  }
  return renewer;
}

std::string kerberos_short_name(std::string_view principal) {
  return std::string(principal.substr(0, principal.find_first_of("/@")));
}

}  // namespace spindle::yarn
