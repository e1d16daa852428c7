#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "spindle/core/environment.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

namespace spindle {
namespace {

Result<JobSpec, Diagnostics> parse(const std::string& yaml) {
  SpecParseOptions options;
  options.check_files = false;
  return parse_job_spec("name: tracked\n" + yaml + "tasks: {chief: {command: x}}\n", options);
}

TEST(MlflowSpec, TheBlockIsReadAndSurvivesYamlAndJson) {
  auto parsed = parse(
      "mlflow:\n  tracking_uri: http://mlflow.example.com:5000/\n  experiment: wine\n"
      "  run_name: lr-0.01\n  required: true\n");
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
  ASSERT_TRUE(parsed->mlflow.has_value());
  EXPECT_EQ(parsed->mlflow->tracking_uri, "http://mlflow.example.com:5000");
  EXPECT_EQ(parsed->mlflow->experiment, "wine");
  EXPECT_EQ(parsed->mlflow->run_name, "lr-0.01");
  EXPECT_TRUE(parsed->mlflow->required);
  auto from_yaml = parse_job_spec(to_yaml(*parsed), {});
  ASSERT_TRUE(from_yaml.ok()) << format_diagnostics(from_yaml.error());
  EXPECT_EQ(*from_yaml, *parsed);
  auto from_json = parse_job_spec(to_json(*parsed).dump(), {});
  ASSERT_TRUE(from_json.ok()) << format_diagnostics(from_json.error());
  EXPECT_EQ(*from_json, *parsed);
}

TEST(MlflowSpec, NestedRunsReachEachTaskAsItsOwnRun) {
  auto parsed = parse("env: {MLFLOW_RUN_ID: parent}\nmlflow:\n  nested: true\n  task_runs: {\"chief:0\": c0}\n");
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
  EXPECT_TRUE(parsed->mlflow->nested);
  EXPECT_EQ(parsed->mlflow->task_runs, (std::map<std::string, std::string>{{"chief:0", "c0"}}));
  auto again = parse_job_spec(to_json(*parsed).dump(), {});
  ASSERT_TRUE(again.ok()) << format_diagnostics(again.error());
  EXPECT_EQ(*again, *parsed);
  auto addresses = ClusterAddresses::create(*parsed, {{TaskId{"chief", 0}, HostPort{"node-a", 2222}}});
  ASSERT_TRUE(addresses.ok()) << addresses.error().message;
  const auto env = task_environment(*parsed, *addresses, TaskContext{"application_1_0001", {"chief", 0}, 0});
  EXPECT_EQ(env.at("MLFLOW_RUN_ID"), "c0");
  EXPECT_EQ(env.at("MLFLOW_PARENT_RUN_ID"), "parent");

  auto wrong = parse("mlflow:\n  task_runs: {chief: c0}\n");
  ASSERT_FALSE(wrong.ok());
  const auto text = format_diagnostics(wrong.error());
  EXPECT_NE(text.find("mlflow.task_runs.chief: is not a task; task_runs is written by spindle submit"),
            std::string::npos)
      << text;
}

TEST(MlflowSpec, AnEmptyBlockAsksForTrackingWithEverythingFromTheEnvironment) {
  auto parsed = parse("mlflow: {}\n");
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
  ASSERT_TRUE(parsed->mlflow.has_value());
  EXPECT_EQ(*parsed->mlflow, MlflowTracking{});
  auto again = parse_job_spec(to_yaml(*parsed), {});
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->mlflow.has_value());
}

TEST(MlflowSpec, ATrackingUriThatIsNoServerIsRefusedAtItsPlace) {
  auto parsed = parse("mlflow:\n  tracking_uri: file:./mlruns\n");
  ASSERT_FALSE(parsed.ok());
  const auto text = format_diagnostics(parsed.error());
  EXPECT_NE(text.find(":3:17: mlflow.tracking_uri: is \"file:./mlruns\", but Spindle talks to an MLflow tracking "
                      "server over its REST API; give its http:// or https:// address"),
            std::string::npos)
      << text;
}

TEST(MlflowSpec, UnknownKeysAndWrongTypesAreRefused) {
  auto unknown = parse("mlflow: {tracking_uri: http://m:5000, experimnet: wine}\n");
  ASSERT_FALSE(unknown.ok());
  auto text = format_diagnostics(unknown.error());
  EXPECT_NE(text.find("experimnet"), std::string::npos) << text;
  EXPECT_NE(text.find("experiment"), std::string::npos) << text;
  auto not_bool = parse("mlflow: {tracking_uri: http://m:5000, required: maybe}\n");
  ASSERT_FALSE(not_bool.ok());
  text = format_diagnostics(not_bool.error());
  EXPECT_NE(text.find("mlflow.required"), std::string::npos) << text;
  auto not_map = parse("mlflow: http://m:5000\n");
  ASSERT_FALSE(not_map.ok());
  text = format_diagnostics(not_map.error());
  EXPECT_NE(text.find("mlflow"), std::string::npos) << text;
}

}  // namespace
}  // namespace spindle
