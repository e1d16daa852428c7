#include "spindle/core/location_warnings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

class LocationWarnings : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& text) {
    const auto path = directory_ / "job.yaml";
    std::ofstream(path) << text;
    return path;
  }
  JobSpec load(const std::filesystem::path& path) {
    auto parsed = load_job_spec(path, /*check_files=*/false);
    EXPECT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
    return parsed.ok() ? *parsed : JobSpec{};
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path directory_ = [] {
    auto made = std::filesystem::temp_directory_path() / ("location-warnings-" + std::to_string(::getpid()));
    std::filesystem::create_directories(made);
    return made;
  }();
};

TEST_F(LocationWarnings, LocalOutputAndInputAreNamedWithTheirLines) {
  const auto path = write(
      "name: local-paths\n"
      "input: /data/wine\n"
      "output: file:///tmp/runs/wine\n"
      "tasks:\n"
      "  chief: {command: python train.py}\n");
  const auto warnings = location_warnings(load(path), path);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].field, "output");
  EXPECT_EQ(warnings[0].line, 3);
  EXPECT_EQ(warnings[0].file, path.string());
  EXPECT_NE(warnings[0].message.find("file:///tmp/runs/wine is a path on each node's own disk"), std::string::npos)
      << warnings[0].message;
  EXPECT_NE(warnings[0].message.find("hdfs:///user/"), std::string::npos) << warnings[0].message;
  EXPECT_EQ(warnings[1].field, "input");
  EXPECT_EQ(warnings[1].line, 2);
}

TEST_F(LocationWarnings, LocationsInTheClustersFileSystemsSayNothing) {
  const auto path = write(
      "name: on-hdfs\n"
      "input: hdfs://ns1/data/wine\n"
      "output: hdfs:///user/alice/runs/wine\n"
      "tasks:\n"
      "  chief: {command: python train.py}\n");
  EXPECT_TRUE(location_warnings(load(path), path).empty());
  JobSpec without;
  EXPECT_TRUE(location_warnings(without).empty());
}

TEST_F(LocationWarnings, WithoutASpecFileTheCommandLineIsThePlace) {
  JobSpec spec;
  spec.output = "/tmp/out";
  const auto warnings = location_warnings(spec);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].file, "command line");
  EXPECT_EQ(warnings[0].line, 0);
}

}  // namespace
}  // namespace spindle
