// The job's status at the scale of thousands of tasks: counted per type,
// listed a page at a time, and the job's page readable.

#include "spindle/core/job_status.h"

#include <gtest/gtest.h>

#include "raw_http.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_lifecycle.h"
#include "spindle/core/job_page.h"
#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

constexpr int workers = 10'000;

// A running job of a chief, 10,000 workers and a TensorBoard, every task
// registered except the last ten workers.
class LargeJob : public ::testing::Test {
 protected:
  void SetUp() override {
    SpecParseOptions options;
    options.check_files = false;
    auto parsed = parse_job_spec("command: x\noutput: /tmp/runs\ntasks: {chief: {}, worker: {instances: " +
                                     std::to_string(workers) + "}, tensorboard: {}}\n",
                                 options);
    ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
    spec_ = *parsed;
    rendezvous_ = std::make_unique<Rendezvous>(spec_);
    lifecycle_ = std::make_unique<JobLifecycle>(spec_, *rendezvous_, events_);
    int containers = 0;
    for (const auto& [type, count] : lifecycle_->containers_wanted()) {
      for (int i = 0; i < count; ++i) {
        const auto container = "container_" + std::to_string(++containers);
        auto task = lifecycle_->assign_container(type, container, "node:1", "node:2", "");
        ASSERT_TRUE(task.has_value());
        if (task->type == "worker" && task->index >= workers - 10) continue;
        const HostPort address{"host" + std::to_string(containers),
                               static_cast<std::uint16_t>(1000 + containers % 60000)};
        ASSERT_TRUE(lifecycle_->register_task(*task, address, container).ok());
      }
    }
  }

  // The gang complete: the last ten workers register, and the cluster spec is published.
  void register_the_last_workers_and_publish() {
    for (int index = workers - 10; index < workers; ++index) {
      const auto& record = *lifecycle_->find(TaskId{"worker", index});
      ASSERT_TRUE(lifecycle_
                      ->register_task(record.id, HostPort{"late", static_cast<std::uint16_t>(2000 + index % 100)},
                                      record.container)
                      .ok());
    }
    const auto published = rendezvous_->current();
    ASSERT_TRUE(published);
    lifecycle_->cluster_published(published->version);
  }

  JobSpec spec_;
  EventLog events_;
  std::unique_ptr<Rendezvous> rendezvous_;
  std::unique_ptr<JobLifecycle> lifecycle_;
};

const TaskTypeSummary& summary(const JobStatus& status, const std::string& type) {
  for (const auto& one : status.types) {
    if (one.type == type) return one;
  }
  ADD_FAILURE() << "no summary of " << type;
  static const TaskTypeSummary none;
  return none;
}

TEST_F(LargeJob, CountsEveryTypeByPhaseAndListsOnlyThePageAskedFor) {
  TaskSelection selection;
  selection.type = "worker";
  selection.offset = 100;
  selection.limit = 50;
  const auto status = job_status(*lifecycle_, "application_1_0001", 0, 0, selection);
  ASSERT_EQ(status.tasks.size(), 50U);
  EXPECT_EQ(status.tasks.front().task, "worker:100");
  EXPECT_EQ(status.tasks.back().task, "worker:149");
  EXPECT_EQ(status.tasks_selected, static_cast<std::size_t>(workers));
  EXPECT_EQ(status.tasks_offset, 100U);
  ASSERT_EQ(status.types.size(), 3U);
  const auto& worker = summary(status, "worker");
  EXPECT_EQ(worker.tasks, workers);
  EXPECT_EQ(worker.phases.at("registered"), workers - 10);
  EXPECT_EQ(worker.phases.at("launching"), 10);
  EXPECT_EQ(summary(status, "chief").phases.at("registered"), 1);
  EXPECT_TRUE(status.tensorboard_address.empty()) << "TensorBoard runs only once the gang is complete";
}

TEST_F(LargeJob, APageBeyondTheLastListsNothingAndSaysHowManyThereAre) {
  TaskSelection selection;
  selection.type = "chief";
  selection.offset = 5;
  const auto status = job_status(*lifecycle_, "application_1_0001", 0, 0, selection);
  EXPECT_TRUE(status.tasks.empty());
  EXPECT_EQ(status.tasks_selected, 1U);
  const auto page = render_job_page(status, "chief");
  EXPECT_NE(page.find("No tasks here of type chief"), std::string::npos) << page;
}

