// Reads event files that real TensorFlow wrote and holds our scalars against
// what real TensorBoard serves from the same files.

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spindle/core/tfevents.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Series = std::map<std::string, std::map<std::string, std::vector<ScalarPoint>>>;  // run -> tag -> points

Series our_series(const std::vector<RunScalars>& runs) {
  Series series;
  for (const auto& run : runs) {
    for (const auto& point : run.points) series[run.run][point.tag].push_back(point);
  }
  return series;
}

class TensorboardAgreement : public ::testing::Test {
 protected:
  // TensorFlow takes seconds to start and ctest runs each test in a process
  // of its own, so one test holds all the checks on one set of files.
  static void SetUpTestSuite() {
    // TensorBoard takes any path whose last part holds "tfevents" for an event file, directories too.
    logdir_ = fs::temp_directory_path() / ("spindle-tensorboard-agreement-" + std::to_string(::getpid()));
    fs::remove_all(logdir_);
    fs::create_directories(logdir_);
    const std::string command = std::string(SPINDLE_PYTHON) + " " + SPINDLE_SOURCE_DIR +
                                "/tests/python/tensorboard_scalars.py " + logdir_.string() + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output_.append(buffer.data(), n);
    const int status = pclose(pipe);
    exit_ok_ = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const auto start = output_.rfind("\n{");
    view_ = json::parse(start == std::string::npos ? output_ : output_.substr(start + 1), nullptr, false);
  }
  static void TearDownTestSuite() { fs::remove_all(logdir_); }

  void SetUp() override {
    ASSERT_EQ(access(SPINDLE_PYTHON, X_OK), 0)
        << SPINDLE_PYTHON << " is missing; run scripts/setup to install TensorFlow";
    ASSERT_TRUE(exit_ok_) << "TensorFlow or TensorBoard failed:\n" << output_;
    ASSERT_FALSE(view_.is_discarded()) << "TensorBoard's view is not JSON:\n" << output_;
  }

  static Series tensorboard_series() {
    Series series;
    for (const auto& [run, tags] : view_["runs"].items()) {
      for (const auto& [tag, points] : tags.items()) {
        for (const auto& point : points) {
          series[run][tag].push_back(
              ScalarPoint{tag, point[0].get<std::int64_t>(), point[1].get<double>(), point[2].get<double>()});
        }
      }
    }
    return series;
  }

  static inline fs::path logdir_;
  static inline std::string output_;
  static inline bool exit_ok_ = false;
  static inline json view_;
};

void expect_same_runs_tags_steps_times_and_values(const fs::path& logdir, const Series& theirs) {
  LocalLogFileSystem files;
  LogDirectoryReader reader(files, logdir.string());
  auto update = reader.poll();
  ASSERT_TRUE(update.ok()) << update.error().message;
  EXPECT_TRUE(update->problems.empty()) << update->problems.front().message;

  const Series ours = our_series(update->runs);
  ASSERT_EQ(ours.size(), theirs.size());
  for (const auto& [run, tags] : theirs) {
    ASSERT_TRUE(ours.contains(run)) << "run " << run;
    for (const auto& [tag, points] : tags) {
      ASSERT_TRUE(ours.at(run).contains(tag)) << run << " " << tag;
      EXPECT_EQ(ours.at(run).at(tag), points) << run << " " << tag;
    }
    for (const auto& [tag, points] : ours.at(run))
      EXPECT_TRUE(tags.contains(tag)) << "only we have " << run << " " << tag;
  }
}

void expect_files_hold_what_the_comparison_needs(const Series& theirs) {
  // Both TF1 routes, TF2 scalars and a tensor of every dtype made it into TensorBoard's view.
  for (const auto& [run, tag] : std::vector<std::pair<std::string, std::string>>{{".", "tf1/loss"},
                                                                                 {"tf1/session", "session_value"},
                                                                                 {"train", "loss"},
                                                                                 {"train", "int32_steps"},
                                                                                 {"train", "int64_examples"},
                                                                                 {"train", "float64_ratio"},
                                                                                 {"train", "float16_scale"},
                                                                                 {"train", "shape_1x1"},
                                                                                 {"eval", "accuracy"},
                                                                                 {"cut", "accuracy"}}) {
    ASSERT_TRUE(theirs.contains(run) && theirs.at(run).contains(tag)) << run << " " << tag;
    EXPECT_FALSE(theirs.at(run).at(tag).empty()) << run << " " << tag;
  }
  EXPECT_EQ(theirs.at("train").at("loss").size(), 25u) << "both files of the restarted run";
  EXPECT_EQ(theirs.at("cut").at("accuracy").size() + 1, theirs.at("eval").at("accuracy").size())
      << "the cut copy lacks its last record";
  EXPECT_FALSE(theirs.at("train").contains("no_plugin"));
  EXPECT_FALSE(theirs.at("train").contains("weights"));
}

void expect_same_points_when_polling_as_the_files_grow(const fs::path& logdir, const Series& theirs) {
  // Feed a copy of the TF2 run's files a few bytes at a time.
  const fs::path copy = logdir.parent_path() / (logdir.filename().string() + "-growing");
  fs::remove_all(copy);
  fs::create_directories(copy / "train");
  std::vector<std::pair<fs::path, std::string>> sources;
  for (const auto& entry : fs::directory_iterator(logdir / "train")) {
    std::ifstream in(entry.path(), std::ios::binary);
    sources.emplace_back(copy / "train" / entry.path().filename(), std::string(std::istreambuf_iterator<char>(in), {}));
  }
  std::sort(sources.begin(), sources.end());

  LocalLogFileSystem files;
  LogDirectoryReader reader(files, copy.string());
  std::vector<RunScalars> runs{{"train", {}}};
  for (const auto& [target, bytes] : sources) {
    for (std::size_t written = 0; written < bytes.size(); written += 777) {
      std::ofstream(target, std::ios::binary | std::ios::app) << bytes.substr(written, 777);
      auto update = reader.poll();
      ASSERT_TRUE(update.ok()) << update.error().message;
      ASSERT_TRUE(update->problems.empty()) << update->problems.front().message;
      for (auto& run : update->runs) runs[0].points.insert(runs[0].points.end(), run.points.begin(), run.points.end());
    }
  }
  fs::remove_all(copy);
  EXPECT_EQ(our_series(runs).at("train"), theirs.at("train"));
}

TEST_F(TensorboardAgreement, OurScalarsAreTensorboards) {
  const Series theirs = tensorboard_series();
  {
    SCOPED_TRACE("the files hold what the comparison needs");
    expect_files_hold_what_the_comparison_needs(theirs);
  }
  {
    SCOPED_TRACE("read at once");
    expect_same_runs_tags_steps_times_and_values(logdir_, theirs);
  }
  {
    SCOPED_TRACE("read while the files grow");
    expect_same_points_when_polling_as_the_files_grow(logdir_, theirs);
  }
}

}  // namespace
}  // namespace spindle
