#pragma once

// Blocking HTTP pieces for the proxy's tests: a scripted upstream, a client
// that keeps its connection, and raw exchanges for malformed requests.

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace spindle::tbproxy::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// Serves each connection on its own thread with `serve`, which owns the
// socket until it returns.
class ScriptedUpstream {
 public:
  using Serve = std::function<void(tcp::socket& socket)>;
  explicit ScriptedUpstream(Serve serve);
  ~ScriptedUpstream();

  std::uint16_t port() const { return port_; }
  int connections() const { return connections_.load(); }

 private:
  void accept_loop();

  Serve serve_;
  net::io_context io_;
  tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  std::atomic<int> connections_ = 0;
  std::atomic<bool> stopping_ = false;
  std::thread acceptor_thread_;
  std::mutex mutex_;
  std::vector<std::thread> connection_threads_;
  std::vector<tcp::socket*> open_sockets_;
};

// One client connection that stays open across requests.
class Client {
 public:
  explicit Client(std::uint16_t port);
  Response send(Request request);
  // Sends exactly these bytes.
  void write_raw(const std::string& bytes);
  Response read_response(bool head = false);
  tcp::socket& socket() { return socket_; }
  beast::flat_buffer& buffer() { return buffer_; }

 private:
  net::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

Request get(const std::string& target);

// Sends bytes on a new connection and returns all that comes back until
// the proxy closes it (or two seconds pass).
std::string raw_exchange(std::uint16_t port, const std::string& bytes);

// The first line of a raw answer, e.g. "HTTP/1.1 400 Bad Request".
std::string status_line(const std::string& answer);

// This process's resident memory.
std::uint64_t resident_bytes();

// The byte at `offset` of the test bodies, so any slip shows.
inline char pattern_byte(std::uint64_t offset) {
  return static_cast<char>('a' + offset % 23);
}

// A port nothing listens on (bound, then closed).
std::uint16_t unused_port();

}  // namespace spindle::tbproxy::testing
