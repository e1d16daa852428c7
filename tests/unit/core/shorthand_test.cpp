#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "spindle/core/shorthand.h"

namespace spindle {
namespace {

ShorthandOptions ytf(std::string requirement, std::string command = "python ${DTF_TASK_SCRIPT}") {
  ShorthandOptions options;
  options.cluster_requirement = std::move(requirement);
  options.command = std::move(command);
  return options;
}

TEST(Shorthand, BuildsTasksFromTheRequirement) {
  auto options = ytf("ps:1,worker:4");
  options.memory = "2g";
  options.vcores = 2;
  options.queue = "ml-gpu";
  options.input = "hdfs:///data";
  auto spec = job_spec_from_shorthand(options, "/", false);
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.error());
  ASSERT_EQ(spec->tasks.size(), 2u);
  EXPECT_EQ(spec->tasks[0].type, "worker");
  EXPECT_EQ(spec->tasks[0].instances, 4);
  EXPECT_EQ(spec->tasks[0].memory_mib, 2048u);
  EXPECT_EQ(spec->tasks[0].vcores, 2);
  EXPECT_EQ(spec->tasks[0].command, "python ${DTF_TASK_SCRIPT}");
  EXPECT_EQ(spec->tasks[1].type, "ps");
  EXPECT_EQ(spec->tasks[1].role, TaskRole::service);
  EXPECT_EQ(spec->queue, "ml-gpu");
  EXPECT_EQ(spec->name, "TensorFlow");
  EXPECT_EQ(spec->input, "hdfs:///data");
}

TEST(Shorthand, TensorboardAndScript) {
  const auto dir = std::filesystem::temp_directory_path() / ("spindle-shorthand-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mnist.py") << "pass\n";
  auto options = ytf("ps:1,worker:2");
  options.tensorboard = true;
  options.output = "hdfs:///out";
  options.script = "mnist.py";
  auto spec = job_spec_from_shorthand(options, dir);
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.error());
  EXPECT_NE(spec->find_task("tensorboard"), nullptr);
  EXPECT_EQ(spec->script, "mnist.py");
  EXPECT_EQ(spec->files.at(0).source, (dir / "mnist.py").string());
  std::filesystem::remove_all(dir);
}

TEST(Shorthand, BareMemoryIsMiBAsInYtfSubmit) {
  auto options = ytf("worker:1");
  options.memory = "8192";
  auto spec = job_spec_from_shorthand(options, "/", false);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->tasks[0].memory_mib, 8192u);
}

struct BadShorthand {
  const char* name;
  ShorthandOptions options;
  const char* field;
  const char* message;
};

class BadShorthandTest : public ::testing::TestWithParam<BadShorthand> {};

TEST_P(BadShorthandTest, NamesTheOption) {
  auto spec = job_spec_from_shorthand(GetParam().options, "/nonexistent-dir", true);
  ASSERT_FALSE(spec.ok());
  bool found = false;
  for (const auto& diagnostic : spec.error()) {
    found = found ||
            (diagnostic.field == GetParam().field && diagnostic.message.find(GetParam().message) != std::string::npos);
  }
  EXPECT_TRUE(found) << format_diagnostics(spec.error());
}

ShorthandOptions with(ShorthandOptions options, auto change) {
  change(options);
  return options;
}

INSTANTIATE_TEST_SUITE_P(
    Rejected, BadShorthandTest,
    ::testing::Values(
        BadShorthand{"empty", ytf(""), "-r", "is missing"},
        BadShorthand{"no_count", ytf("ps,worker:2"), "-r", "\"ps\" is not TYPE:COUNT"},
        BadShorthand{"zero_count", ytf("worker:0"), "-r", "give a whole number of at least 1"},
        BadShorthand{"word_count", ytf("worker:two"), "-r", "has the count \"two\""},
        BadShorthand{"twice", ytf("worker:1,worker:2"), "-r", "names \"worker\" twice"},
        BadShorthand{"bad_type", ytf("Work-er:1"), "-r", "is not a valid task type"},
        BadShorthand{"tensorboard_in_r", ytf("worker:1,tensorboard:1"), "-r", "ask for it with -t"},
        BadShorthand{"no_command", ytf("worker:1", ""), "COMMAND", "is missing"},
        BadShorthand{"bad_memory", with(ytf("worker:1"), [](auto& o) { o.memory = "lots"; }), "-m",
                     "is not a memory size"},
        BadShorthand{"bad_vcores", with(ytf("worker:1"), [](auto& o) { o.vcores = 0; }), "-c", "out of range"},
        BadShorthand{"tensorboard_without_output", with(ytf("worker:1"), [](auto& o) { o.tensorboard = true; }), "-t",
                     "needs -o OUTPUT"},
        BadShorthand{"missing_script", with(ytf("worker:1"), [](auto& o) { o.script = "nope.py"; }), "-s",
                     "does not exist"},
        BadShorthand{"two_chiefs", ytf("chief:2,worker:1"), "tasks.chief.instances", "at most one chief"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace spindle