TEST_F(LargeJob, TheStatusSurvivesItsJsonWithTheTensorBoardOnceItRuns) {
  register_the_last_workers_and_publish();
  const auto published = rendezvous_->current();
  TaskSelection selection;
  selection.limit = 10;
  const auto status = job_status(*lifecycle_, "application_1_0001", published->version, 0, selection);
  EXPECT_FALSE(status.tensorboard_address.empty());
  auto parsed = parse_job_status(to_json(status).dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->tasks.size(), 10U);
  EXPECT_EQ(parsed->tasks_selected, static_cast<std::size_t>(workers + 2));
  EXPECT_EQ(parsed->tensorboard_address, status.tensorboard_address);
  ASSERT_EQ(parsed->types.size(), 3U);
  EXPECT_EQ(summary(*parsed, "worker").phases.at("running"), workers);
  EXPECT_LT(to_json(status).dump().size(), 8'000U) << "ten tasks and three summaries";
}

TEST_F(LargeJob, ATensorBoardBehindTlsIsListedWithItsPinAndLinkedOverHttps) {
  register_the_last_workers_and_publish();
  const std::string pin(64, 'a');
  const auto& tensorboard = *lifecycle_->find(TaskId{"tensorboard", 0});
  TaskHeartbeat beat;
  beat.container = tensorboard.container;
  beat.certificate_sha256 = pin;
  ASSERT_TRUE(lifecycle_->heartbeat(tensorboard.id, beat, JobLifecycle::Clock::now()).ok());
  TaskSelection selection;
  selection.type = "tensorboard";
  auto parsed = parse_job_status(to_json(job_status(*lifecycle_, "application_1_0001", 1, 0, selection)).dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->tensorboard_certificate_sha256, pin);
  ASSERT_EQ(parsed->tasks.size(), 1U);
  EXPECT_EQ(parsed->tasks[0].certificate_sha256, pin);
  const auto page = render_job_page(*parsed, "");
  EXPECT_NE(page.find("href=\"https://" + parsed->tensorboard_address + "/\""), std::string::npos) << page;
  EXPECT_NE(page.find("certificate sha256 " + pin), std::string::npos) << page;
}

TEST_F(LargeJob, TheJobPageShowsTheCountsAndOneHundredTasksWithLinksToTheRest) {
  const auto selection = job_page_selection("type=worker&page=2");
  EXPECT_EQ(selection.offset, job_page_tasks);
  const auto page = render_job_page(job_status(*lifecycle_, "application_1_0001", 0, 0, selection), "worker");
  EXPECT_LT(page.size(), 64U * 1024) << "a page of 10,000 tasks stays readable";
  EXPECT_NE(page.find("Tasks 101&ndash;200 of 10000 of type worker"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"?page=1&amp;type=worker\">&lsaquo; previous</a>"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"?page=3&amp;type=worker\">next &rsaquo;</a>"), std::string::npos);
  EXPECT_NE(page.find("<td>worker:150</td>"), std::string::npos);
  EXPECT_EQ(page.find("<td>worker:99</td>"), std::string::npos);
  EXPECT_EQ(page.find("<td>worker:200</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>10000</td><td>10</td><td>9990</td>"), std::string::npos) << "workers: launching, registered";
}

TEST(JobPageSelection, WhatItCannotReadIsTheFirstPageOfEveryType) {
  for (const auto* query : {"", "page=0", "page=x", "page=-1", "page=99999999999999999999999", "type=<script>"}) {
    const auto selection = job_page_selection(query);
    EXPECT_EQ(selection.offset, 0U) << query;
    EXPECT_EQ(selection.limit, job_page_tasks) << query;
    EXPECT_TRUE(selection.type.empty()) << query;
  }
  EXPECT_EQ(job_page_selection("page=3&type=ps").offset, 2 * job_page_tasks);
  EXPECT_EQ(job_page_selection("page=3&type=ps").type, "ps");
}

TEST(TaskSelectionQuery, ReadsTypeOffsetAndLimitAndNamesWhatIsWrong) {
  auto selection = parse_task_selection("type=worker&offset=20&limit=5");
  ASSERT_TRUE(selection.ok());
  EXPECT_EQ(selection->type, "worker");
  EXPECT_EQ(selection->offset, 20U);
  EXPECT_EQ(selection->limit, 5U);
  auto everything = parse_task_selection("");
  ASSERT_TRUE(everything.ok());
  EXPECT_TRUE(everything->type.empty());
  EXPECT_EQ(everything->limit, std::numeric_limits<std::size_t>::max());
  auto bad_limit = parse_task_selection("limit=ten");
  ASSERT_FALSE(bad_limit.ok());
  EXPECT_EQ(bad_limit.error().message, "the status query's limit is \"ten\"; it must be a whole number");
  auto bad_type = parse_task_selection("type=../x");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.error().message, "the status query's type is \"../x\", which is no task type's name");
}

