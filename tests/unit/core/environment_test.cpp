#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

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

// The variables TensorFlow does not read, checked against the contracts of the programs that do,
// as those document or implement them, rather than against our own earlier output.
class PublishedContract : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = load(
        "output: /o\ncommand: x\ntasks: {chief: {}, worker: {instances: 3}, ps: {instances: 2}, evaluator: {},"
        " tensorboard: {}, reader: {role: service}}\n");
    for (const auto& [task, address] : hosts_) {
      if (!hosts_list_.empty()) hosts_list_ += ",";
      hosts_list_ += task + "=" + address;
    }
    const auto addresses = addresses_for(spec_, hosts_list_);
    for (const auto& [task, address] : hosts_) {
      const auto id = parse_task_id(task);
      ASSERT_TRUE(id.ok());
      envs_[task] = task_environment(spec_, addresses, TaskContext{"application_1_0001", *id, 0});
    }
  }

  JobSpec spec_;
  const std::map<std::string, std::string> hosts_{
      {"chief:0", "c0:4000"},     {"worker:0", "w0:4001"},      {"worker:1", "w1:4002"},
      {"worker:2", "w2:4003"},    {"ps:0", "p0:4004"},          {"ps:1", "p1:4005"},
      {"evaluator:0", "e0:4006"}, {"tensorboard:0", "t0:4007"}, {"reader:0", "r0:4008"}};
  std::string hosts_list_;
  std::map<std::string, Environment> envs_;
};

// PyTorch's env:// initialisation: every process of the group reads WORLD_SIZE (the number of
// processes), its own RANK (unique, 0 to WORLD_SIZE - 1), and MASTER_ADDR and MASTER_PORT, where
// the process of rank 0 listens. torchrun's LOCAL_RANK is a process's rank among the processes of
// its own node (here, of its container, which runs one).
TEST_F(PublishedContract, PyTorchEnvInitialisation) {
  std::set<int> ranks;
  std::string rank_zero;
  std::optional<std::string> world_size;
  std::optional<std::string> master;
  for (const auto& [task, env] : envs_) {
    if (!env.contains("RANK")) {
      // A task outside the group may know where the group meets, but claims no place in it.
      EXPECT_FALSE(env.contains("LOCAL_RANK")) << task;
      continue;
    }
    const int rank = std::stoi(env.at("RANK"));
    EXPECT_TRUE(ranks.insert(rank).second) << task << " shares rank " << rank;
    if (rank == 0) rank_zero = task;
    if (!world_size) world_size = env.at("WORLD_SIZE");
    EXPECT_EQ(env.at("WORLD_SIZE"), *world_size) << task;
    const auto here = env.at("MASTER_ADDR") + ":" + env.at("MASTER_PORT");
    if (!master) master = here;
    EXPECT_EQ(here, *master) << task;
    EXPECT_EQ(env.at("LOCAL_RANK"), "0") << task;
  }
  ASSERT_TRUE(world_size.has_value());
  // The chief and the three workers train together.
  EXPECT_EQ(*world_size, "4");
  std::set<int> expected;
  for (int rank = 0; rank < std::stoi(*world_size); ++rank) expected.insert(rank);
  EXPECT_EQ(ranks, expected);
  ASSERT_FALSE(rank_zero.empty());
  EXPECT_EQ(*master, hosts_.at(rank_zero))
      << "MASTER_ADDR:MASTER_PORT must be where rank 0 (" << rank_zero << ") listens";
}

// TonY's executors set JOB_NAME to the task's type, TASK_INDEX to its index, TASK_NUM to the
// number of tasks the job waits for (every type but the untracked ones, ps by default: Spindle's
// services), and CLUSTER_SPEC to the same map of type to addresses that TF_CONFIG's cluster holds.
TEST_F(PublishedContract, TonyVariables) {
  int tracked = 0;
  for (const auto& type : spec_.tasks) {
    if (type.role == TaskRole::tracked) tracked += type.instances;
  }
  ASSERT_EQ(tracked, 5);  // chief, three workers, the evaluator
  for (const auto& [task, env] : envs_) {
    const auto colon = task.find(':');
    EXPECT_EQ(env.at("JOB_NAME"), task.substr(0, colon)) << task;
    EXPECT_EQ(env.at("TASK_INDEX"), task.substr(colon + 1)) << task;
    EXPECT_EQ(env.at("TASK_NUM"), std::to_string(tracked)) << task;
    if (env.contains("TF_CONFIG")) {
      EXPECT_EQ(nlohmann::json::parse(env.at("CLUSTER_SPEC")), nlohmann::json::parse(env.at("TF_CONFIG"))["cluster"])
          << task;
    }
  }
  // The cluster TonY's scripts build their servers from: every training task at its address.
  const auto cluster = nlohmann::json::parse(envs_.at("worker:1").at("CLUSTER_SPEC"));
  EXPECT_EQ(cluster, nlohmann::json::parse(R"({"chief":["c0:4000"],"worker":["w0:4001","w1:4002","w2:4003"],)"
                                           R"("ps":["p0:4004","p1:4005"]})"));
}

