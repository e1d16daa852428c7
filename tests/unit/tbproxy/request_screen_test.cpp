#include "spindle/tbproxy/request_screen.h"

#include <gtest/gtest.h>

namespace spindle::tbproxy {
namespace {

http::request_header<> head(http::verb method, const std::string& target, const std::string& host = "127.0.0.1:8080") {
  http::request_header<> request;
  request.method(method);
  request.target(target);
  request.version(11);
  if (!host.empty()) request.set(http::field::host, host);
  return request;
}

const Answer& answer_of(const Verdict& verdict) {
  static const Answer none;
  const auto* answer = std::get_if<Answer>(&verdict);
  EXPECT_NE(answer, nullptr);
  return answer ? *answer : none;
}

TEST(Screen, ForwardsAJobsPath) {
  const auto verdict = screen_request(head(http::verb::get, "/tb/application_1_0001/data/logdir"), ScreenPolicy{});
  ASSERT_TRUE(std::holds_alternative<Forward>(verdict));
  EXPECT_EQ(std::get<Forward>(verdict).route.upstream_target, "/data/logdir");
}

TEST(Screen, LoopbackNamesOnlyWithoutAToken) {
  for (const char* host : {"localhost", "LOCALHOST:1", "127.0.0.1", "127.1.2.3:99", "[::1]:8080"}) {
    EXPECT_TRUE(std::holds_alternative<Forward>(
        screen_request(head(http::verb::get, "/tb/application_1_0001/", host), ScreenPolicy{})))
        << host;
  }
  for (const char* host : {"evil.example", "127.0.0.1.evil.example", "localhost.evil", "[::2]", "10.0.0.1"}) {
    EXPECT_EQ(answer_of(screen_request(head(http::verb::get, "/tb/application_1_0001/", host), ScreenPolicy{})).status,
              http::status::forbidden)
        << host;
  }
}

TEST(Screen, Http10MayLeaveOutHost) {
  auto request = head(http::verb::get, "/tb/application_1_0001/", "");
  request.version(10);
  EXPECT_TRUE(std::holds_alternative<Forward>(screen_request(request, ScreenPolicy{})));
  request.version(11);
  EXPECT_EQ(answer_of(screen_request(request, ScreenPolicy{})).sentence, "An HTTP/1.1 request needs a Host field.");
}

TEST(Screen, DeclaredBodyOverTheLimit) {
  auto request = head(http::verb::post, "/tb/application_1_0001/x");
  request.set(http::field::content_length, "101");
  ScreenPolicy policy;
  policy.max_body_bytes = 100;
  EXPECT_EQ(answer_of(screen_request(request, policy)).status, http::status::payload_too_large);
  request.set(http::field::content_length, "100, 100");
  EXPECT_TRUE(std::holds_alternative<Forward>(screen_request(request, policy)));
  request.set(http::field::content_length, "-1");
  EXPECT_EQ(answer_of(screen_request(request, policy)).sentence, "The request's Content-Length is not one number.");
}

TEST(Screen, TokenRedirectKeepsTheRestOfTheQuery) {
  ScreenPolicy policy;
  policy.access_token = "abc";
  const auto verdict = screen_request(head(http::verb::get, "/tb/application_1_0001/?token=abc"), policy);
  const auto& answer = answer_of(verdict);
  EXPECT_EQ(answer.status, http::status::found);
  EXPECT_EQ(answer.location, "/tb/application_1_0001/");
  EXPECT_EQ(answer.set_cookie, "spindle_tb_token=abc; Path=/; HttpOnly; SameSite=Strict");
  // A prefix of the token is not the token.
  EXPECT_EQ(answer_of(screen_request(head(http::verb::get, "/tb/application_1_0001/?token=ab"), policy)).status,
            http::status::forbidden);
}

TEST(UpstreamHead, FramingComesFromTheProxy) {
  auto client = head(http::verb::post, "/tb/application_1_0001/x");
  client.set(http::field::content_length, "12");
  client.set(http::field::connection, "Content-Length, close");
  const ProxyRoute route{"application_1_0001", "/x"};
  auto upstream = upstream_request_head(client, route, "node:6006", "10.0.0.9", "http", false, 12);
  EXPECT_EQ(upstream[http::field::content_length], "12");
  EXPECT_EQ(upstream[http::field::host], "node:6006");
  EXPECT_EQ(upstream.count(http::field::connection), 0u);
  EXPECT_EQ(upstream.target(), "/x");
  EXPECT_EQ(upstream["X-Forwarded-Proto"], "http");
  upstream = upstream_request_head(client, route, "node:6006", "10.0.0.9", "https", true, 0);
  EXPECT_EQ(upstream["X-Forwarded-Proto"], "https");
  EXPECT_EQ(upstream[http::field::transfer_encoding], "chunked");
  EXPECT_EQ(upstream.count(http::field::content_length), 0u);
}

TEST(ClientHead, RewritesLocationAndDropsFraming) {
  http::response_header<> upstream;
  upstream.result(http::status::found);
  upstream.set(http::field::location, "http://node:6006/#scalars");
  upstream.set(http::field::transfer_encoding, "chunked");
  upstream.set(http::field::content_encoding, "gzip");
  const auto client = client_response_head(upstream, "application_1_0001", "node:6006");
  EXPECT_EQ(client[http::field::location], "/tb/application_1_0001/#scalars");
  EXPECT_EQ(client.count(http::field::transfer_encoding), 0u);
  EXPECT_EQ(client[http::field::content_encoding], "gzip");
  EXPECT_EQ(client.result(), http::status::found);
}

}  // namespace
}  // namespace spindle::tbproxy
