// The job's web page: rendered from the status, and served by the job API
// without the secret (the ResourceManager's proxy has none).

#include <gtest/gtest.h>

#include "raw_http.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_page.h"
#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

JobStatus running_job() {
  JobStatus status;
  status.application_id = "application_1_0042";
  status.name = "wine <quality>";
  status.state = "running";
  status.cluster_version = 2;
  TaskStatus chief;
  chief.task = "chief:0";
  chief.phase = "running";
  chief.address = "node1:4000";
  chief.node = "node1:8041";
  chief.restarts = 1;
  chief.log_url = "http://node1:8042/node/containerlogs/container_1_0042_01_000002/alice";
  status.tasks.push_back(chief);
  TaskStatus worker;
  worker.task = "worker:0";
  worker.phase = "failed";
  worker.exit_code = 3;
  worker.exit_description = "exited with 3";
  worker.log_url = "javascript:alert(1)";
  status.tasks.push_back(worker);
  TaskStatus board;
  board.task = "tensorboard:0";
  board.phase = "running";
  board.address = "node2:6006";
  status.tasks.push_back(board);
  status.tensorboard_address = board.address;  // as job_status() finds it
  return status;
}

TEST(JobPage, ShowsEveryTaskAndTheTensorBoardLink) {
  const auto page = render_job_page(running_job());
  EXPECT_NE(page.find("wine &lt;quality&gt;"), std::string::npos);
  EXPECT_EQ(page.find("wine <quality>"), std::string::npos);
  EXPECT_NE(page.find("<meta http-equiv=\"refresh\" content=\"5\">"), std::string::npos);
  EXPECT_NE(page.find("href=\"http://node2:6006/\""), std::string::npos);
  EXPECT_NE(page.find("href=\"http://node1:8042/node/containerlogs/container_1_0042_01_000002/alice\""),
            std::string::npos);
  EXPECT_NE(page.find("3 (exited with 3)"), std::string::npos);
  EXPECT_EQ(page.find("javascript:"), std::string::npos) << "only web links become links";
  EXPECT_EQ(page.find("<script"), std::string::npos);
}

TEST(JobPage, AStalledTaskSaysSoBesideItsState) {
  auto status = running_job();
  status.tasks[0].stalled = "stalled: it wrote nothing <here> for 30s (stall_timeout)";
  const auto page = render_job_page(status);
  EXPECT_NE(page.find("running<br><span class=\"stalled\">stalled: it wrote nothing &lt;here&gt; for 30s "
                      "(stall_timeout)</span>"),
            std::string::npos)
      << page;
}

TEST(JobPage, AnEndedJobStopsReloading) {
  auto status = running_job();
  status.state = "failed";
  status.diagnostics = "worker:0 failed: exited with 3";
  const auto page = render_job_page(status);
  EXPECT_EQ(page.find("http-equiv=\"refresh\""), std::string::npos);
  EXPECT_NE(page.find("<pre>worker:0 failed: exited with 3</pre>"), std::string::npos);
}

class StatusOnlyBackend : public JobApiBackend {
 public:
  Result<void> register_task(const TaskId&, const HostPort&, const std::string&, const Reattachment&) override {
    return {};
  }
  Result<void> heartbeat(const TaskId&, const TaskHeartbeat&) override { return {}; }
  Result<void> result(const TaskId&, const TaskResult&) override { return {}; }
  JobStatus status(const TaskSelection&) override { return running_job(); }
  EventLog& events() override { return events_; }

 private:
  EventLog events_;
};

std::string get(std::uint16_t port, const std::string& target) {
  return raw_http(port, "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
}

TEST(JobPage, ServedWithoutTheSecretWhileTheApiStillNeedsIt) {
  SpecParseOptions options;
  options.check_files = false;
  Rendezvous rendezvous(*parse_job_spec("command: x\ntasks: {worker: {instances: 1}}\n", options));
  StatusOnlyBackend backend;
  JobApiOptions api;
  api.bind_address = "127.0.0.1";
  api.secret = "the-job-secret";
  auto server = JobApiServer::start(rendezvous, api, &backend);
  ASSERT_TRUE(server.ok()) << server.error().message;
  const auto page = get((*server)->port(), "/");
  EXPECT_NE(page.find("HTTP/1.1 200"), std::string::npos) << page.substr(0, 200);
  EXPECT_NE(page.find("Content-Type: text/html; charset=utf-8"), std::string::npos);
  EXPECT_NE(page.find("tensorboard:0"), std::string::npos);
  EXPECT_EQ(page.find("the-job-secret"), std::string::npos);
  EXPECT_NE(get((*server)->port(), "/v1/status").find("HTTP/1.1 401"), std::string::npos);
  EXPECT_NE(get((*server)->port(), "/v1/status/../..").find("HTTP/1.1 401"), std::string::npos);
}

}  // namespace
}  // namespace spindle
