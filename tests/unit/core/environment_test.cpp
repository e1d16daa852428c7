#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "spindle/core/environment.h"
#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

const std::filesystem::path data_dir = std::filesystem::path(SPINDLE_SOURCE_DIR) / "tests/data/render-env";
constexpr const char* full_job_hosts =
    "chief:0=c0:2000,worker:0=w0:2001,worker:1=w1:2002,ps:0=p0:2003,evaluator:0=e0:2004,tensorboard:0=t0:2005,"
    "reader:0=r0:2006";

JobSpec load(const std::string& text) {
  SpecParseOptions options;
  options.check_files = false;
  auto spec = parse_job_spec(text, options);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : format_diagnostics(spec.error()));
  return spec.ok() ? *spec : JobSpec{};
}

ClusterAddresses addresses_for(const JobSpec& spec, const std::string& hosts) {
  auto list = parse_address_list(hosts);
  EXPECT_TRUE(list.ok()) << list.error().message;
  auto addresses = ClusterAddresses::create(spec, *list);
  EXPECT_TRUE(addresses.ok()) << addresses.error().message;
  return *addresses;
}

class GoldenEnvironmentTest : public ::testing::TestWithParam<const char*> {};

TEST_P(GoldenEnvironmentTest, MatchesTheGoldenFile) {
  auto spec = load_job_spec(data_dir / "full_job.yaml");
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.error());
  const auto task = parse_task_id(GetParam());
  ASSERT_TRUE(task.ok());
  const Environment env = task_environment(*spec, addresses_for(*spec, full_job_hosts),
                                           TaskContext{"application_1700000000000_0042", *task, 1});
  std::string file_name = GetParam();
  file_name.replace(file_name.find(':'), 1, "-");
  std::ifstream golden(data_dir / ("full_job." + file_name + ".json"));
  ASSERT_TRUE(golden) << "missing golden file for " << GetParam();
  EXPECT_EQ(nlohmann::json(env), nlohmann::json::parse(golden));
}

INSTANTIATE_TEST_SUITE_P(EveryTaskType, GoldenEnvironmentTest,
                         ::testing::Values("chief:0", "worker:1", "ps:0", "evaluator:0", "tensorboard:0", "reader:0"),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           name.replace(name.find(':'), 1, "_");
                           return name;
                         });

TEST(Environment, EvaluatorAndTensorboardStayOutOfTheTrainingCluster) {
  const JobSpec spec =
      load("output: /o\ncommand: x\ntasks: {worker: {instances: 2}, evaluator: {}, tensorboard: {}}\n");
  const auto addresses = addresses_for(spec, "worker:0=a:1,worker:1=b:2,evaluator:0=e:3,tensorboard:0=t:4");
  const auto evaluator = task_environment(spec, addresses, {"app", {"evaluator", 0}, 0});
  const auto config = nlohmann::json::parse(evaluator.at("TF_CONFIG"));
  EXPECT_EQ(config["cluster"], nlohmann::json::parse(R"({"worker": ["a:1", "b:2"]})"));
  EXPECT_EQ(config["task"], nlohmann::json::parse(R"({"type": "evaluator", "index": 0})"));
  const auto tensorboard = task_environment(spec, addresses, {"app", {"tensorboard", 0}, 0});
  EXPECT_FALSE(tensorboard.contains("TF_CONFIG"));
  EXPECT_EQ(tensorboard.at("DTF_TENSORBOARD_HOSTS"), "t:4");
}

TEST(Environment, WorkerZeroLeadsWithoutAChief) {
  const JobSpec spec = load("framework: pytorch\ncommand: x\ntasks: {worker: {instances: 3}}\n");
  const auto addresses = addresses_for(spec, "worker:0=a:10,worker:1=b:11,worker:2=c:12");
  const auto first = task_environment(spec, addresses, {"app", {"worker", 0}, 0});
  const auto last = task_environment(spec, addresses, {"app", {"worker", 2}, 0});
  EXPECT_EQ(first.at("IS_CHIEF"), "true");
  EXPECT_EQ(last.at("IS_CHIEF"), "false");
  EXPECT_EQ(first.at("RANK"), "0");
  EXPECT_EQ(last.at("RANK"), "2");
  EXPECT_EQ(last.at("MASTER_ADDR"), "a");
  EXPECT_EQ(last.at("MASTER_PORT"), "10");
  EXPECT_EQ(last.at("WORLD_SIZE"), "3");
}

TEST(Environment, Ipv6AddressesAreBracketed) {
  const JobSpec spec = load("command: x\ntasks: {worker: {}}\n");
  const auto addresses = addresses_for(spec, "worker:0=[::1]:2222");
  const auto env = task_environment(spec, addresses, {"app", {"worker", 0}, 0});
  EXPECT_EQ(env.at("DTF_WORKER_HOSTS"), "[::1]:2222");
  EXPECT_EQ(env.at("MASTER_ADDR"), "::1");
}

TEST(Environment, SpecVariablesCannotShadowTheContract) {
  for (const char* name : {"TF_CONFIG", "RANK", "DTF_PS_HOSTS", "SPINDLE_TASK", "CLUSTER_SPEC"}) {
    EXPECT_TRUE(is_reserved_variable(name)) << name;
  }
  EXPECT_FALSE(is_reserved_variable("TF_CPP_MIN_LOG_LEVEL"));
  EXPECT_FALSE(is_reserved_variable("PYTHONPATH"));
}

TEST(ClusterAddresses, NamesMissingAndUnknownTasks) {
  const JobSpec spec = load("command: x\ntasks: {worker: {instances: 2}, ps: {}}\n");
  auto missing = ClusterAddresses::create(spec, *parse_address_list("worker:0=a:1"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "no address for worker:1, ps:0; every task of the job needs one");
  auto extra = ClusterAddresses::create(spec, *parse_address_list("worker:0=a:1,worker:1=b:2,ps:0=c:3,ps:1=d:4"));
  ASSERT_FALSE(extra.ok());
  EXPECT_EQ(extra.error().message,
            "there is an address for ps:1, which the job does not have; its tasks are worker x2, ps x1");
}

TEST(AddressList, RejectsMalformedEntries) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "no addresses given"},
      {"worker:0", "is not TYPE:INDEX=HOST:PORT"},
      {"worker=h:1", "is not a task"},
      {"worker:x=h:1", "has no valid index"},
      {"worker:0=h", "has no port"},
      {"worker:0=h:0", "no valid port"},
      {"worker:0=h:70000", "no valid port"},
      {"worker:0=:1", "no valid host name"},
      {"worker:0=h\xff:1", "no valid host name"},
      {"worker:0=h/x:1", "no valid host name"},
      {"worker:0=::1:5", "looks like an IPv6 address"},
      {"worker:0=h:1,worker:0=g:2", "a second address"},
  };
  for (const auto& [text, message] : cases) {
    auto parsed = parse_address_list(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.error().message.find(message), std::string::npos) << text << ": " << parsed.error().message;
  }
}

}  // namespace
}  // namespace spindle
