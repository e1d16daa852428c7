#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

namespace spindle {
namespace {

SpecParseOptions no_file_checks() {
  SpecParseOptions options;
  options.check_files = false;
  options.base_dir = "/jobs";
  return options;
}

constexpr const char* spec_with_file_systems = R"(name: reads-two-clusters
file_systems: [hdfs://nn2.example.com:8020, webhdfs://nn3.example.com:9870]
tasks:
  worker: {command: python train.py}
)";

TEST(FileSystemsSpec, ListsNameNodesAndSurvivesYamlAndJson) {
  auto parsed = parse_job_spec(spec_with_file_systems, no_file_checks());
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
  const std::vector<std::string> expected{"hdfs://nn2.example.com:8020", "webhdfs://nn3.example.com:9870"};
  EXPECT_EQ(parsed->file_systems, expected);
  for (const std::string& text : {to_yaml(*parsed), to_json(*parsed).dump()}) {
    auto again = parse_job_spec(text, no_file_checks());
    ASSERT_TRUE(again.ok()) << format_diagnostics(again.error());
    EXPECT_EQ(again->file_systems, expected) << text;
  }
}

TEST(FileSystemsSpec, RefusesWhatIsNotANameNode) {
  for (const char* wrong : {"file_systems: [s3a://bucket]", "file_systems: [hdfs:///user/me]",
                            "file_systems: hdfs://nn:8020", "file_systems: [/user/me]"}) {
    auto parsed = parse_job_spec(std::string(wrong) + "\ntasks: {worker: {command: x}}\n", no_file_checks());
    ASSERT_FALSE(parsed.ok()) << wrong;
    EXPECT_NE(format_diagnostics(parsed.error()).find("file_systems"), std::string::npos)
        << format_diagnostics(parsed.error());
  }
}

}  // namespace
}  // namespace spindle
