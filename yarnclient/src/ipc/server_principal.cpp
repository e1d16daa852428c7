#include "ipc/server_principal.h"

#include <arpa/inet.h>
#include <fnmatch.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "spindle/core/text.h"

namespace spindle::yarn::ipc {
namespace {

constexpr std::string_view host_placeholder = "_HOST";

std::string joined(const PrincipalParts& parts) {
  std::string name = parts.service;
  if (!parts.host.empty()) name += "/" + parts.host;
  if (!parts.realm.empty()) name += "@" + parts.realm;
  return name;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[sizeof(in6_addr)];
  return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 || ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

}  // namespace

PrincipalParts split_principal(std::string_view principal) {
  PrincipalParts parts;
  const auto at = principal.rfind('@');
  if (at != std::string_view::npos) {
    parts.realm = std::string(principal.substr(at + 1));
    principal = principal.substr(0, at);
  }
  const auto slash = principal.find('/');
  parts.service = std::string(principal.substr(0, slash));
  if (slash != std::string_view::npos) parts.host = std::string(principal.substr(slash + 1));
  return parts;
}

std::string substitute_host(std::string_view configured, std::string_view server_host) {
  auto parts = split_principal(configured);
  // Hadoop substitutes only in the three-part form service/_HOST@REALM.
  if (parts.host != host_placeholder || parts.realm.empty()) return std::string(configured);
  parts.host = to_lower(server_host);
  return joined(parts);
}

std::string canonical_host_name(const std::string& host) {
  std::string name = host;
  if (name.empty() || name == "0.0.0.0") {
    char own[256] = {};
    if (::gethostname(own, sizeof(own) - 1) != 0) return host;
    name = own;
  }
#ifdef SPINDLE_KERBEROS_IN_CONTAINER
  // A static program has no NSS to ask (docs/architecture.md, "Security"):
  // the name as configured stands.
  return to_lower(name);
#endif
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (is_ip_literal(name)) {
    // Like Java's getCanonicalHostName: the reverse lookup of the address.
    hints.ai_flags = AI_NUMERICHOST;
    if (::getaddrinfo(name.c_str(), nullptr, &hints, &found) != 0 || !found) return to_lower(name);
    char reverse[NI_MAXHOST] = {};
    const bool named =
        ::getnameinfo(found->ai_addr, found->ai_addrlen, reverse, sizeof(reverse), nullptr, 0, NI_NAMEREQD) == 0;
    ::freeaddrinfo(found);
    return to_lower(named ? reverse : name);
  }
  hints.ai_flags = AI_CANONNAME;
  if (::getaddrinfo(name.c_str(), nullptr, &hints, &found) != 0 || !found) return to_lower(name);
  const std::string canonical = found->ai_canonname ? found->ai_canonname : name;
  ::freeaddrinfo(found);
  return to_lower(canonical);
}

Result<void> check_server_principal(std::string_view advertised, const KerberosOptions& options,
                                    std::string_view server_host, std::string_view default_realm) {
  auto offered = split_principal(advertised);
  if (offered.realm.empty()) offered.realm = std::string(default_realm);
  const std::string offered_name = joined(offered);
  if (!options.server_principal_pattern.empty()) {
    if (::fnmatch(options.server_principal_pattern.c_str(), offered_name.c_str(), 0) == 0) return {};
    return authentication_error("the server " + std::string(server_host) + " presents Kerberos principal " +
                                offered_name + ", which does not match the configured pattern " +
                                options.server_principal_pattern + "; check that this is the right server");
  }
  if (options.server_principal.empty()) return {};
  const std::string expected_name = substitute_host(options.server_principal, server_host);
  const auto expected = split_principal(expected_name);
  if (expected.host.empty()) {
    return authentication_error("the configured server principal " + options.server_principal +
                                " has no host part; write it as service/_HOST@REALM (e.g. rm/_HOST@EXAMPLE.COM)");
  }
  const bool same = expected.service == offered.service && to_lower(expected.host) == to_lower(offered.host) &&
                    (expected.realm.empty() || offered.realm.empty() || expected.realm == offered.realm);
  if (same) return {};
  return authentication_error("the server " + std::string(server_host) + " presents Kerberos principal " +
                              offered_name + ", but the configured server principal is " + expected_name +
                              "; check the service's principal in the Hadoop configuration (e.g. "
                              "yarn.resourcemanager.principal) and that the address names the right server");
}

}  // namespace spindle::yarn::ipc
