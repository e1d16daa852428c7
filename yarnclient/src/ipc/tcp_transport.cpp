#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "spindle/core/host_names.h"
#include "spindle/yarn/transport.h"

namespace spindle::yarn {
namespace {

class TcpTransport final : public Transport {
 public:
  explicit TcpTransport(int fd) : fd_(fd) {}
  ~TcpTransport() override { ::close(fd_); }

  Result<void, IoError> write_all(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EINTR) continue;
        return IoError{errno == EPIPE || errno == ECONNRESET ? IoError::Kind::closed : IoError::Kind::failed,
                       std::strerror(errno)};
      }
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return {};
  }

  Result<std::string, IoError> read_some(std::chrono::milliseconds timeout) override {
    pollfd descriptor{fd_, POLLIN, 0};
    const int ready = ::poll(&descriptor, 1, static_cast<int>(timeout.count()));
    if (ready == 0) return IoError{IoError::Kind::timed_out, "no data"};
    if (ready < 0) {
      if (errno == EINTR) return IoError{IoError::Kind::timed_out, "interrupted"};
      return IoError{IoError::Kind::failed, std::strerror(errno)};
    }
    std::string buffer(64 * 1024, '\0');
    const ssize_t received = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (received == 0) return IoError{IoError::Kind::closed, "the server closed the connection"};
    if (received < 0) {
      return IoError{errno == ECONNRESET ? IoError::Kind::closed : IoError::Kind::failed, std::strerror(errno)};
    }
    buffer.resize(static_cast<std::size_t>(received));
    return buffer;
  }

  void shutdown() override { ::shutdown(fd_, SHUT_RDWR); }

 private:
  int fd_;
};

// Connects without blocking longer than the timeout.
Result<int> connect_with_timeout(const SocketAddress& address, std::chrono::milliseconds timeout) {
  const int fd = ::socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(std::strerror(errno));
  const int flags = ::fcntl(fd, F_GETFL, 0);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length);
  if (rc < 0 && errno == EINPROGRESS) {
    pollfd descriptor{fd, POLLOUT, 0};
    rc = ::poll(&descriptor, 1, static_cast<int>(timeout.count()));
    if (rc == 0) {
      ::close(fd);
      return make_error("no answer within " + std::to_string(timeout.count()) + " ms");
    }
    int error = 0;
    socklen_t length = sizeof(error);
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
      ::close(fd);
      return make_error(std::strerror(error));
    }
  } else if (rc < 0) {
    const int error = errno;
    ::close(fd);
    return make_error(std::strerror(error));
  }
  ::fcntl(fd, F_SETFL, flags);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

}  // namespace

Result<std::unique_ptr<Transport>> connect_tcp(const std::string& host, std::uint16_t port,
                                               std::chrono::milliseconds connect_timeout) {
  auto addresses = resolve_host(host, port);
  if (!addresses) return addresses.error();
  std::string last_problem = "no address";
  for (const auto& address : *addresses) {
    auto fd = connect_with_timeout(address, connect_timeout);
    if (fd) return std::unique_ptr<Transport>(std::make_unique<TcpTransport>(*fd));
    last_problem = fd.error().message;
  }
  return make_error("cannot connect to " + host + ":" + std::to_string(port) + ": " + last_problem);
}

}  // namespace spindle::yarn
