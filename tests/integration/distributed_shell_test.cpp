// Hadoop's distributed-shell exercise, with Spindle's own clients on both
// sides: the test submits through ApplicationClientProtocol; the master
// (distributed_shell_master) allocates through ApplicationMasterProtocol and
// runs commands through ContainerManagementProtocol.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "spindle/core/shell_quote.h"
#include "spindle/yarn/application_client.h"

namespace spindle::yarn {
namespace {

ApplicationReport run(const std::vector<std::string>& tasks, const std::string& queue) {
  auto configuration = HadoopConfiguration::from_environment();
  EXPECT_TRUE(configuration.ok());
  ApplicationClient client(ApplicationClient::options_for(*configuration));
  auto created = client.new_application();
  EXPECT_TRUE(created.ok()) << created.error().message;
  SubmissionRequest request;
  request.id = created->id;
  request.name = "distributed-shell-test";
  request.queue = queue;
  std::string command = shell_quote(DISTRIBUTED_SHELL_MASTER);
  for (const auto& task : tasks) command += " " + shell_quote(task);
  request.am.commands = {command + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
  auto submitted = client.submit(request);
  EXPECT_TRUE(submitted.ok()) << submitted.error().message;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
  while (std::chrono::steady_clock::now() < deadline) {
    auto report = client.report(created->id);
    EXPECT_TRUE(report.ok()) << report.error().message;
    if (report.ok() && report->finished()) return *report;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  ADD_FAILURE() << created->id.to_string() << " did not finish in time";
  return {};
}

std::string gpu_node() {
  auto configuration = HadoopConfiguration::from_environment();
  ApplicationClient client(ApplicationClient::options_for(*configuration));
  for (const auto& node : *client.nodes()) {
    if (!node.labels.empty() && node.labels.front() == "gpu") return node.id;
  }
  return "";
}

TEST(DistributedShell, ThreeContainersOneOnTheGpuLabel) {
  const ApplicationReport report =
      run({"-|0|echo first", "-|0|echo second", "gpu|1|nvidia-smi 2>/dev/null; echo third"}, "ml-gpu");
  EXPECT_EQ(report.state, "FINISHED") << report.diagnostics;
  EXPECT_EQ(report.final_status, "SUCCEEDED") << report.diagnostics;
  EXPECT_NE(report.diagnostics.find("task 0 on "), std::string::npos) << report.diagnostics;
  EXPECT_NE(report.diagnostics.find("task 2 on " + gpu_node() + " exited 0"), std::string::npos) << report.diagnostics;
  for (const char* task : {"task 0", "task 1", "task 2"}) {
    const auto at = report.diagnostics.find(task);
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(report.diagnostics.substr(at, report.diagnostics.find(';', at) - at).find("exited 0"), std::string::npos)
        << report.diagnostics;
  }
}

TEST(DistributedShell, ExitSevenIsReported) {
  const ApplicationReport report = run({"-|0|true", "-|0|exit 7", "-|0|true"}, "default");
  EXPECT_EQ(report.state, "FINISHED") << report.diagnostics;
  EXPECT_EQ(report.final_status, "FAILED") << report.diagnostics;
  EXPECT_NE(report.diagnostics.find("task 1 on "), std::string::npos);
  EXPECT_NE(report.diagnostics.find("exited 7"), std::string::npos) << report.diagnostics;
}

TEST(DistributedShell, StoppedThroughItsNodeManager) {
  const ApplicationReport report = run({"-|0|true", "-|0|!sleep 120"}, "default");
  EXPECT_EQ(report.state, "FINISHED") << report.diagnostics;
  EXPECT_EQ(report.final_status, "FAILED") << report.diagnostics;  // a stopped task is no success
  EXPECT_NE(report.diagnostics.find("(stopped while RUNNING)"), std::string::npos) << report.diagnostics;
  // YARN marks a container its application master stopped with its own status.
  EXPECT_NE(report.diagnostics.find("exited -105"), std::string::npos) << report.diagnostics;
  auto configuration = HadoopConfiguration::from_environment();
  ApplicationClient client(ApplicationClient::options_for(*configuration));
  auto attempts = client.attempts(report.id);
  ASSERT_TRUE(attempts.ok()) << attempts.error().message;
  ASSERT_EQ(attempts->size(), 1u);
  // The attempt may trail its application by a moment.
  EXPECT_TRUE(attempts->front().state == "FINISHED" || attempts->front().state == "FINISHING")
      << attempts->front().state;
  EXPECT_EQ(attempts->front().am_container.rfind("container_", 0), 0u);
}

}  // namespace
}  // namespace spindle::yarn
