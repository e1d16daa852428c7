// Real TensorBoard over event files real TensorFlow wrote, through the
// proxy: every answer must match what TensorBoard gives directly.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "http_test_support.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::tbproxy::testing {
namespace {

using json = nlohmann::json;

constexpr const char* job = "application_1700000000000_0042";

std::string job_path(const std::string& rest) {
  return std::string("/tb/") + job + rest;
}

// One connection per request, so a failed request does not spoil the next.
Response fetch(std::uint16_t port, Request request) {
  try {
    Client client(port);
    return client.send(std::move(request));
  } catch (const std::exception& e) {
    Response failed(http::status::unknown, 11);
    failed.body() = e.what();
    return failed;
  }
}

Request multirun_request(const std::string& target) {
  Request request(http::verb::post, target, 11);
  request.set(http::field::content_type, "application/x-www-form-urlencoded");
  request.body() = "tag=loss&runs=train&runs=eval";
  return request;
}

class TensorBoardProxyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(access(SPINDLE_PYTHON, X_OK), 0) << SPINDLE_PYTHON << " is missing; run scripts/setup";
    char pattern[] = "/tmp/spindle-tbproxy-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    directory_ = pattern;
    const auto logdir = directory_ / "logs";
    const std::string write_events = std::string(SPINDLE_PYTHON) + " " + SPINDLE_SOURCE_DIR +
                                     "/tests/python/write_scalar_events.py " + logdir.string() + " --steps 50 > " +
                                     (directory_ / "events.log").string() + " 2>&1";
    ASSERT_EQ(std::system(write_events.c_str()), 0) << "writing events failed; see " << directory_ / "events.log";

    tensorboard_port_ = unused_port();
    tensorboard_ = fork();
    ASSERT_GE(tensorboard_, 0);
    if (tensorboard_ == 0) {
      const auto log = (directory_ / "tensorboard.log").string();
      freopen(log.c_str(), "w", stdout);
      freopen(log.c_str(), "a", stderr);
      const auto port = std::to_string(tensorboard_port_);
      execl(SPINDLE_PYTHON, SPINDLE_PYTHON, "-m", "tensorboard.main", "--logdir", logdir.c_str(), "--port",
            port.c_str(), "--host", "127.0.0.1", "--reload_interval", "1", static_cast<char*>(nullptr));
      _exit(127);
    }
    // TensorBoard answers before it has read the logs; the tags say it has.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    bool ready = false;
    while (!ready && std::chrono::steady_clock::now() < deadline) {
      const auto tags = fetch(tensorboard_port_, get("/data/plugin/scalars/tags"));
      const auto parsed = json::parse(tags.body(), nullptr, false);
      ready = tags.result() == http::status::ok && parsed.is_object() && parsed.contains("train") &&
              parsed.contains("eval");
      if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ASSERT_TRUE(ready) << "TensorBoard did not load the logs; see " << directory_ / "tensorboard.log";

    auto started = ProxyServer::start(ProxyOptions{}, [](const std::string& application_id) -> UpstreamLookup {
      if (application_id == job) return UpstreamAddress{"127.0.0.1", tensorboard_port_};
      return UpstreamUnavailable{UpstreamState::unknown, ""};
    });
    ASSERT_TRUE(started.ok()) << started.error().message;
    proxy_ = std::move(*started);
  }

  static void TearDownTestSuite() {
    if (proxy_) proxy_->stop();
    proxy_.reset();
    if (tensorboard_ > 0) {
      kill(tensorboard_, SIGTERM);
      waitpid(tensorboard_, nullptr, 0);
    }
    std::error_code ignored;
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(directory_, ignored);
  }

  static Response direct(Request request) { return fetch(tensorboard_port_, std::move(request)); }
  static Response proxied(Request request) { return fetch(proxy_->port(), std::move(request)); }

  static inline std::filesystem::path directory_;
  static inline std::uint16_t tensorboard_port_ = 0;
  static inline pid_t tensorboard_ = -1;
  static inline std::unique_ptr<ProxyServer> proxy_;
};

