// The proxy in front of a scripted upstream: forwarding, headers both ways,
// the pages for jobs without a TensorBoard, the connection pool and tokens.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "proxy_fixture.h"

namespace spindle::tbproxy::testing {
namespace {

std::string field(const Response& response, http::field name) {
  return std::string(response[name]);
}
std::string field(const Response& response, const char* name) {
  return std::string(response[name]);
}

TEST_F(ProxyTest, ForwardsWithThePrefixStripped) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/echo?run=train&tag=loss")));
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_NE(response.body().find("target: /echo?run=train&tag=loss\n"), std::string::npos) << response.body();
  EXPECT_NE(response.body().find("method: GET\n"), std::string::npos);
}

TEST_F(ProxyTest, SaysWhereTheRequestCameFrom) {
  Client client(proxy_port());
  auto request = get(job_path("/echo"));
  request.set(http::field::host, "localhost:1234");
  request.set("X-Forwarded-For", "6.6.6.6");
  const auto echo = client.send(request).body();
  EXPECT_NE(echo.find("host: 127.0.0.1:" + std::to_string(upstream_port()) + "\n"), std::string::npos) << echo;
  EXPECT_NE(echo.find("x-forwarded-for: 127.0.0.1\n"), std::string::npos) << echo;
  EXPECT_EQ(echo.find("6.6.6.6"), std::string::npos) << echo;
  EXPECT_NE(echo.find("x-forwarded-proto: http\n"), std::string::npos);
  EXPECT_NE(echo.find("x-forwarded-host: localhost:1234\n"), std::string::npos);
  EXPECT_NE(echo.find(std::string("x-forwarded-prefix: /tb/") + running_job + "\n"), std::string::npos);
}

TEST_F(ProxyTest, DropsHopByHopFieldsOfTheRequest) {
  Client client(proxy_port());
  auto request = get(job_path("/echo"));
  request.set(http::field::connection, "keep-alive, X-Client-Hop");
  request.set("X-Client-Hop", "1");
  request.set(http::field::keep_alive, "timeout=5");
  request.set(http::field::proxy_authorization, "Basic eDp5");
  request.set("Proxy-Connection", "keep-alive");
  request.set(http::field::te, "trailers");
  request.set(http::field::trailer, "X-Sum");
  request.set("X-End-To-End", "yes");
  const auto echo = client.send(request).body();
  for (const char* dropped :
       {"x-client-hop", "keep-alive", "proxy-authorization", "proxy-connection", "te:", "trailer", "connection"}) {
    EXPECT_EQ(echo.find(std::string("\n") + dropped), std::string::npos) << dropped << " in\n" << echo;
  }
  EXPECT_NE(echo.find("x-end-to-end: yes\n"), std::string::npos);
}

TEST_F(ProxyTest, DropsHopByHopFieldsOfTheResponse) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/hop-headers")));
  EXPECT_EQ(response.body(), "ok");
  for (const char* dropped : {"X-Upstream-Hop", "Keep-Alive", "Proxy-Authenticate", "Trailer", "Upgrade"}) {
    EXPECT_EQ(response.find(dropped), response.end()) << dropped;
  }
  EXPECT_EQ(field(response, "X-Kept"), "1");
}

TEST_F(ProxyTest, KeepsRedirectsUnderTheJobsPrefix) {
  Client client(proxy_port());
  auto response = client.send(get(job_path("/redirect")));
  EXPECT_EQ(response.result(), http::status::found);
  EXPECT_EQ(field(response, http::field::location), job_path("/somewhere?x=1"));
  response = client.send(get(job_path("/redirect-absolute")));
  EXPECT_EQ(field(response, http::field::location), job_path("/elsewhere"));
}

TEST_F(ProxyTest, PassesGzipThroughUntouched) {
  Client client(proxy_port());
  auto request = get(job_path("/gzip"));
  request.set(http::field::accept_encoding, "gzip");
  const auto response = client.send(request);
  EXPECT_EQ(field(response, http::field::content_encoding), "gzip");
  EXPECT_EQ(response.body(), std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\x56\x00\x00\x00\xff\xff", 17));
}

TEST_F(ProxyTest, AnswersHeadWithTheUpstreamsLengthAndNoBody) {
  Client client(proxy_port());
  auto head = get(job_path("/head-only"));
  head.method(http::verb::head);
  const auto response = client.send(head);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(field(response, http::field::content_length), "1234");
  // The connection is still in step: the next answer is the next request's.
  EXPECT_EQ(client.send(get(job_path("/hop-headers"))).body(), "ok");
}

TEST_F(ProxyTest, SkipsInterimAnswers) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/interim")));
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), "ok");
}

