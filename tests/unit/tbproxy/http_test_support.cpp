#include "http_test_support.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <limits>

namespace spindle::tbproxy::testing {

ScriptedUpstream::ScriptedUpstream(Serve serve) : serve_(std::move(serve)), acceptor_(io_) {
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen();
  port_ = acceptor_.local_endpoint().port();
  acceptor_thread_ = std::thread([this] { accept_loop(); });
}

ScriptedUpstream::~ScriptedUpstream() {
  stopping_ = true;
  beast::error_code ignored;
  // Wakes the blocking accept.
  {
    tcp::socket poke(io_);
    poke.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ignored);
  }
  acceptor_thread_.join();
  {
    std::lock_guard lock(mutex_);
    for (auto* socket : open_sockets_) socket->shutdown(tcp::socket::shutdown_both, ignored);
  }
  for (auto& thread : connection_threads_) thread.join();
}

void ScriptedUpstream::accept_loop() {
  while (!stopping_) {
    beast::error_code ec;
    tcp::socket socket(io_);
    acceptor_.accept(socket, ec);
    if (ec || stopping_) break;
    ++connections_;
    std::lock_guard lock(mutex_);
    connection_threads_.emplace_back([this, socket = std::move(socket)]() mutable {
      {
        std::lock_guard inner(mutex_);
        open_sockets_.push_back(&socket);
      }
      serve_(socket);
      std::lock_guard inner(mutex_);
      std::erase(open_sockets_, &socket);
    });
  }
}

Client::Client(std::uint16_t port) : socket_(io_) {
  socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
}

Response Client::send(Request request) {
  if (request.find(http::field::host) == request.end()) request.set(http::field::host, "127.0.0.1");
  request.prepare_payload();
  http::write(socket_, request);
  return read_response(request.method() == http::verb::head);
}

void Client::write_raw(const std::string& bytes) {
  net::write(socket_, net::buffer(bytes));
}

Response Client::read_response(bool head) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  parser.skip(head);
  http::read(socket_, buffer_, parser);
  return parser.release();
}

Request get(const std::string& target) {
  Request request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1");
  return request;
}

std::string raw_exchange(std::uint16_t port, const std::string& bytes) {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  const timeval two_seconds{2, 0};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof(two_seconds));
  beast::error_code ec;
  net::write(socket, net::buffer(bytes), ec);
  // Ends at the end of the first final answer, or when the proxy closes.
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  std::string answer;
  std::size_t parsed = 0;
  char chunk[4096];
  while (!parser.is_done()) {
    const auto got = socket.read_some(net::buffer(chunk), ec);
    if (ec) {
      if (ec == net::error::eof) parser.put_eof(ec);
      break;
    }
    answer.append(chunk, got);
    while (parsed < answer.size() && !parser.is_done()) {
      const auto used = parser.put(net::buffer(answer.data() + parsed, answer.size() - parsed), ec);
      if (ec == http::error::need_more) break;
      if (ec) return answer;
      parsed += used;
    }
  }
  return answer;
}

std::string status_line(const std::string& answer) {
  return answer.substr(0, answer.find("\r\n"));
}

std::uint64_t resident_bytes() {
  // No heap: the sampling itself must not move what it measures.
  char text[128] = {};
  const int file = ::open("/proc/self/statm", O_RDONLY);
  if (file < 0) return 0;
  const auto got = ::read(file, text, sizeof(text) - 1);
  ::close(file);
  if (got <= 0) return 0;
  unsigned long long pages = 0;
  unsigned long long resident = 0;
  if (std::sscanf(text, "%llu %llu", &pages, &resident) != 2) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint16_t unused_port() {
  net::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

}  // namespace spindle::tbproxy::testing
