#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "spindle/core/task_process.h"

namespace spindle {

Result<PortReservation> PortReservation::reserve(std::uint16_t port) {
  const std::string which = port == 0 ? std::string("a free TCP port") : "TCP port " + std::to_string(port);
  // Close-on-exec: the user's command must not inherit it, or the port would
  // stay taken after the executor ends.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error("Could not reserve " + which + ": " + std::strerror(errno) + ".");
  const int on = 1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(port);
  socklen_t length = sizeof address;
  // Bound first without SO_REUSEADDR, so the kernel picks a port no other
  // socket holds: two reservations that both set it before binding could be
  // handed the same port, and their servers would then collide. Set after
  // the bind, it lets the task's own server bind the port as well.
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const int error = errno;
    ::close(fd);
    return make_error("Could not reserve " + which + ": " + std::strerror(error) + ".");
  }
  return PortReservation(fd, ntohs(address.sin_port));
}

PortReservation::PortReservation(PortReservation&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), port_(std::exchange(other.port_, 0)) {}

PortReservation& PortReservation::operator=(PortReservation&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    port_ = std::exchange(other.port_, 0);
  }
  return *this;
}

PortReservation::~PortReservation() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace spindle