TEST_F(ProxyTest, ReusesUpstreamConnections) {
  {
    Client warm(proxy_port());
    warm.send(get(job_path("/echo")));
  }
  const int before = upstream_connections();
  for (int client_number = 0; client_number < 3; ++client_number) {
    Client client(proxy_port());
    for (int i = 0; i < 10; ++i) EXPECT_EQ(client.send(get(job_path("/echo"))).result(), http::status::ok);
  }
  EXPECT_EQ(upstream_connections(), before);
}

TEST_F(ProxyTest, RecoversWhenTheUpstreamClosesAPooledConnection) {
  Client client(proxy_port());
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(client.send(get(job_path("/close-after"))).body(), "closing");
    EXPECT_EQ(client.send(get(job_path("/echo"))).result(), http::status::ok) << "round " << i;
  }
}

TEST(ProxyLookups, AsksTheResolverOnceWhileItsAnswerIsFresh) {
  UpstreamLog log;
  ScriptedUpstream upstream([&log](tcp::socket& socket) { serve_scripted_routes(socket, log); });
  std::atomic<int> calls = 0;
  // A slow resolver, so that requests arriving together wait for its one answer.
  auto started = ProxyServer::start(test_options(), [&](const std::string& application_id) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return scripted_resolver(application_id, upstream.port());
  });
  ASSERT_TRUE(started.ok()) << started.error().message;
  const auto proxy = std::move(*started);
  const auto path = std::string("/tb/") + running_job + "/echo?from=";
  std::vector<std::thread> together;
  std::atomic<int> answered = 0;
  for (int i = 0; i < 4; ++i) {
    together.emplace_back([&, i] {
      Client client(proxy->port());
      const auto response = client.send(get(path + std::to_string(i)));
      // Only an answer that reached the resolver's upstream counts.
      if (response.result() == http::status::ok &&
          response.body().find("target: /echo?from=" + std::to_string(i) + "\n") != std::string::npos) {
        ++answered;
      }
    });
  }
  for (auto& thread : together) thread.join();
  for (int i = 4; i < 8; ++i) {
    Client client(proxy->port());
    const auto response = client.send(get(path + std::to_string(i)));
    EXPECT_EQ(response.result(), http::status::ok) << response.body();
    EXPECT_NE(response.body().find("target: /echo?from=" + std::to_string(i) + "\n"), std::string::npos)
        << response.body();
  }
  EXPECT_EQ(answered.load(), 4);
  EXPECT_EQ(calls.load(), 1);
  proxy->stop();
}

TEST_F(ProxyTest, UnknownJobIsNotFound) {
  Client client(proxy_port());
  const auto response = client.send(get("/tb/application_1_9999/"));
  EXPECT_EQ(response.result(), http::status::not_found);
  EXPECT_NE(response.body().find("No job application_1_9999 is known on this machine."), std::string::npos);
  EXPECT_EQ(field(response, http::field::content_type), "text/html; charset=utf-8");
}