// The YARN-DTF design: DTF_<TYPE>_HOSTS lists each type's addresses in index order, comma
// separated; DTF_TASK_JOB_NAME and DTF_TASK_INDEX name the task.
TEST_F(PublishedContract, YarnDtfVariables) {
  std::map<std::string, std::string> lists;
  for (const auto& [task, address] : hosts_) {
    auto type = task.substr(0, task.find(':'));
    for (auto& letter : type) letter = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    auto& list = lists["DTF_" + type + "_HOSTS"];
    list += (list.empty() ? "" : ",") + address;  // hosts_ is ordered by index within a type
  }
  for (const auto& [task, env] : envs_) {
    const auto colon = task.find(':');
    EXPECT_EQ(env.at("DTF_TASK_JOB_NAME"), task.substr(0, colon)) << task;
    EXPECT_EQ(env.at("DTF_TASK_INDEX"), task.substr(colon + 1)) << task;
    for (const auto& [name, list] : lists) EXPECT_EQ(env.at(name), list) << task << " " << name;
  }
}

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

// What torchrun gives each of its workers, for a script written against torchrun: every container
// is a group (torchrun's node) of one process, and all ranks share one role. The run id is the job.
TEST(Environment, TorchrunWorkerVariables) {
  const JobSpec spec = load("framework: pytorch\ncommand: x\ntasks: {chief: {}, worker: {instances: 2}}\n");
  const auto addresses = addresses_for(spec, "chief:0=c:9,worker:0=a:10,worker:1=b:11");
  const auto env = task_environment(spec, addresses, {"application_7_0003", {"worker", 1}, 0});
  EXPECT_EQ(env.at("RANK"), "2");
  EXPECT_EQ(env.at("GROUP_RANK"), "2");
  EXPECT_EQ(env.at("ROLE_RANK"), "2");
  EXPECT_EQ(env.at("LOCAL_RANK"), "0");
  EXPECT_EQ(env.at("LOCAL_WORLD_SIZE"), "1");
  EXPECT_EQ(env.at("WORLD_SIZE"), "3");
  EXPECT_EQ(env.at("ROLE_WORLD_SIZE"), "3");
  EXPECT_EQ(env.at("TORCHELASTIC_RUN_ID"), "application_7_0003");
  for (const char* name : {"GROUP_RANK", "LOCAL_WORLD_SIZE", "TORCHELASTIC_RUN_ID"}) {
    EXPECT_TRUE(is_reserved_variable(name)) << name;
  }
}

// `processes: N` makes each container a group of N ranks, numbered container after container.
TEST(Environment, SeveralProcessesPerContainerTakeConsecutiveRanks) {
  const JobSpec spec = load(
      "framework: pytorch\ncommand: x\ntasks: {chief: {processes: 2}, worker: {instances: 2, processes: 2, gpus: "
      "4}}\n");
  const auto addresses = addresses_for(spec, "chief:0=c:9,worker:0=a:10,worker:1=b:11");
  const auto env = task_environment(spec, addresses, {"app", {"worker", 1}, 0});
  EXPECT_EQ(env.at("WORLD_SIZE"), "6");
  EXPECT_EQ(env.at("RANK"), "4");
  EXPECT_EQ(env.at("GROUP_RANK"), "2");
  EXPECT_EQ(env.at("LOCAL_WORLD_SIZE"), "2");
  EXPECT_EQ(env.at("MASTER_ADDR") + ":" + env.at("MASTER_PORT"), "c:9");
  Environment container = env;
  container["CUDA_VISIBLE_DEVICES"] = "0,1,2,3";
  const auto second = process_environment(container, 1, 2);
  EXPECT_EQ(second.at("RANK"), "5");
  EXPECT_EQ(second.at("ROLE_RANK"), "5");
  EXPECT_EQ(second.at("LOCAL_RANK"), "1");
  EXPECT_EQ(second.at("CUDA_VISIBLE_DEVICES"), "2,3");
  EXPECT_EQ(process_environment(container, 0, 2).at("CUDA_VISIBLE_DEVICES"), "0,1");
  // A task outside the group runs as it is.
  const auto ps_like = Environment{{"JOB_NAME", "evaluator"}};
  EXPECT_EQ(process_environment(ps_like, 1, 2), ps_like);
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
