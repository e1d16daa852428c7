// remove_staging_left_behind on a local file system and against a fake
// WebHDFS: it removes the job's own directory and nothing else.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../yarnclient/fake_http_server.h"
#include "spindle/client/submit.h"

namespace spindle::client {
namespace {

using yarn::testing::FakeHttpServer;

const std::string application = "application_1700000000000_0042";

class LocalStaging : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("spindle-staging-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(root_ / ".spindle" / application);
    std::ofstream(root_ / ".spindle" / application / "job.json") << "{}";
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::filesystem::path root_;
  yarn::HadoopConfiguration configuration_;
};

TEST_F(LocalStaging, RemovesTheJobsDirectoryOnceAndThenFindsNothing) {
  const auto location = (root_ / ".spindle" / application).string();
  auto removed = remove_staging_left_behind(configuration_, application, location);
  ASSERT_TRUE(removed) << removed.error().message;
  EXPECT_TRUE(*removed);
  EXPECT_FALSE(std::filesystem::exists(location));
  EXPECT_TRUE(std::filesystem::exists(root_ / ".spindle"));

  auto again = remove_staging_left_behind(configuration_, application, location);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(*again);
}

TEST_F(LocalStaging, LeavesAnythingButTheJobsOwnDirectoryAlone) {
  for (const auto& location : {(root_ / ".spindle").string(), root_.string(),
                               (root_ / ".spindle" / "application_1700000000000_0043").string()}) {
    auto removed = remove_staging_left_behind(configuration_, application, location);
    ASSERT_FALSE(removed) << location;
    EXPECT_NE(removed.error().message.find("left alone"), std::string::npos) << removed.error().message;
  }
  EXPECT_TRUE(std::filesystem::exists(root_ / ".spindle" / application / "job.json"));
}

yarn::HadoopConfiguration hdfs_configuration(const FakeHttpServer& namenode) {
  yarn::HadoopConfiguration configuration;
  configuration.set("fs.defaultFS", "hdfs://localhost:8020");
  configuration.set("dfs.namenode.http-address", namenode.address());
  return configuration;
}

TEST(HdfsStaging, DeletesTheRecordedPathThroughWebHdfs) {
  FakeHttpServer namenode([](const std::string& request) {
    return request.starts_with("DELETE ") ? FakeHttpServer::answer(200, "OK", R"({"boolean":true})")
                                          : FakeHttpServer::answer(400, "Bad Request", "");
  });
  auto removed = remove_staging_left_behind(hdfs_configuration(namenode), application,
                                            "hdfs://localhost:8020/user/someone/.spindle/" + application);
  ASSERT_TRUE(removed) << removed.error().message;
  EXPECT_TRUE(*removed);
  const auto requests = namenode.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_TRUE(requests[0].starts_with("DELETE /webhdfs/v1/user/someone/.spindle/" + application + "?op=DELETE"))
      << requests[0];
  EXPECT_NE(requests[0].find("recursive=true"), std::string::npos) << requests[0];
}

TEST(HdfsStaging, AnAbsentDirectoryIsNothingToRemove) {
  FakeHttpServer namenode([](const std::string&) { return FakeHttpServer::answer(200, "OK", R"({"boolean":false})"); });
  auto removed = remove_staging_left_behind(hdfs_configuration(namenode), application,
                                            "hdfs://localhost:8020/user/someone/.spindle/" + application);
  ASSERT_TRUE(removed) << removed.error().message;
  EXPECT_FALSE(*removed);
}

TEST(HdfsStaging, AFailedDeleteIsAnError) {
  FakeHttpServer namenode([](const std::string&) {
    return FakeHttpServer::answer(403, "Forbidden",
                                  R"({"RemoteException":{"exception":"AccessControlException","message":"denied"}})");
  });
  auto removed = remove_staging_left_behind(hdfs_configuration(namenode), application,
                                            "hdfs://localhost:8020/user/someone/.spindle/" + application);
  ASSERT_FALSE(removed);
  EXPECT_NE(removed.error().message.find("denied"), std::string::npos) << removed.error().message;
}

TEST(HdfsStaging, AnotherClustersDirectoryIsNotTouched) {
  FakeHttpServer namenode([](const std::string&) { return FakeHttpServer::answer(200, "OK", R"({"boolean":true})"); });
  auto removed = remove_staging_left_behind(hdfs_configuration(namenode), application,
                                            "hdfs://elsewhere:8020/user/someone/.spindle/" + application);
  ASSERT_FALSE(removed);
  EXPECT_NE(removed.error().message.find("not on this cluster's file system"), std::string::npos)
      << removed.error().message;
  EXPECT_TRUE(namenode.requests().empty());
}

}  // namespace
}  // namespace spindle::client
