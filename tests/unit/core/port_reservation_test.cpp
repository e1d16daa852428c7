#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/task_process.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;

class Socket {
 public:
  explicit Socket(int family = AF_INET) : fd_(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

  void reuse_address() {
    const int on = 1;
    EXPECT_EQ(::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on), 0);
  }
  // 0 on success, else errno.
  int bind_any(std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    address.sin_port = htons(port);
    return ::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 ? 0 : errno;
  }
  std::uint16_t local_port() const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
    if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
    return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  }

 private:
  int fd_;
};

bool connect_local(int fd, std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  return ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

// Room for more sockets without touching other processes' limits.
std::size_t descriptors_to_spare(std::size_t wanted) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  return std::min<std::size_t>(wanted, limit.rlim_cur > 200 ? limit.rlim_cur - 100 : 100);
}

TEST(PortReservation, ReservesAFreePort) {
  auto first = PortReservation::reserve();
  ASSERT_TRUE(first) << first.error().message;
  auto second = PortReservation::reserve();
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_NE(first->port(), 0);
  EXPECT_NE(first->port(), second->port());
}

TEST(PortReservation, ReservesTheAskedPortOnce) {
  std::uint16_t port = 0;
  {
    auto any = PortReservation::reserve();
    ASSERT_TRUE(any);
    port = any->port();
  }
  auto asked = PortReservation::reserve(port);
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_EQ(asked->port(), port);
  // Two tasks must never believe they hold the same port.
  auto twice = PortReservation::reserve(port);
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find(std::to_string(port)), std::string::npos) << twice.error().message;
}

TEST(PortReservation, RefusesAPortAServerListensOn) {
  Socket listener;
  listener.reuse_address();
  ASSERT_EQ(listener.bind_any(0), 0);
  ASSERT_EQ(::listen(listener.fd(), 4), 0);
  EXPECT_FALSE(PortReservation::reserve(listener.local_port()));
}

TEST(PortReservation, ServerWithReuseAddressListensOnIt) {
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);
  Socket server;
  server.reuse_address();
  ASSERT_EQ(server.bind_any(reservation->port()), 0);
  ASSERT_EQ(::listen(server.fd(), 4), 0);

  Socket client;
  ASSERT_TRUE(connect_local(client.fd(), reservation->port())) << std::strerror(errno);
  const int accepted = ::accept4(server.fd(), nullptr, nullptr, SOCK_CLOEXEC);
  ASSERT_GE(accepted, 0);
  ASSERT_EQ(::write(client.fd(), "x", 1), 1);
  char byte = 0;
  EXPECT_EQ(::read(accepted, &byte, 1), 1);
  EXPECT_EQ(byte, 'x');
  ::close(accepted);
}

TEST(PortReservation, DualStackServerWithReuseAddressListensOnIt) {
  Socket server(AF_INET6);
  if (server.fd() < 0) GTEST_SKIP() << "no IPv6";
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);
  server.reuse_address();
  const int off = 0;
  ::setsockopt(server.fd(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_addr = in6addr_any;
  address.sin6_port = htons(reservation->port());
  if (::bind(server.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 && errno == EADDRNOTAVAIL) {
    GTEST_SKIP() << "IPv6 is disabled";
  }
  EXPECT_EQ(server.local_port(), reservation->port());
  EXPECT_EQ(::listen(server.fd(), 4), 0) << std::strerror(errno);
}

TEST(PortReservation, ServerWithoutReuseAddressCannotBind) {
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);
  Socket plain;
  EXPECT_EQ(plain.bind_any(reservation->port()), EADDRINUSE);
}

TEST(PortReservation, NoEphemeralBindGetsIt) {
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);
  // Held open together, so that every bind takes another port.
  const std::size_t count = descriptors_to_spare(3000);
  ASSERT_GE(count, 300u);
  std::vector<Socket> sockets;
  sockets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Socket& socket = sockets.emplace_back();
    ASSERT_GE(socket.fd(), 0);
    if (i % 2 == 0) socket.reuse_address();  // a reusing bind is refused it too
    const int error = socket.bind_any(0);
    if (error == EADDRINUSE) break;  // a busy machine: the range is used up
    ASSERT_EQ(error, 0) << std::strerror(error);
    ASSERT_NE(socket.local_port(), reservation->port()) << "after " << i << " binds";
  }
}

TEST(PortReservation, NoOutgoingConnectionGetsIt) {
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);
  Socket listener;
  ASSERT_EQ(listener.bind_any(0), 0);
  ASSERT_EQ(::listen(listener.fd(), 1024), 0);
  const std::size_t count = descriptors_to_spare(2 * 500) / 2;
  std::vector<Socket> clients;
  std::vector<Socket> accepted;
  clients.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Socket& client = clients.emplace_back();
    ASSERT_TRUE(connect_local(client.fd(), listener.local_port())) << std::strerror(errno);
    ASSERT_NE(client.local_port(), reservation->port()) << "after " << i << " connections";
    const int fd = ::accept4(listener.fd(), nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(fd, 0);
    ::close(fd);
  }
}

TEST(PortReservation, IsCloseOnExecAndFreedWhenDestroyed) {
  std::uint16_t port = 0;
  {
    auto reservation = PortReservation::reserve();
    ASSERT_TRUE(reservation);
    port = reservation->port();
    int sockets = 0;
    for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
      std::error_code error;
      const auto target = fs::read_symlink(entry.path(), error);
      if (error || target.string().rfind("socket:", 0) != 0) continue;
      ++sockets;
      const int fd = std::stoi(entry.path().filename().string());
      EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC) << "descriptor " << fd;
    }
    EXPECT_GE(sockets, 1);
  }
  Socket plain;
  EXPECT_EQ(plain.bind_any(port), 0);
}

// Python's own servers, as TensorBoard (werkzeug) and user scripts use them.
TEST(PortReservation, PythonServersListenOnTheReservedPort) {
  const fs::path python = SPINDLE_PYTHON;
  ASSERT_TRUE(fs::exists(python)) << "no Python at " << python << "; scripts/setup makes it";
  auto reservation = PortReservation::reserve();
  ASSERT_TRUE(reservation);

  const fs::path script = fs::temp_directory_path() / ("spindle-port-" + std::to_string(::getpid()) + ".py");
  std::ofstream(script) << R"(import errno, http.server, socketserver, sys, threading, urllib.request
port = int(sys.argv[1])
try:
    socketserver.TCPServer(("0.0.0.0", port), socketserver.BaseRequestHandler).server_close()
    print("plain-bound")
except OSError as error:
    print("plain-refused" if error.errno == errno.EADDRINUSE else "plain-" + str(error.errno))

class Reusing(socketserver.TCPServer):
    allow_reuse_address = True

Reusing(("0.0.0.0", port), socketserver.BaseRequestHandler).server_close()
print("reusing-listened")

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"served")

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("", port), Handler)
thread = threading.Thread(target=server.handle_request)
thread.start()
print(urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=30).read().decode())
thread.join()
)";
  const std::string command =
      python.string() + " " + script.string() + " " + std::to_string(reservation->port()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = ::pclose(pipe);
  fs::remove(script);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "plain-refused\nreusing-listened\nserved\n");
  // Still held once Python's servers are gone.
  Socket plain;
  EXPECT_EQ(plain.bind_any(reservation->port()), EADDRINUSE);
}

}  // namespace
}  // namespace spindle