TEST_F(ProxyTest, StartingTensorBoardGetsAPageThatRetries) {
  Client client(proxy_port());
  const auto response = client.send(get(std::string("/tb/") + starting_job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_EQ(field(response, "Refresh"), "5");
  EXPECT_NE(response.body().find(std::string("TensorBoard of ") + starting_job +
                                 " is starting; this page retries every 5 s."),
            std::string::npos)
      << response.body();
}

TEST_F(ProxyTest, EndedJobIsGone) {
  Client client(proxy_port());
  const auto response = client.send(get(std::string("/tb/") + ended_job + "/"));
  EXPECT_EQ(response.result(), http::status::gone);
  EXPECT_NE(response.body().find("has ended, and its TensorBoard with it."), std::string::npos);
}

TEST_F(ProxyTest, UnreachableClusterIsABadGatewayThatRetries) {
  Client client(proxy_port());
  auto response = client.send(get(std::string("/tb/") + unreachable_job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("The ResourceManager at rm:8032 does not answer; this page retries"),
            std::string::npos)
      << response.body();
  response = client.send(get(std::string("/tb/") + throwing_job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("the resolver broke"), std::string::npos);
  response = client.send(get(std::string("/tb/") + nameless_job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("does not resolve"), std::string::npos) << response.body();
}

TEST_F(ProxyTest, TensorBoardNotListeningIsABadGateway) {
  Client client(proxy_port());
  const auto response = client.send(get(std::string("/tb/") + refusing_job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_EQ(field(response, "Refresh"), "5");
  EXPECT_NE(response.body().find("does not answer at 127.0.0.1:"), std::string::npos) << response.body();
  // The connection stays usable after a page.
  EXPECT_EQ(client.send(get(job_path("/echo"))).result(), http::status::ok);
}

TEST_F(ProxyTest, SilentTensorBoardTimesOut) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/silent")));
  EXPECT_EQ(response.result(), http::status::gateway_timeout);
  EXPECT_NE(response.body().find("sent no answer within 3 s."), std::string::npos) << response.body();
}

TEST_F(ProxyTest, UpstreamClosingWithoutAnswerIsABadGateway) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/die-before-answer")));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("closed the connection without an answer"), std::string::npos);
}

TEST_F(ProxyTest, StatusOutsideHttpIsABadGateway) {
  Client client(proxy_port());
  const auto response = client.send(get(job_path("/odd-status")));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("answered with status 3, which HTTP lacks."), std::string::npos) << response.body();
}

TEST_F(ProxyTest, RedirectsTheBareJobPathToItsSlash) {
  Client client(proxy_port());
  const auto response = client.send(get(std::string("/tb/") + running_job + "?a=b"));
  EXPECT_EQ(response.result(), http::status::moved_permanently);
  EXPECT_EQ(field(response, http::field::location), std::string("/tb/") + running_job + "/?a=b");
}

TEST(ProxyStart, RefusesToListenBeyondThisMachineWithoutAToken) {
  ProxyOptions options;
  options.bind_address = "0.0.0.0";
  auto started = ProxyServer::start(options, [](const std::string&) { return UpstreamLookup(UpstreamUnavailable{}); });
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message,
            "listening on 0.0.0.0 lets other machines in, so the proxy needs an access token for it");
  options.bind_address = "not an address";
  options.access_token = "t";
  started = ProxyServer::start(options, [](const std::string&) { return UpstreamLookup(UpstreamUnavailable{}); });
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message, "\"not an address\" is not an address to listen on");
}

TEST(ProxyStart, AccessTokensAreLongAndDiffer) {
  const auto first = make_access_token();
  const auto second = make_access_token();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->size(), 64u);
  EXPECT_NE(*first, *second);
  EXPECT_TRUE(is_loopback_address("127.0.0.1"));
  EXPECT_TRUE(is_loopback_address("::1"));
  EXPECT_TRUE(is_loopback_address("localhost"));
  EXPECT_FALSE(is_loopback_address("0.0.0.0"));
  EXPECT_FALSE(is_loopback_address("10.1.2.3"));
}

class TokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    upstream_ =
        std::make_unique<ScriptedUpstream>([this](tcp::socket& socket) { serve_scripted_routes(socket, log_); });
    auto options = test_options();
    options.access_token = "secret-token";
    auto started = ProxyServer::start(options, [this](const std::string& application_id) {
      return scripted_resolver(application_id, upstream_->port());
    });
    ASSERT_TRUE(started.ok()) << started.error().message;
    proxy_ = std::move(*started);
  }

  UpstreamLog log_;
  std::unique_ptr<ScriptedUpstream> upstream_;
  std::unique_ptr<ProxyServer> proxy_;
};

TEST_F(TokenTest, WithoutTheTokenNothingPasses) {
  Client client(proxy_->port());
  auto response = client.send(get(std::string("/tb/") + running_job + "/echo"));
  EXPECT_EQ(response.result(), http::status::unauthorized);
  EXPECT_NE(response.body().find("needs its access token"), std::string::npos);
  response = client.send(get(std::string("/tb/") + running_job + "/echo?token=wrong"));
  EXPECT_EQ(response.result(), http::status::forbidden);
  auto request = get(std::string("/tb/") + running_job + "/echo");
  request.set(http::field::cookie, "spindle_tb_token=wrong");
  EXPECT_EQ(client.send(request).result(), http::status::forbidden);
  // Unknown jobs look the same as known ones to a visitor without the token.
  EXPECT_EQ(client.send(get("/tb/application_1_9999/")).result(), http::status::unauthorized);
  EXPECT_EQ(log_.requests, 0);
}

TEST_F(TokenTest, TheTokenInTheAddressBecomesACookie) {
  Client client(proxy_->port());
  const auto response = client.send(get(std::string("/tb/") + running_job + "/echo?x=1&token=secret-token&y=2"));
  EXPECT_EQ(response.result(), http::status::found);
  EXPECT_EQ(field(response, http::field::location), std::string("/tb/") + running_job + "/echo?x=1&y=2");
  const auto cookie = field(response, http::field::set_cookie);
  EXPECT_NE(cookie.find("spindle_tb_token=secret-token"), std::string::npos);
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
}

TEST_F(TokenTest, TheCookieLetsRequestsThroughWithoutReachingTensorBoard) {
  Client client(proxy_->port());
  auto request = get(std::string("/tb/") + running_job + "/echo");
  // With a token, any Host may be used: the proxy is meant to be reached from elsewhere.
  request.set(http::field::host, "workstation.example:8080");
  request.set(http::field::cookie, "theme=dark; spindle_tb_token=secret-token; lang=en");
  const auto response = client.send(request);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_NE(response.body().find("cookie: theme=dark; lang=en\n"), std::string::npos) << response.body();
  EXPECT_EQ(response.body().find("secret-token"), std::string::npos);
}

}  // namespace
}  // namespace spindle::tbproxy::testing
