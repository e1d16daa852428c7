#include "spindle/client/job_service.h"
#include "spindle/yarn/hadoop_configuration.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <stdlib.h>
#include <unistd.h>

#include "event_encoding.h"

namespace spindle::client {
namespace {

namespace fs = std::filesystem;
using namespace spindle::testing;

class DirectJobServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("spindle-job-service-" + std::to_string(::getpid()));
    fs::remove_all(directory_);
    fs::create_directories(directory_ / "logs" / "train");
    // The scalars go into this machine's history: this test's own.
    ::setenv("SPINDLE_DATA_DIR", directory_.c_str(), 1);
    // No cluster at all: each call that needs one says why, and only those.
    service_ = direct_job_service([this] {
      ++loads_;
      return Result<yarn::HadoopConfiguration>(make_error("HADOOP_CONF_DIR is not set"));
    });
  }
  void TearDown() override { fs::remove_all(directory_); }

  void write_events(const std::string& name, std::initializer_list<std::string> events) {
    std::ofstream out(directory_ / "logs" / "train" / name, std::ios::binary | std::ios::app);
    for (const auto& event : events) out << record(event);
  }

  fs::path directory_;
  int loads_ = 0;
  std::unique_ptr<JobService> service_;
};

TEST_F(DirectJobServiceTest, TheHistoryAndLocalEventFilesNeedNoCluster) {
  const auto history = directory_ / "history.sqlite";
  {
    auto store = HistoryStore::open(history);
    ASSERT_TRUE(store.ok()) << store.error().message;
    JobHistoryEntry job;
    job.application_id = "application_1_0007";
    job.name = "wine";
    job.spec_yaml = "command: x\noutput: " + (directory_ / "logs").string() + "\ntasks: {chief: {}}\n";
    ASSERT_TRUE(store->record_job(job).ok());
  }
  auto record = service_->job_on_record(history, "application_1_0007");
  ASSERT_TRUE(record.ok()) << record.error().message;
  EXPECT_EQ(record->entry.name, "wine");
  auto unknown = service_->job_on_record(history, "application_1_0008");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, Error::Kind::not_found);

  const auto output = record->entry.output_location();
  write_events("events.out.tfevents.1", {file_version_event(1.0), event(1, 2.0, {simple_value("loss", 0.5f)})});
  auto first = service_->new_scalars("application_1_0007", output);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(first->points.size(), 1u);
  EXPECT_EQ(first->points[0].tag, "loss");
  // Only what was written since: the service keeps its place in the job.
  write_events("events.out.tfevents.1", {event(2, 3.0, {simple_value("loss", 0.25f)})});
  auto second = service_->new_scalars("application_1_0007", output);
  ASSERT_TRUE(second.ok()) << second.error().message;
  ASSERT_EQ(second->points.size(), 1u);
  EXPECT_EQ(second->points[0].step, 2);
  auto all = service_->all_scalars("application_1_0007", output);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->size(), 2u);
  auto kept = HistoryStore::open(history)->metrics("application_1_0007");
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->size(), 2u) << "the new scalars are kept in the history";
  EXPECT_TRUE(service_->new_scalars("application_1_0009", "")->points.empty());
  EXPECT_EQ(loads_, 0);
  EXPECT_TRUE(service_->reaches_cluster_network());
  EXPECT_EQ(service_->served_tensorboard_url("application_1_0007"), std::nullopt);
}

TEST_F(DirectJobServiceTest, WhatNeedsTheClusterSaysWhyItCannotAndTriesAgainNextTime) {
  // Without a cluster the user is the one this machine's history records jobs under.
  auto user = service_->user();
  ASSERT_TRUE(user.ok());
  EXPECT_EQ(*user, yarn::hadoop_user_name());
  auto state = service_->cluster_state();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.error().message, "HADOOP_CONF_DIR is not set");
  EXPECT_FALSE(service_->kill("application_1_0007", "test").ok());
  auto now = service_->job_now("application_1_0007");
  EXPECT_FALSE(now.reported);
  ASSERT_TRUE(now.problem.has_value());
  EXPECT_EQ(now.problem->message, "HADOOP_CONF_DIR is not set");
  EXPECT_EQ(loads_, 4);
  // Nothing unfinished: nothing to ask, so no cluster is needed.
  EXPECT_TRUE(service_->refresh_history(directory_ / "history.sqlite", {}).ok());
  EXPECT_EQ(loads_, 4);
  EXPECT_FALSE(service_->refresh_history(directory_ / "history.sqlite", {"application_1_0007"}).ok());
}

}  // namespace
}  // namespace spindle::client
