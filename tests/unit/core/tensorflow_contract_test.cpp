// Hands the environment we render for every task type to real TensorFlow
// and checks that TensorFlow reads it as we mean it.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "spindle/core/environment.h"
#include "spindle/core/shell_quote.h"
#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

using json = nlohmann::json;

// Runs the checker under `env -i` so that only what we rendered reaches it.
json tensorflow_view(const Environment& env) {
  std::string command = "env -i HOME=/tmp PATH=/usr/bin:/bin";
  for (const auto& [name, value] : env) command += " " + name + "=" + shell_quote(value);
  command += std::string(" ") + SPINDLE_PYTHON + " " + SPINDLE_SOURCE_DIR + "/tests/python/check_tf_config.py 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "TensorFlow refused the environment:\n" << out;
  const auto start = out.rfind("\n{");
  return json::parse(start == std::string::npos ? out : out.substr(start + 1), nullptr, false);
}

class TensorflowContractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(access(SPINDLE_PYTHON, X_OK), 0)
        << SPINDLE_PYTHON << " is missing; run scripts/setup to install TensorFlow";
  }

  static Environment render(const std::string& spec_text, const std::string& hosts, const TaskId& task) {
    SpecParseOptions options;
    options.check_files = false;
    auto spec = parse_job_spec(spec_text, options);
    EXPECT_TRUE(spec.ok()) << format_diagnostics(spec.error());
    auto addresses = ClusterAddresses::create(*spec, *parse_address_list(hosts));
    EXPECT_TRUE(addresses.ok()) << addresses.error().message;
    return task_environment(*spec, *addresses, TaskContext{"application_1_0001", task, 0});
  }
};

constexpr const char* ps_job =
    "output: /tmp/out\ncommand: python train.py\n"
    "tasks: {chief: {}, worker: {instances: 2}, ps: {instances: 2}, evaluator: {}, tensorboard: {}, reader: {}}\n";
constexpr const char* ps_hosts =
    "chief:0=c:2000,worker:0=w0:2001,worker:1=w1:2002,ps:0=p0:2003,ps:1=p1:2004,evaluator:0=e:2005,"
    "tensorboard:0=t:2006,reader:0=r:2007";
const json training_cluster = json::parse(R"({"chief": ["c:2000"], "worker": ["w0:2001", "w1:2002"],
                                              "ps": ["p0:2003", "p1:2004"]})");

TEST_F(TensorflowContractTest, ChiefWorkersAndParameterServers) {
  for (const TaskId& task : {TaskId{"chief", 0}, TaskId{"worker", 0}, TaskId{"worker", 1}, TaskId{"ps", 1}}) {
    const Environment env = render(ps_job, ps_hosts, task);
    const json view = tensorflow_view(env);
    ASSERT_FALSE(view.is_discarded()) << task.to_string();
    EXPECT_EQ(view["cluster"], training_cluster) << task.to_string();
    EXPECT_EQ(view["task_type"], task.type);
    EXPECT_EQ(view["task_id"], task.index);
    EXPECT_EQ(view["validated"], true);
    // TensorFlow's master for a task is the address we registered for it.
    EXPECT_EQ(view["master"], training_cluster[task.type][task.index]);
    // TonY's IS_CHIEF agrees with TensorFlow's idea of the chief.
    EXPECT_EQ(view["is_chief"].get<bool>(), env.at("IS_CHIEF") == "true") << task.to_string();
    if (task.type != "ps") {
      // PyTorch's RANK and WORLD_SIZE number tasks as TensorFlow does.
      EXPECT_EQ(std::to_string(view["id_in_cluster"].get<int>()), env.at("RANK")) << task.to_string();
      EXPECT_EQ(std::to_string(view["worker_count"].get<int>()), env.at("WORLD_SIZE"));
    }
  }
}

TEST_F(TensorflowContractTest, EvaluatorSeesTheClusterFromOutside) {
  const json view = tensorflow_view(render(ps_job, ps_hosts, TaskId{"evaluator", 0}));
  EXPECT_EQ(view["cluster"], training_cluster);
  EXPECT_EQ(view["task_type"], "evaluator");
  EXPECT_EQ(view["validated"], true);
}

TEST_F(TensorflowContractTest, CustomTaskSeesTheClusterFromOutside) {
  const json view = tensorflow_view(render(ps_job, ps_hosts, TaskId{"reader", 0}));
  EXPECT_EQ(view["cluster"], training_cluster);
  EXPECT_EQ(view["task_type"], "reader");
}

TEST_F(TensorflowContractTest, TensorboardIsNoPartOfTraining) {
  const json view = tensorflow_view(render(ps_job, ps_hosts, TaskId{"tensorboard", 0}));
  EXPECT_EQ(view["has_tf_config"], false);
  EXPECT_EQ(view["cluster"], json::object());
}

TEST_F(TensorflowContractTest, WorkersOnlyMakeWorkerZeroTheChief) {
  const char* spec = "command: python train.py\ntasks: {worker: {instances: 3}}\n";
  const char* hosts = "worker:0=a:1,worker:1=b:2,worker:2=c:3";
  for (int index = 0; index < 3; ++index) {
    const Environment env = render(spec, hosts, TaskId{"worker", index});
    const json view = tensorflow_view(env);
    EXPECT_EQ(view["is_chief"], index == 0);
    EXPECT_EQ(env.at("IS_CHIEF"), index == 0 ? "true" : "false");
    EXPECT_EQ(std::to_string(view["id_in_cluster"].get<int>()), env.at("RANK"));
  }
}

}  // namespace
}  // namespace spindle
