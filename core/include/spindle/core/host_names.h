#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "spindle/core/result.h"

namespace spindle {

enum class AddressFamily { any, ipv4 };

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  int family() const { return storage.ss_family; }
  std::string numeric() const;  // "10.0.0.5" or "fe80::1", without the port
};

// Resolves a host name through /etc/hosts and DNS in the order the system's
// configuration gives, with c-ares rather than the C library's name service
// switch: what runs in containers is linked statically, and a static program
// cannot load the node's NSS modules. IPv4 addresses come first, as Hadoop's
// daemons prefer them. An IP literal is returned as it is.
Result<std::vector<SocketAddress>> resolve_host(const std::string& host, std::uint16_t port,
                                                AddressFamily family = AddressFamily::any);

}  // namespace spindle
