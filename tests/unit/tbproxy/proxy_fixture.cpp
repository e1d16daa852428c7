#include "proxy_fixture.h"

#include <charconv>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace spindle::tbproxy::testing {
namespace {

std::uint64_t query_bytes(std::string_view target) {
  const auto at = target.find("bytes=");
  std::uint64_t bytes = 0;
  if (at != std::string_view::npos) {
    const auto digits = target.substr(at + 6);
    std::from_chars(digits.data(), digits.data() + digits.size(), bytes);
  }
  return bytes;
}

bool write_all(tcp::socket& socket, std::string_view bytes) {
  beast::error_code ec;
  net::write(socket, net::buffer(bytes.data(), bytes.size()), ec);
  return !ec;
}

std::string pattern(std::uint64_t offset, std::size_t size) {
  std::string piece(size, '\0');
  for (std::size_t i = 0; i < size; ++i) piece[i] = pattern_byte(offset + i);
  return piece;
}

std::string hex(std::size_t value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof(text), value, 16).ptr;
  return std::string(text, end);
}

// Streams `total` bytes as chunks or under a Content-Length.
bool stream_body(tcp::socket& socket, std::uint64_t total, bool chunked) {
  const std::string head = chunked ? "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                                     "Transfer-Encoding: chunked\r\n\r\n"
                                   : "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                                     "Content-Length: " +
                                         std::to_string(total) + "\r\n\r\n";
  if (!write_all(socket, head)) return false;
  constexpr std::size_t piece_size = 60'000;  // not the proxy's buffer size, so pieces straddle
  // One buffer refilled, so this process's memory shows only the proxy's.
  std::string piece(piece_size, '\0');
  for (std::uint64_t sent = 0; sent < total;) {
    const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(piece_size, total - sent));
    piece.resize(size);
    for (std::size_t i = 0; i < size; ++i) piece[i] = pattern_byte(sent + i);
    if (chunked && !write_all(socket, hex(size) + "\r\n")) return false;
    if (!write_all(socket, piece)) return false;
    if (chunked && !write_all(socket, "\r\n")) return false;
    sent += size;
  }
  return !chunked || write_all(socket, "0\r\n\r\n");
}

std::string echo_of(const Request& request) {
  std::string text = "method: " + std::string(request.method_string()) + "\n";
  text += "target: " + std::string(request.target()) + "\n";
  for (const auto& field : request) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    text += name + ": " + std::string(field.value()) + "\n";
  }
  std::uint64_t sum = 0;
  for (const char c : request.body()) sum += static_cast<unsigned char>(c);
  text += "body-bytes: " + std::to_string(request.body().size()) + "\n";
  text += "body-sum: " + std::to_string(sum) + "\n";
  return text;
}

