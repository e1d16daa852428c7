#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>

#include "http_test_support.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::tbproxy::testing {

// The jobs the test resolver knows, one per kind of answer.
inline constexpr const char* running_job = "application_1_0001";
inline constexpr const char* starting_job = "application_1_0002";
inline constexpr const char* ended_job = "application_1_0003";
inline constexpr const char* unreachable_job = "application_1_0004";
inline constexpr const char* refusing_job = "application_1_0005";  // an address nothing listens on
inline constexpr const char* throwing_job = "application_1_0006";
inline constexpr const char* nameless_job = "application_1_0007";  // a host name that does not resolve

// What the scripted TensorBoard saw.
struct UpstreamLog {
  std::mutex mutex;
  std::string last_echo;
  bool endless_stopped = false;
  int requests = 0;
};

// A proxy in front of a scripted upstream whose routes misbehave on demand
// (see proxy_fixture.cpp); both live for the whole suite.
class ProxyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static std::uint16_t proxy_port() { return proxy_->port(); }
  static std::uint16_t upstream_port() { return upstream_->port(); }
  static int upstream_connections() { return upstream_->connections(); }
  static UpstreamLog& log() { return *log_; }
  static std::string job_path(const std::string& rest) { return std::string("/tb/") + running_job + rest; }

  static inline std::unique_ptr<UpstreamLog> log_;
  static inline std::unique_ptr<ScriptedUpstream> upstream_;
  static inline std::unique_ptr<ProxyServer> proxy_;
};

// The scripted upstream's routes, also used by tests that start their own proxy.
void serve_scripted_routes(tcp::socket& socket, UpstreamLog& log);

// The resolver of ProxyTest, for tests that start their own proxy.
UpstreamLookup scripted_resolver(const std::string& application_id, std::uint16_t upstream_port);

// Options short enough for tests: TensorBoard "answers" within half a second.
ProxyOptions test_options();

}  // namespace spindle::tbproxy::testing