TEST_F(TensorBoardProxyTest, IndexPage) {
  const auto response = proxied(get(job_path("/")));
  ASSERT_EQ(response.result(), http::status::ok) << response.body();
  EXPECT_EQ(response[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_NE(response.body().find("<title>TensorBoard</title>"), std::string::npos);
  EXPECT_EQ(response.body(), direct(get("/")).body());
}

TEST_F(TensorBoardProxyTest, PluginList) {
  const auto response = proxied(get(job_path("/data/plugins_listing")));
  ASSERT_EQ(response.result(), http::status::ok);
  const auto plugins = json::parse(response.body(), nullptr, false);
  ASSERT_TRUE(plugins.is_object()) << response.body();
  EXPECT_TRUE(plugins.contains("scalars"));
  EXPECT_EQ(plugins, json::parse(direct(get("/data/plugins_listing")).body()));
}

TEST_F(TensorBoardProxyTest, ScalarTags) {
  const auto response = proxied(get(job_path("/data/plugin/scalars/tags")));
  ASSERT_EQ(response.result(), http::status::ok);
  const auto tags = json::parse(response.body(), nullptr, false);
  for (const char* run : {"train", "eval"}) {
    ASSERT_TRUE(tags.contains(run)) << response.body();
    EXPECT_TRUE(tags[run].contains("loss"));
    EXPECT_TRUE(tags[run].contains("accuracy"));
  }
}

TEST_F(TensorBoardProxyTest, ScalarsOfSeveralRunsByPost) {
  const auto response = proxied(multirun_request(job_path("/data/plugin/scalars/scalars_multirun")));
  ASSERT_EQ(response.result(), http::status::ok) << response.body();
  const auto scalars = json::parse(response.body(), nullptr, false);
  ASSERT_TRUE(scalars.is_object()) << response.body();
  for (const char* run : {"train", "eval"}) {
    ASSERT_TRUE(scalars.contains(run));
    ASSERT_EQ(scalars[run].size(), 50u);
    // [wall time, step, value]; step 0 of train is the loss's first value, 2.0.
    EXPECT_EQ(scalars[run][49][1], 49);
  }
  EXPECT_DOUBLE_EQ(scalars["train"][0][2].get<double>(), 2.0);
  EXPECT_EQ(scalars, json::parse(direct(multirun_request("/data/plugin/scalars/scalars_multirun")).body()));
}

TEST_F(TensorBoardProxyTest, CompressedScriptPassesUntouched) {
  auto request = get(job_path("/index.js"));
  request.set(http::field::accept_encoding, "gzip");
  const auto response = proxied(request);
  ASSERT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_encoding], "gzip");
  auto direct_request = get("/index.js");
  direct_request.set(http::field::accept_encoding, "gzip");
  const auto expected = direct(direct_request);
  EXPECT_GT(expected.body().size(), 1'000'000u);
  EXPECT_TRUE(response.body() == expected.body()) << "the compressed bytes differ";
}

TEST_F(TensorBoardProxyTest, HeadGivesTheLengthOnly) {
  auto request = get(job_path("/"));
  request.method(http::verb::head);
  const auto response = proxied(request);
  ASSERT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_length], std::to_string(direct(get("/")).body().size()));
}

TEST_F(TensorBoardProxyTest, OneClientConnectionForManyRequests) {
  // TensorBoard closes its side after every answer; the browser's side stays open.
  Client client(proxy_->port());
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(client.send(get(job_path("/data/plugins_listing"))).result(), http::status::ok);
    EXPECT_EQ(client.send(multirun_request(job_path("/data/plugin/scalars/scalars_multirun"))).result(),
              http::status::ok);
  }
}

TEST_F(TensorBoardProxyTest, OtherJobsAreNotFound) {
  EXPECT_EQ(proxied(get("/tb/application_1700000000000_0043/")).result(), http::status::not_found);
}

}  // namespace
}  // namespace spindle::tbproxy::testing