bool answer(tcp::socket& socket, const Request& request, UpstreamLog& log, std::uint16_t port) {
  const std::string_view target(request.target().data(), request.target().size());
  const auto path = target.substr(0, target.find('?'));
  if (path == "/echo") {
    Response response(http::status::ok, 11);
    response.set(http::field::content_type, "text/plain");
    response.body() = echo_of(request);
    {
      std::lock_guard lock(log.mutex);
      log.last_echo = response.body();
    }
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    beast::error_code ec;
    http::write(socket, response, ec);
    return !ec && request.keep_alive();
  }
  if (path == "/hop-headers") {
    return write_all(socket,
                     "HTTP/1.1 200 OK\r\nConnection: X-Upstream-Hop\r\nX-Upstream-Hop: 1\r\nKeep-Alive: timeout=5\r\n"
                     "Proxy-Authenticate: Basic\r\nTrailer: X-Sum\r\nUpgrade: h2c\r\nX-Kept: 1\r\n"
                     "Content-Length: 2\r\n\r\nok");
  }
  if (path == "/redirect") {
    return write_all(socket, "HTTP/1.1 302 Found\r\nLocation: /somewhere?x=1\r\nContent-Length: 0\r\n\r\n");
  }
  if (path == "/redirect-absolute") {
    return write_all(socket, "HTTP/1.1 301 Moved Permanently\r\nLocation: http://127.0.0.1:" + std::to_string(port) +
                                 "/elsewhere\r\nContent-Length: 0\r\n\r\n");
  }
  if (path == "/gzip") {
    const std::string compressed("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\x56\x00\x00\x00\xff\xff", 17);
    return write_all(socket,
                     "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                     "Vary: Accept-Encoding\r\nContent-Length: " +
                         std::to_string(compressed.size()) + "\r\n\r\n" + compressed);
  }
  if (path == "/large") return stream_body(socket, query_bytes(target), true);
  if (path == "/large-length") return stream_body(socket, query_bytes(target), false);
  if (path == "/die-midway") {
    write_all(socket, "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n" + pattern(0, 100'000));
    return false;
  }
  if (path == "/die-midway-chunked") {
    write_all(socket, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + hex(50'000) + "\r\n" +
                          pattern(0, 50'000) + "\r\n");
    return false;
  }
  if (path == "/die-before-answer") return false;
  if (path == "/endless") {
    bool open = write_all(socket, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (std::uint64_t sent = 0; open; sent += 65'536) {
      open = write_all(socket, hex(65'536) + "\r\n" + pattern(sent, 65'536) + "\r\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::lock_guard lock(log.mutex);
    log.endless_stopped = true;
    return false;
  }
  if (path == "/silent") {
    // Past the proxy's wait for a first byte (test_options), by a margin a loaded machine keeps.
    std::this_thread::sleep_for(std::chrono::milliseconds(4500));
    return false;
  }
  if (path == "/close-after") {
    // Advertises keep-alive, then closes anyway, as a restarted server would.
    write_all(socket, "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nclosing");
    return false;
  }
  if (path == "/head-only") {
    return write_all(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1234\r\n\r\n");
  }
  if (path == "/interim") {
    return write_all(socket,
                     "HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  }
  if (path == "/odd-status") return write_all(socket, "HTTP/1.1 003 Odd\r\nContent-Length: 0\r\n\r\n");
  if (path == "/until-close") {
    write_all(socket, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n" + pattern(0, 100'000));
    return false;
  }
  write_all(socket, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found");
  return true;
}

}  // namespace

void serve_scripted_routes(tcp::socket& socket, UpstreamLog& log) {
  beast::flat_buffer buffer;
  const auto port = socket.local_endpoint().port();
  while (true) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    beast::error_code ec;
    http::read(socket, buffer, parser, ec);
    if (ec) break;
    {
      std::lock_guard lock(log.mutex);
      ++log.requests;
    }
    if (!answer(socket, parser.get(), log, port)) break;
  }
  beast::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

UpstreamLookup scripted_resolver(const std::string& application_id, std::uint16_t upstream_port) {
  if (application_id == running_job) return UpstreamAddress{"127.0.0.1", upstream_port};
  if (application_id == starting_job) return UpstreamUnavailable{UpstreamState::starting, ""};
  if (application_id == ended_job) return UpstreamUnavailable{UpstreamState::ended, ""};
  if (application_id == unreachable_job) {
    return UpstreamUnavailable{UpstreamState::unreachable, "The ResourceManager at rm:8032 does not answer."};
  }
  if (application_id == refusing_job) return UpstreamAddress{"127.0.0.1", unused_port()};
  if (application_id == throwing_job) throw std::runtime_error("the resolver broke");
  if (application_id == nameless_job) return UpstreamAddress{"no-such-host.invalid", 6006};
  return UpstreamUnavailable{UpstreamState::unknown, ""};
}

ProxyOptions test_options() {
  ProxyOptions options;
  // Long enough that this test upstream, on a machine busy with other tests, always answers in time.
  options.first_byte_timeout = std::chrono::seconds(3);
  options.idle_timeout = std::chrono::seconds(5);
  options.lookup_ttl = std::chrono::seconds(60);
  options.max_request_body_bytes = 1024 * 1024;
  return options;
}

void ProxyTest::SetUpTestSuite() {
  log_ = std::make_unique<UpstreamLog>();
  upstream_ = std::make_unique<ScriptedUpstream>([](tcp::socket& socket) { serve_scripted_routes(socket, *log_); });
  auto started = ProxyServer::start(test_options(), [](const std::string& application_id) {
    return scripted_resolver(application_id, upstream_->port());
  });
  ASSERT_TRUE(started.ok()) << started.error().message;
  proxy_ = std::move(*started);
}

void ProxyTest::TearDownTestSuite() {
  proxy_->stop();
  proxy_.reset();
  upstream_.reset();
  log_.reset();
}

}  // namespace spindle::tbproxy::testing
