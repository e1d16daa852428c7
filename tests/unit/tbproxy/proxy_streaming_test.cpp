// Bodies through the proxy: large ones streamed without being held, request
// bodies in both framings, and either side going away halfway.

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <thread>

#include "proxy_fixture.h"

namespace spindle::tbproxy::testing {
namespace {

struct StreamedBody {
  http::status status{};
  std::uint64_t bytes = 0;
  bool intact = true;  // every byte where the pattern puts it
  bool complete = false;
  bool chunked = false;
  std::uint64_t most_resident_growth = 0;
};

// Reads a response through a small buffer, checking bytes as they come and
// watching this process's memory, which includes the proxy's.
StreamedBody stream_response(Client& client, std::uint64_t baseline_resident,
                             std::chrono::milliseconds pause_after_first_piece = {}) {
  StreamedBody result;
  http::response_parser<http::buffer_body> parser;
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  beast::error_code ec;
  http::read_header(client.socket(), client.buffer(), parser, ec);
  if (ec) return result;
  result.status = parser.get().result();
  result.chunked = parser.chunked();
  char piece[16 * 1024];
  bool paused = false;
  while (!parser.is_done()) {
    parser.get().body().data = piece;
    parser.get().body().size = sizeof(piece);
    http::read(client.socket(), client.buffer(), parser, ec);
    if (ec == http::error::need_buffer) ec = {};
    if (ec) return result;
    const auto got = sizeof(piece) - parser.get().body().size;
    for (std::size_t i = 0; i < got && result.intact; ++i) {
      result.intact = piece[i] == pattern_byte(result.bytes + i);
    }
    result.bytes += got;
    const auto resident = resident_bytes();
    if (resident > baseline_resident) {
      result.most_resident_growth = std::max(result.most_resident_growth, resident - baseline_resident);
    }
    if (!paused && pause_after_first_piece.count() > 0) {
      // A slow reader: the proxy must stop reading upstream rather than buffer.
      paused = true;
      std::this_thread::sleep_for(pause_after_first_piece);
    }
  }
  result.complete = true;
  return result;
}

constexpr std::uint64_t forty_megabytes = 40ull * 1024 * 1024;

TEST_F(ProxyTest, StreamsALargeChunkedBodyWithoutHoldingIt) {
  Client client(proxy_port());
  client.write_raw("GET " + job_path("/large?bytes=" + std::to_string(forty_megabytes)) +
                   " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const auto result = stream_response(client, resident_bytes(), std::chrono::milliseconds(500));
  EXPECT_EQ(result.status, http::status::ok);
  EXPECT_TRUE(result.complete);
  EXPECT_TRUE(result.chunked);
  EXPECT_EQ(result.bytes, forty_megabytes);
  EXPECT_TRUE(result.intact);
  EXPECT_LT(result.most_resident_growth, 8ull * 1024 * 1024) << "the proxy held the body";
}

TEST_F(ProxyTest, StreamsALargeBodyWithItsLength) {
  Client client(proxy_port());
  client.write_raw("GET " + job_path("/large-length?bytes=" + std::to_string(forty_megabytes)) +
                   " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const auto result = stream_response(client, resident_bytes());
  EXPECT_TRUE(result.complete);
  EXPECT_FALSE(result.chunked);
  EXPECT_EQ(result.bytes, forty_megabytes);
  EXPECT_TRUE(result.intact);
  EXPECT_LT(result.most_resident_growth, 8ull * 1024 * 1024) << "the proxy held the body";
  // The same connection goes on.
  EXPECT_EQ(client.send(get(job_path("/echo"))).result(), http::status::ok);
}

TEST_F(ProxyTest, GivesAnHttp10ClientABodyEndedByClosing) {
  const auto answer =
      raw_exchange(proxy_port(), "GET " + job_path("/large?bytes=100000") + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.0 200 OK");
  const auto head_end = answer.find("\r\n\r\n");
  EXPECT_EQ(answer.substr(0, head_end).find("chunked"), std::string::npos);
  EXPECT_EQ(answer.size() - head_end - 4, 100'000u);
}

TEST_F(ProxyTest, ChunksABodyTheUpstreamEndsByClosing) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/until-close")));
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_TRUE(response.chunked());
  EXPECT_EQ(response.body().size(), 100'000u);
  EXPECT_EQ(client.send(get(job_path("/echo"))).result(), http::status::ok);
}

TEST_F(ProxyTest, UpstreamDyingMidResponseCutsTheClientOff) {
  for (const char* route : {"/die-midway", "/die-midway-chunked"}) {
    Client client(proxy_port());
    client.write_raw("GET " + job_path(route) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const auto result = stream_response(client, resident_bytes());
    EXPECT_EQ(result.status, http::status::ok) << route;
    EXPECT_FALSE(result.complete) << route;
    EXPECT_GT(result.bytes, 0u) << route;
    EXPECT_TRUE(result.intact) << route;
    // The proxy goes on serving.
    Client next(proxy_port());
    EXPECT_EQ(next.send(get(job_path("/echo"))).result(), http::status::ok) << route;
  }
}

TEST_F(ProxyTest, ClientLeavingMidResponseEndsTheUpstreamConnection) {
  {
    std::lock_guard lock(log().mutex);
    log().endless_stopped = false;
  }
  {
    Client client(proxy_port());
    client.write_raw("GET " + job_path("/endless") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    char piece[64 * 1024];
    std::size_t got = 0;
    while (got < 1024 * 1024) got += client.socket().read_some(net::buffer(piece));
  }
  // The proxy closes its side instead of pooling a connection in mid-answer.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool stopped = false;
  while (!stopped && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard lock(log().mutex);
    stopped = log().endless_stopped;
  }
  EXPECT_TRUE(stopped);
  Client next(proxy_port());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(next.send(get(job_path("/echo"))).result(), http::status::ok);
}

TEST_F(ProxyTest, ForwardsAPostBodyWithItsLength) {
  Client client(proxy_port());
  auto request = get(job_path("/echo"));
  request.method(http::verb::post);
  request.set(http::field::content_type, "application/x-www-form-urlencoded");
  std::uint64_t sum = 0;
  for (int i = 0; i < 300'000; ++i) {
    request.body() += pattern_byte(static_cast<std::uint64_t>(i));
    sum += static_cast<unsigned char>(pattern_byte(static_cast<std::uint64_t>(i)));
  }
  const auto echo = client.send(request).body();
  EXPECT_NE(echo.find("body-bytes: 300000\n"), std::string::npos) << echo;
  EXPECT_NE(echo.find("body-sum: " + std::to_string(sum) + "\n"), std::string::npos);
  EXPECT_NE(echo.find("content-length: 300000\n"), std::string::npos);
  EXPECT_NE(echo.find("method: POST\n"), std::string::npos);
}

TEST_F(ProxyTest, ForwardsAChunkedPostBodyChunked) {
  Client client(proxy_port());
  std::string body;
  for (int i = 0; i < 200'000; ++i) body += pattern_byte(static_cast<std::uint64_t>(i));
  std::string bytes =
      "POST " + job_path("/echo") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (std::size_t at = 0; at < body.size(); at += 70'000) {
    const auto piece = body.substr(at, 70'000);
    char size[16];
    std::snprintf(size, sizeof(size), "%zx", piece.size());
    bytes += std::string(size) + "\r\n" + piece + "\r\n";
  }
  bytes += "0\r\n\r\n";
  client.write_raw(bytes);
  const auto echo = client.read_response().body();
  EXPECT_NE(echo.find("body-bytes: 200000\n"), std::string::npos) << echo;
  EXPECT_NE(echo.find("transfer-encoding: chunked\n"), std::string::npos);
}

TEST_F(ProxyTest, AnswersExpectContinueItself) {
  Client client(proxy_port());
  client.write_raw("POST " + job_path("/echo") +
                   " HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  const auto interim = client.read_response();
  EXPECT_EQ(interim.result(), http::status::continue_);
  client.write_raw("hello");
  const auto echo = client.read_response().body();
  EXPECT_NE(echo.find("body-bytes: 5\n"), std::string::npos) << echo;
  EXPECT_EQ(echo.find("expect:"), std::string::npos);
}

TEST_F(ProxyTest, RefusesAChunkedBodyBeyondTheLimit) {
  std::string bytes =
      "POST " + job_path("/echo") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string piece(100'000, 'x');
  for (int i = 0; i < 12; ++i) bytes += "186a0\r\n" + piece + "\r\n";
  bytes += "0\r\n\r\n";
  const auto answer = raw_exchange(proxy_port(), bytes);
  EXPECT_EQ(status_line(answer), "HTTP/1.1 413 Payload Too Large");
  EXPECT_NE(answer.find("larger than the 1048576 bytes this proxy takes."), std::string::npos);
}

}  // namespace
}  // namespace spindle::tbproxy::testing
