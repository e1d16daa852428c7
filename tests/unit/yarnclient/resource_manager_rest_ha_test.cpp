// ResourceManager REST with HA ResourceManagers: a standby answers REST
// itself with its own empty view, so requests go to the one that says it is
// active in /ws/v1/cluster/info, and follow a failover.

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "fake_http_server.h"
#include "spindle/yarn/resource_manager_rest.h"

namespace spindle::yarn {
namespace {

using testing::FakeHttpServer;

// One ResourceManager whose HA state the test sets; as a standby it still
// answers /ws/v1/cluster/apps, with nothing in it.
FakeHttpServer::Handler resource_manager(const std::atomic<bool>& active, const std::string& application) {
  return [&active, application](const std::string& request) {
    if (request.starts_with("GET /ws/v1/cluster/info")) {
      return FakeHttpServer::answer(
          200, "OK", std::string(R"({"clusterInfo":{"haState":")") + (active ? "ACTIVE" : "STANDBY") + R"("}})");
    }
    if (request.starts_with("GET /ws/v1/cluster/apps")) {
      return FakeHttpServer::answer(
          200, "OK", active ? R"({"apps":{"app":[{"id":")" + application + R"("}]}})" : R"({"apps":{}})");
    }
    return FakeHttpServer::answer(404, "Not Found", "");
  };
}

TEST(ResourceManagerRestHa, RequestsGoToTheActiveOneAndFollowAFailover) {
  std::atomic<bool> rm1_active = true;
  std::atomic<bool> rm2_active = false;
  FakeHttpServer rm1(resource_manager(rm1_active, "application_1_0001"));
  FakeHttpServer rm2(resource_manager(rm2_active, "application_1_0001"));
  ResourceManagerRest::Options options;
  options.web_addresses = {rm1.address(), rm2.address()};
  options.user = "me";
  ResourceManagerRest rest(options);

  auto apps = rest.applications();
  ASSERT_TRUE(apps.ok()) << apps.error().message;
  EXPECT_EQ((*apps)["apps"]["app"][0]["id"], "application_1_0001");

  // Failover: rm1 is standby now and would answer with no applications.
  rm1_active = false;
  rm2_active = true;
  apps = rest.applications();
  ASSERT_TRUE(apps.ok()) << apps.error().message;
  ASSERT_TRUE((*apps)["apps"].contains("app")) << apps->dump();
  EXPECT_EQ((*apps)["apps"]["app"][0]["id"], "application_1_0001");
  EXPECT_EQ(rm2.requests().back().find("GET /ws/v1/cluster/apps"), 0u);
}

}  // namespace
}  // namespace spindle::yarn
