#include "spindle/core/host_names.h"

#include <ares.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace spindle {
namespace {

struct Lookup {
  bool done = false;
  int status = ARES_SUCCESS;
  std::uint16_t port = 0;
  std::vector<SocketAddress> addresses;
};

void collect(void* argument, int status, int /*timeouts*/, ares_addrinfo* found) {
  auto& lookup = *static_cast<Lookup*>(argument);
  lookup.done = true;
  lookup.status = status;
  if (status != ARES_SUCCESS || !found) return;
  for (auto* node = found->nodes; node; node = node->ai_next) {
    if (node->ai_family != AF_INET && node->ai_family != AF_INET6) continue;
    SocketAddress address;
    address.length = std::min<socklen_t>(node->ai_addrlen, sizeof(address.storage));
    std::memcpy(&address.storage, node->ai_addr, address.length);
    if (node->ai_family == AF_INET) {
      reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = htons(lookup.port);
    } else {
      reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = htons(lookup.port);
    }
    const bool seen = std::any_of(lookup.addresses.begin(), lookup.addresses.end(), [&](const SocketAddress& other) {
      return other.length == address.length && std::memcmp(&other.storage, &address.storage, address.length) == 0;
    });
    if (!seen) lookup.addresses.push_back(address);
  }
  ares_freeaddrinfo(found);
}

// Drives one channel until its lookup has answered. c-ares keeps its own
// timeouts and retries; this only waits on the sockets it names.
void wait_for(ares_channel channel, const Lookup& lookup) {
  while (!lookup.done) {
    ares_socket_t sockets[ARES_GETSOCK_MAXNUM];
    const int bits = ares_getsock(channel, sockets, ARES_GETSOCK_MAXNUM);
    pollfd watched[ARES_GETSOCK_MAXNUM];
    nfds_t count = 0;
    for (int i = 0; i < ARES_GETSOCK_MAXNUM; ++i) {
      short events = 0;
      if (ARES_GETSOCK_READABLE(bits, i)) events |= POLLIN;
      if (ARES_GETSOCK_WRITABLE(bits, i)) events |= POLLOUT;
      if (events) watched[count++] = pollfd{sockets[i], events, 0};
    }
    timeval longest{1, 0};
    timeval left{};
    const timeval* wait = ares_timeout(channel, &longest, &left);
    const int milliseconds = static_cast<int>(wait->tv_sec * 1000 + wait->tv_usec / 1000);
    ::poll(watched, count, count ? milliseconds : std::min(milliseconds, 10));
    if (count == 0) {
      ares_process_fd(channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
      continue;
    }
    for (nfds_t i = 0; i < count; ++i) {
      const auto readable = (watched[i].revents & (POLLIN | POLLERR | POLLHUP)) ? watched[i].fd : ARES_SOCKET_BAD;
      const auto writable = (watched[i].revents & POLLOUT) ? watched[i].fd : ARES_SOCKET_BAD;
      ares_process_fd(channel, readable, writable);
    }
    if (std::none_of(watched, watched + count, [](const pollfd& entry) { return entry.revents != 0; })) {
      ares_process_fd(channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
    }
  }
}

}  // namespace

std::string SocketAddress::numeric() const {
  char text[INET6_ADDRSTRLEN] = {};
  const void* address = family() == AF_INET
                            ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr)
                            : static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr);
  return ::inet_ntop(family(), address, text, sizeof(text)) ? std::string(text) : std::string();
}

Result<std::vector<SocketAddress>> resolve_host(const std::string& host, std::uint16_t port, AddressFamily family) {
  if (host.empty()) return make_error("cannot resolve an empty host name");
  static std::once_flag initialized;
  static int initialization = ARES_SUCCESS;
  std::call_once(initialized, [] { initialization = ares_library_init(ARES_LIB_INIT_ALL); });
  if (initialization != ARES_SUCCESS) {
    return make_error(std::string("cannot resolve ") + host + ": " + ares_strerror(initialization));
  }
  ares_channel channel = nullptr;
  ares_options options{};
  if (const int started = ares_init_options(&channel, &options, 0); started != ARES_SUCCESS) {
    return make_error("cannot resolve " + host + ": " + ares_strerror(started) + " (reading /etc/resolv.conf)");
  }
  ares_addrinfo_hints hints{};
  hints.ai_family = family == AddressFamily::ipv4 ? AF_INET : AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  // No service: c-ares would look a service up in the C library's database,
  // and refuses port 0. The port is set on each address afterwards.
  Lookup lookup;
  lookup.port = port;
  ares_getaddrinfo(channel, host.c_str(), nullptr, &hints, collect, &lookup);
  wait_for(channel, lookup);
  ares_destroy(channel);
  if (lookup.status != ARES_SUCCESS) {
    return make_error("cannot resolve " + host + ": " + ares_strerror(lookup.status) +
                      "; check /etc/hosts and the name servers in /etc/resolv.conf");
  }
  if (lookup.addresses.empty()) return make_error("cannot resolve " + host + ": it has no IPv4 or IPv6 address");
  std::stable_partition(lookup.addresses.begin(), lookup.addresses.end(),
                        [](const SocketAddress& address) { return address.family() == AF_INET; });
  return lookup.addresses;
}

}  // namespace spindle
