#include <gtest/gtest.h>

#include "spindle/tbproxy/route.h"

namespace spindle::tbproxy {
namespace {

TEST(ApplicationId, AcceptsYarnsFormOnly) {
  EXPECT_TRUE(is_application_id("application_1700000000000_0001"));
  EXPECT_TRUE(is_application_id("application_1_12345"));
  EXPECT_FALSE(is_application_id("application_1700000000000_001"));
  EXPECT_FALSE(is_application_id("application_abc_0001"));
  EXPECT_FALSE(is_application_id("app_1_0001"));
  EXPECT_FALSE(is_application_id("application_1_0001_2"));
  EXPECT_FALSE(is_application_id("application__0001"));
  EXPECT_FALSE(is_application_id(""));
}

TEST(Route, StripsThePrefix) {
  auto route = route_request_target("/tb/application_1_0001/data/plugins_listing?x=1");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->application_id, "application_1_0001");
  EXPECT_EQ(route->upstream_target, "/data/plugins_listing?x=1");
}

TEST(Route, BareJobPathIsTheIndex) {
  EXPECT_EQ(route_request_target("/tb/application_1_0001")->upstream_target, "/");
  EXPECT_EQ(route_request_target("/tb/application_1_0001/")->upstream_target, "/");
  EXPECT_EQ(route_request_target("/tb/application_1_0001?a=b")->upstream_target, "/?a=b");
}

TEST(Route, RefusesEverythingElse) {
  for (const char* target : {"/", "/tb/", "/tb/nothing/x", "http://evil:80/tb/application_1_0001/",
                             "/tb//application_1_0001/", "tb/application_1_0001/", "/TB/application_1_0001/"}) {
    EXPECT_FALSE(route_request_target(target).has_value()) << target;
  }
}

TEST(Location, StaysUnderTheJobsPrefix) {
  EXPECT_EQ(rewrite_location("/#scalars", "application_1_0001", "h:6006"), "/tb/application_1_0001/#scalars");
  EXPECT_EQ(rewrite_location("http://h:6006/data", "application_1_0001", "h:6006"), "/tb/application_1_0001/data");
  EXPECT_EQ(rewrite_location("http://h:6006", "application_1_0001", "h:6006"), "/tb/application_1_0001/");
  EXPECT_EQ(rewrite_location("https://elsewhere/x", "application_1_0001", "h:6006"), "https://elsewhere/x");
  EXPECT_EQ(rewrite_location("//elsewhere/x", "application_1_0001", "h:6006"), "//elsewhere/x");
  EXPECT_EQ(rewrite_location("http://h:60061/x", "application_1_0001", "h:6006"), "http://h:60061/x");
}

}  // namespace
}  // namespace spindle::tbproxy
