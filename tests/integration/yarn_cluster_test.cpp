// The YARN client against Hadoop's own ResourceManager of tests/yarn-cluster.

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "spindle/yarn/application_client.h"
#include "spindle/yarn/resource_manager_rest.h"

namespace spindle::yarn {
namespace {

ApplicationClient connect() {
  auto configuration = HadoopConfiguration::from_environment();
  EXPECT_TRUE(configuration.ok()) << configuration.error().message;
  return ApplicationClient(ApplicationClient::options_for(*configuration));
}

std::int64_t gpus(const Resources& resources) {
  auto found = resources.others.find("yarn.io/gpu");
  return found == resources.others.end() ? 0 : found->second;
}

TEST(LocalYarn, HasTwoActiveNodeManagers) {
  auto metrics = connect().cluster_metrics();
  ASSERT_TRUE(metrics.ok()) << metrics.error().message;
  EXPECT_EQ(metrics->active, 2);
  EXPECT_EQ(metrics->lost, 0);
}

TEST(LocalYarn, OneNodeCarriesTheGpuLabelAndTwoGpus) {
  auto nodes = connect().nodes();
  ASSERT_TRUE(nodes.ok()) << nodes.error().message;
  ASSERT_EQ(nodes->size(), 2u);
  int labelled = 0;
  for (const auto& node : *nodes) {
    EXPECT_EQ(node.state, "RUNNING");
    EXPECT_GT(node.capability.memory_mib, 0);
    EXPECT_GT(node.capability.vcores, 0);
    const bool gpu_node = std::find(node.labels.begin(), node.labels.end(), "gpu") != node.labels.end();
    labelled += gpu_node ? 1 : 0;
    EXPECT_EQ(gpus(node.capability), gpu_node ? 2 : 0) << node.id;
  }
  EXPECT_EQ(labelled, 1);
}

TEST(LocalYarn, OnlyMlGpuReachesTheGpuLabel) {
  auto root = connect().queue("root", true);
  ASSERT_TRUE(root.ok()) << root.error().message;
  std::map<std::string, std::vector<std::string>> labels;
  for (const auto& child : root->children) labels[child.name] = child.accessible_labels;
  ASSERT_TRUE(labels.contains("default"));
  ASSERT_TRUE(labels.contains("ml-gpu"));
  EXPECT_NE(std::find(labels["ml-gpu"].begin(), labels["ml-gpu"].end(), "gpu"), labels["ml-gpu"].end());
  EXPECT_EQ(std::find(labels["default"].begin(), labels["default"].end(), "gpu"), labels["default"].end());
}

TEST(LocalYarn, ExclusiveGpuLabel) {
  auto labels = connect().node_labels();
  ASSERT_TRUE(labels.ok()) << labels.error().message;
  ASSERT_EQ(labels->size(), 1u);
  EXPECT_EQ(labels->front().name, "gpu");
  EXPECT_TRUE(labels->front().exclusive);
}

TEST(LocalYarn, UnknownQueueIsOneSentence) {
  auto queue = connect().queue("nightly", false);
  ASSERT_FALSE(queue.ok());
  EXPECT_NE(queue.error().message.find("the cluster has no queue \"nightly\"; its queues are "), std::string::npos)
      << queue.error().message;
}

TEST(LocalYarn, ManyCallsInFlightOnOneConnection) {
  auto client = connect();
  std::vector<std::thread> threads;
  std::atomic<int> answered = 0;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        if (client.cluster_metrics().ok()) ++answered;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(answered.load(), 200);
}

Error submit_expecting_refusal(const std::function<void(SubmissionRequest&)>& change) {
  auto client = connect();
  auto created = client.new_application();
  EXPECT_TRUE(created.ok());
  SubmissionRequest request;
  request.id = created->id;
  request.name = "refused";
  request.am.commands = {"sleep 30"};
  change(request);
  auto submitted = client.submit(request);
  EXPECT_FALSE(submitted.ok());
  // Nothing of it may be left running.
  auto report = client.report(created->id);
  if (report.ok()) {
    EXPECT_TRUE(report->state == "NEW" || report->finished()) << report->state;
  }
  return submitted.ok() ? Error{} : submitted.error();
}

TEST(LocalYarn, SubmitToAnUnknownQueue) {
  const Error error = submit_expecting_refusal([](SubmissionRequest& r) { r.queue = "nightly"; });
  EXPECT_NE(error.message.find("the cluster has no queue \"nightly\"; its queues are "), std::string::npos)
      << error.message;
}

TEST(LocalYarn, SubmitAboveTheMaximumAllocation) {
  const Error error = submit_expecting_refusal([](SubmissionRequest& r) { r.am_resources.memory_mib = 100'000; });
  EXPECT_NE(error.message.find("the request <memory:100000, vCores:1> is larger than the largest container the "
                               "cluster grants (<memory:8192"),
            std::string::npos)
      << error.message;
  EXPECT_NE(error.message.find("ask for less"), std::string::npos);
}

TEST(LocalYarn, SubmitWithALabelNobodyHas) {
  const Error error = submit_expecting_refusal([](SubmissionRequest& r) { r.am_node_label = "tpu"; });
  EXPECT_EQ(error.message,
            "queue default cannot place containers on node label \"tpu\" (it may use no labels); submit to a queue "
            "that can, or drop the label");
}

// Runs a shell command line; its exit code and everything it printed.
std::pair<int, std::string> run(const std::string& command_line) {
  FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::pair<int, std::string> spindle(const std::string& arguments) {
  return run(std::string(SPINDLE_CLI_PATH) + " " + arguments);
}

TEST(LocalYarn, DoctorChecksEveryStep) {
  auto [code, out] = spindle("doctor");
  EXPECT_EQ(code, 0) << out;
  for (const char* step : {"OK    configuration", "OK    ResourceManager: 2 active", "OK    NameNode", "OK    staging",
                           "OK    application", "spindle probe ran on "}) {
    EXPECT_NE(out.find(step), std::string::npos) << step << " missing from:\n" << out;
  }
}

TEST(LocalYarn, LocalCommandSeesTheRunningCluster) {
  // The fixture's state directory holds the configuration it wrote.
  const std::string state = std::filesystem::path(std::getenv("HADOOP_CONF_DIR")).parent_path().string();
  ::setenv("SPINDLE_LOCAL_YARN_DIR", state.c_str(), 1);
  auto [code, out] = spindle("local status");
  EXPECT_EQ(code, 0) << out;
  std::tie(code, out) = spindle("local env");
  EXPECT_EQ(code, 0);
  EXPECT_EQ(out, "export HADOOP_CONF_DIR=" + std::string(std::getenv("HADOOP_CONF_DIR")) + "\n");
}

TEST(LocalYarn, ClusterInfoJson) {
  auto [code, out] = spindle("cluster info --json");
  ASSERT_EQ(code, 0) << out;
  const auto info = nlohmann::json::parse(out);
  EXPECT_EQ(info["node_managers"]["active"], 2);
  EXPECT_EQ(info["capacity"]["yarn.io/gpu"], 2);
  EXPECT_EQ(info["node_labels"][0]["name"], "gpu");
  auto queues = info["queues"].get<std::vector<std::string>>();
  std::sort(queues.begin(), queues.end());
  EXPECT_EQ(queues, (std::vector<std::string>{"default", "ml-gpu"}));
}

TEST(LocalYarn, ClusterCommandsPrintTables) {
  for (const char* command : {"cluster nodes", "cluster queues", "cluster labels"}) {
    auto [code, out] = spindle(command);
    EXPECT_EQ(code, 0) << command << ": " << out;
    EXPECT_NE(out.find("gpu"), std::string::npos) << command << ": " << out;
  }
}

// The daemons of the test cluster share one JVM. Each web server must still answer its own
// routes, as in a cluster of one daemon per host: on Hadoop 3.3 and 3.4 the web apps share a
// static filter that would route them all to the last one started.
TEST(LocalYarn, EachWebServerAnswersForItsOwnDaemon) {
  auto configuration = HadoopConfiguration::from_environment();
  ASSERT_TRUE(configuration.ok()) << configuration.error().message;
  auto rest = ResourceManagerRest::from_configuration(*configuration);
  auto info = rest.cluster_info();
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->at("clusterInfo").at("state"), "STARTED");
  auto nodes = rest.nodes();
  ASSERT_TRUE(nodes.ok()) << nodes.error().message;
  const auto& listed = nodes->at("nodes").at("node");
  ASSERT_EQ(listed.size(), 2u) << *nodes;
  for (const auto& node : listed) {
    const std::string address = node.at("nodeHTTPAddress");
    auto [code, out] = run("curl -sS --max-time 20 http://" + address + "/ws/v1/node/info");
    ASSERT_EQ(code, 0) << address << ": " << out;
    const auto own = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(own.is_discarded()) << address << " answered no JSON: " << out;
    EXPECT_EQ(own.at("nodeInfo").at("id"), node.at("id"))
        << "the web server at " << address << " answered for another node";
  }
}

// Runs `spindle cluster nodes` against a configuration naming `address` as the ResourceManager.
std::pair<int, std::string> nodes_at(const std::string& address, const std::string& extra_properties = "") {
  const std::string conf = ::testing::TempDir() + "/odd-rm-" + std::to_string(::getpid());
  std::filesystem::create_directories(conf);
  std::ofstream(conf + "/yarn-site.xml") << "<configuration><property><name>yarn.resourcemanager.address</name><value>"
                                         << address << "</value></property>" << extra_properties << "</configuration>";
  auto result = run("env HADOOP_CONF_DIR=" + conf + " " + SPINDLE_CLI_PATH + " cluster nodes");
  std::filesystem::remove_all(conf);
  return result;
}

TEST(LocalYarn, AWebServerInTheResourceManagersPlace) {
  auto configuration = HadoopConfiguration::from_environment();
  const std::string web = configuration->resource_manager_address(RmService::webapp);
  auto [code, out] = nodes_at(web);
  EXPECT_EQ(code, 3);
  EXPECT_NE(out.find("the ResourceManager at " + web), std::string::npos) << out;
  EXPECT_NE(out.find("is that address a ResourceManager's client port?"), std::string::npos) << out;
}

TEST(LocalYarn, ASilentPortTimesOutAsConfigured) {
  // A socket that takes connections into its backlog and never says a word.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  socklen_t length = sizeof(address);
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const auto start = std::chrono::steady_clock::now();
  auto [code, out] = nodes_at("127.0.0.1:" + std::to_string(ntohs(address.sin_port)),
                              "<property><name>ipc.client.rpc-timeout.ms</name><value>1500</value></property>");
  const auto took = std::chrono::steady_clock::now() - start;
  ::close(listener);
  EXPECT_EQ(code, 3);
  EXPECT_NE(out.find("did not answer in time"), std::string::npos) << out;
  // The sentence names the timeout the call used: the configured one, not the default of 120 s.
  EXPECT_NE(out.find("within 1.5 s"), std::string::npos) << out;
  // Generous: only a call that waited for the default takes this long.
  EXPECT_LT(took, std::chrono::seconds(100));
}

TEST(LocalYarn, DownResourceManagerIsExitThreeWithTheAddress) {
  auto [code, out] = nodes_at("127.0.0.1:9");
  EXPECT_EQ(code, 3);
  EXPECT_NE(out.find("cannot reach the ResourceManager at 127.0.0.1:9"), std::string::npos) << out;
}

}  // namespace
}  // namespace spindle::yarn
