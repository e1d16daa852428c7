// What an executor tells the master its task wrote, from which the master tells a stalled task.

#include "spindle/core/task_writes.h"

#include <gtest/gtest.h>

#include <fstream>

namespace spindle {
namespace {

class TaskWritesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("task-writes-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_ / "train");
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  void append(const std::filesystem::path& name, const std::string& bytes) {
    std::ofstream(directory_ / name, std::ios::app) << bytes;
  }
  std::uint64_t fingerprint() { return task_writes(directory_).output_fingerprint; }

  std::filesystem::path directory_;
};

TEST_F(TaskWritesTest, AnEmptyOrMissingOutputHasNoFingerprint) {
  EXPECT_EQ(fingerprint(), 0u);
  EXPECT_EQ(task_writes(directory_ / "missing").output_fingerprint, 0u);
  EXPECT_EQ(task_writes({}).output_fingerprint, 0u);
}

TEST_F(TaskWritesTest, EachWriteCreateAndRemovalChangesTheFingerprint) {
  append("train/events.out.tfevents.1", "scalar");
  const auto first = fingerprint();
  EXPECT_NE(first, 0u);
  EXPECT_EQ(fingerprint(), first) << "nothing written, nothing changed";
  append("train/events.out.tfevents.1", "another scalar");
  const auto grown = fingerprint();
  EXPECT_NE(grown, first);
  append("checkpoint", "model_checkpoint_path: \"ckpt-1\"");
  const auto created = fingerprint();
  EXPECT_NE(created, grown);
  std::filesystem::remove(directory_ / "checkpoint");
  EXPECT_EQ(fingerprint(), grown);
}

TEST_F(TaskWritesTest, TheWalkIsBounded) {
  for (int i = 0; i < 20; ++i) append("file-" + std::to_string(i), "x");
  const auto bounded = task_writes(directory_, 5).output_fingerprint;
  EXPECT_NE(bounded, task_writes(directory_).output_fingerprint);
}

}  // namespace
}  // namespace spindle