// The API hands the selection to the application master's side, and refuses
// a query it cannot read with a sentence.
class SelectionRecorder : public JobApiBackend {
 public:
  Result<void> register_task(const TaskId&, const HostPort&, const std::string&, const Reattachment&) override {
    return {};
  }
  Result<void> heartbeat(const TaskId&, const TaskHeartbeat& beat) override {
    beats.push_back(beat);
    return {};
  }
  Result<void> result(const TaskId&, const TaskResult&) override { return {}; }
  JobStatus status(const TaskSelection& selection) override {
    asked.push_back(selection);
    return {};
  }
  EventLog& events() override { return events_; }

  std::vector<TaskSelection> asked;
  std::vector<TaskHeartbeat> beats;

 private:
  EventLog events_;
};

std::string get(std::uint16_t port, const std::string& target) {
  return raw_http(port,
                  "GET " + target + " HTTP/1.1\r\nHost: x\r\nX-Spindle-Secret: s3cret\r\nConnection: close\r\n\r\n");
}

// The job API in front of the recorder, with the secret "s3cret".
class RecordedApi : public ::testing::Test {
 protected:
  void SetUp() override {
    SpecParseOptions options;
    options.check_files = false;
    rendezvous =
        std::make_unique<Rendezvous>(*parse_job_spec("command: x\ntasks: {worker: {instances: 1}}\n", options));
    JobApiOptions api;
    api.bind_address = "127.0.0.1";
    api.secret = "s3cret";
    auto started = JobApiServer::start(*rendezvous, api, &backend);
    ASSERT_TRUE(started.ok()) << started.error().message;
    server = std::move(*started);
  }

  std::unique_ptr<Rendezvous> rendezvous;
  SelectionRecorder backend;
  std::unique_ptr<JobApiServer> server;
};

using StatusApi = RecordedApi;

TEST_F(StatusApi, PassesTheSelectionOnAndRefusesAnUnreadableOne) {
  EXPECT_NE(get(server->port(), "/v1/status?type=ps&offset=3&limit=2").find("HTTP/1.1 200"), std::string::npos);
  const auto refused = get(server->port(), "/v1/status?offset=-1");
  EXPECT_NE(refused.find("HTTP/1.1 400"), std::string::npos) << refused;
  EXPECT_NE(refused.find("the status query's offset is \\\"-1\\\"; it must be a whole number"), std::string::npos)
      << refused;
  EXPECT_NE(get(server->port(), "/?page=2&type=ps").find("HTTP/1.1 200"), std::string::npos);
  server->stop();
  ASSERT_EQ(backend.asked.size(), 2U) << "the refused query never reached the master";
  EXPECT_EQ(backend.asked[0].type, "ps");
  EXPECT_EQ(backend.asked[0].offset, 3U);
  EXPECT_EQ(backend.asked[0].limit, 2U);
  EXPECT_EQ(backend.asked[1].type, "ps");
  EXPECT_EQ(backend.asked[1].offset, job_page_tasks);
  EXPECT_EQ(backend.asked[1].limit, job_page_tasks);
}

using HeartbeatApi = RecordedApi;

TEST_F(HeartbeatApi, TakesACertificatePinAndRefusesWhatIsNotOne) {
  auto beat = [&](const std::string& body) {
    return raw_http(server->port(),
                    "POST /v1/tasks/tensorboard/0/heartbeat HTTP/1.1\r\nHost: x\r\n"
                    "X-Spindle-Secret: s3cret\r\nConnection: close\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body);
  };
  const std::string pin(64, 'c');
  EXPECT_NE(beat(R"({"container":"c1","certificate_sha256":")" + pin + "\"}").find("HTTP/1.1 200"), std::string::npos);
  const auto refused = beat(R"({"container":"c1","certificate_sha256":"ABC"})");
  EXPECT_NE(refused.find("HTTP/1.1 400"), std::string::npos) << refused;
  EXPECT_NE(refused.find("64 lower-case hex digits"), std::string::npos) << refused;
  server->stop();
  ASSERT_EQ(backend.beats.size(), 1U) << "the refused heartbeat never reached the master";
  EXPECT_EQ(backend.beats[0].certificate_sha256, pin);
}

}  // namespace
}  // namespace spindle
