#include "spindle/client/history_store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace spindle::client {
namespace {

class HistoryStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        std::filesystem::temp_directory_path() / ("spindle-history-" + std::to_string(::getpid()) + "-" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    path_ = directory_ / "nested" / "history.sqlite";
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  HistoryStore open() {
    auto store = HistoryStore::open(path_);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message);
    return std::move(store).value();
  }

  std::string scalar_query(const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    std::string answer;
    sqlite3_exec(
        db, sql.c_str(),
        [](void* out, int, char** values, char**) {
          *static_cast<std::string*>(out) = values[0] ? values[0] : "";
          return 0;
        },
        &answer, nullptr);
    sqlite3_close(db);
    return answer;
  }

  // Whether another connection holds the database's write lock, so that no write transaction can
  // begin here. Meant for a stopped writer: the lock taken here to find out never gets in its way.
  bool writing_elsewhere() {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 0);
    const int begun = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (begun == SQLITE_OK) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return (begun & 0xff) == SQLITE_BUSY;
  }

  std::filesystem::path directory_;
  std::filesystem::path path_;
};

JobHistoryEntry submitted_job(const std::string& id, const std::string& name) {
  JobHistoryEntry job;
  job.application_id = id;
  job.name = name;
  job.user = "alice";
  job.queue = "default";
  job.spec_yaml = "name: " + name + "\n";
  job.submitted_ms = 1000;
  return job;
}

TEST_F(HistoryStoreTest, CreatesTheSchemaInWalModeAndReopens) {
  { auto store = open(); }
  EXPECT_EQ(scalar_query("PRAGMA user_version"), std::to_string(HistoryStore::schema_version));
  EXPECT_EQ(scalar_query("PRAGMA journal_mode"), "wal");
  auto again = HistoryStore::open(path_);
  ASSERT_TRUE(again.ok()) << again.error().message;
}

TEST_F(HistoryStoreTest, RefusesAFileFromANewerVersion) {
  { auto store = open(); }
  scalar_query("PRAGMA user_version = 99");
  auto store = HistoryStore::open(path_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find("newer Spindle (schema 99"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find(path_.string()), std::string::npos);
  EXPECT_NE(store.error().message.find("SPINDLE_DATA_DIR"), std::string::npos);
}

TEST_F(HistoryStoreTest, SaysWhyWhenTheDirectoryCannotBeMade) {
  std::filesystem::create_directories(directory_);
  { std::ofstream(directory_ / "file") << "x"; }
  auto store = HistoryStore::open(directory_ / "file" / "history.sqlite");
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find("SPINDLE_DATA_DIR"), std::string::npos) << store.error().message;
}

TEST_F(HistoryStoreTest, AFinalStateIsNeverTakenBack) {
  auto store = open();
  ASSERT_TRUE(store.record_job(submitted_job("application_1_0001", "wine")).ok());
  ASSERT_TRUE(store.record_state("application_1_0001", "running", "", 2000, 0).ok());
  ASSERT_TRUE(store.record_state("application_1_0001", "failed", "worker:1 failed: exited with 3", 0, 9000).ok());
  ASSERT_TRUE(store.record_state("application_1_0001", "running", "", 0, 0).ok());
  auto job = store.job("application_1_0001");
  ASSERT_TRUE(job.ok());
  ASSERT_TRUE(job->has_value());
  const auto& entry = **job;
  EXPECT_EQ(entry.state, "failed");
  EXPECT_EQ(entry.diagnostics, "worker:1 failed: exited with 3");
  EXPECT_EQ(entry.started_ms, 2000);
  EXPECT_EQ(entry.finished_ms, 9000);
  EXPECT_EQ(entry.name, "wine");
  EXPECT_EQ(entry.spec_yaml, "name: wine\n");
  EXPECT_TRUE(entry.is_final());
}

TEST_F(HistoryStoreTest, KeepsEveryAttemptOfARestartedTask) {
  auto store = open();
  JobStatus status;
  status.application_id = "application_1_0002";
  status.name = "restarts";
  status.state = "running";
  TaskStatus worker;
  worker.task = "worker:0";
  worker.phase = "failed";
  worker.container = "container_1_0002_01_000002";
  worker.exit_code = 3;
  worker.exit_description = "exited with 3";
  status.tasks.push_back(worker);
  TaskStatus chief;
  chief.task = "chief:0";
  chief.phase = "running";
  status.tasks.push_back(chief);
  ASSERT_TRUE(store.record_status(status).ok());

  status.tasks[0].phase = "running";
  status.tasks[0].restarts = 1;
  status.tasks[0].container = "container_1_0002_01_000005";
  status.tasks[0].exit_code.reset();
  status.tasks[0].exit_description.clear();
  status.state = "succeeded";
  ASSERT_TRUE(store.record_status(status).ok());

  auto attempts = store.attempts("application_1_0002");
  ASSERT_TRUE(attempts.ok());
  ASSERT_EQ(attempts->size(), 3u);
  EXPECT_EQ((*attempts)[0].task, "chief:0");
  EXPECT_EQ((*attempts)[1].task, "worker:0");
  EXPECT_EQ((*attempts)[1].attempt, 0);
  EXPECT_EQ((*attempts)[1].exit_code, 3);
  EXPECT_EQ((*attempts)[1].container, "container_1_0002_01_000002");
  EXPECT_EQ((*attempts)[2].attempt, 1);
  EXPECT_EQ((*attempts)[2].container, "container_1_0002_01_000005");
  EXPECT_FALSE((*attempts)[2].exit_code.has_value());
  auto job = store.job("application_1_0002");
  ASSERT_TRUE(job.ok() && job->has_value());
  EXPECT_EQ((*job)->state, "succeeded");
  EXPECT_EQ((*job)->name, "restarts");

  // Rebuilt from the history alone, the restarted task keeps its earlier container.
  const auto rebuilt = status_from_history(**job, *attempts);
  ASSERT_EQ(rebuilt.tasks.size(), 2u);
  EXPECT_EQ(rebuilt.tasks[1].task, "worker:0");
  EXPECT_EQ(rebuilt.tasks[1].container, "container_1_0002_01_000005");
  ASSERT_EQ(rebuilt.tasks[1].earlier_attempts.size(), 1u);
  EXPECT_EQ(rebuilt.tasks[1].earlier_attempts[0].container, "container_1_0002_01_000002");
  EXPECT_EQ(rebuilt.tasks[1].earlier_attempts[0].exit_code, 3);
  EXPECT_TRUE(rebuilt.tasks[0].earlier_attempts.empty());
}

TEST_F(HistoryStoreTest, KeepsEveryApplicationMasterAttempt) {
  auto store = open();
  std::vector<MasterAttemptEntry> attempts{{1, "container_1_0004_01_000001", "node-a", "RUNNING", "", 100, 0}};
  ASSERT_TRUE(store.record_master_attempts("application_1_0004", attempts).ok());
  attempts[0].state = "FAILED";
  attempts[0].diagnostics = "AM container exited with 137";
  attempts[0].finished_ms = 200;
  attempts.push_back({2, "container_1_0004_02_000001", "node-b", "RUNNING", "", 210, 0});
  ASSERT_TRUE(store.record_master_attempts("application_1_0004", attempts).ok());
  auto kept = store.master_attempts("application_1_0004");
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  ASSERT_EQ(kept->size(), 2u);
  EXPECT_EQ((*kept)[0].state, "FAILED");
  EXPECT_EQ((*kept)[0].finished_ms, 200);
  EXPECT_EQ((*kept)[1].attempt, 2);
  EXPECT_EQ((*kept)[1].host, "node-b");
}

TEST_F(HistoryStoreTest, EventsAreKeptOnceInOrder) {
  auto store = open();
  std::vector<JobEvent> events = {{1, 10, "allocated", "worker:0", "a"}, {2, 20, "running", "worker:0", "b"}};
  ASSERT_TRUE(store.record_events("application_1_0003", events).ok());
  events.push_back({3, 30, "job", "", "c"});
  ASSERT_TRUE(store.record_events("application_1_0003", events).ok());
  auto kept = store.events("application_1_0003");
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 3u);
  EXPECT_EQ((*kept)[2].message, "c");
  EXPECT_EQ(*store.last_event_sequence("application_1_0003"), 3u);
  EXPECT_EQ(*store.last_event_sequence("application_1_9999"), 0u);
}

TEST_F(HistoryStoreTest, MetricPointsAreKeptOnceAndFilteredByTag) {
  auto store = open();
  std::vector<MetricPoint> points = {{"tfevents", "train", "loss", 1, 100.0, 0.5},
                                     {"tfevents", "train", "loss", 2, 101.0, 0.25},
                                     {"container", "worker:0", "memory_bytes", 0, 100.5, 1e8}};
  ASSERT_TRUE(store.record_metrics("application_1_0004", points).ok());
  ASSERT_TRUE(store.record_metrics("application_1_0004", points).ok());
  auto all = store.metrics("application_1_0004");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
  auto loss = store.metrics("application_1_0004", "loss");
  ASSERT_TRUE(loss.ok());
  ASSERT_EQ(loss->size(), 2u);
  EXPECT_DOUBLE_EQ((*loss)[1].value, 0.25);
  EXPECT_EQ((*loss)[1].run, "train");
}

TEST_F(HistoryStoreTest, ListsRunningOrMatchingJobsNewestFirst) {
  auto store = open();
  auto first = submitted_job("application_1_0005", "mnist-small");
  auto second = submitted_job("application_1_0006", "Wine-Quality");
  second.submitted_ms = 2000;
  ASSERT_TRUE(store.record_job(first).ok());
  ASSERT_TRUE(store.record_job(second).ok());
  ASSERT_TRUE(store.record_state("application_1_0005", "succeeded", "", 0, 3000).ok());

  auto everything = store.jobs();
  ASSERT_TRUE(everything.ok());
  ASSERT_EQ(everything->size(), 2u);
  EXPECT_EQ((*everything)[0].application_id, "application_1_0006");

  auto running = store.jobs(JobFilter{false, "", 100});
  ASSERT_TRUE(running.ok());
  ASSERT_EQ(running->size(), 1u);
  EXPECT_EQ((*running)[0].application_id, "application_1_0006");

  auto found = store.jobs(JobFilter{true, "wine", 100});
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].name, "Wine-Quality");
}

TEST_F(HistoryStoreTest, StatesFromTheResourceManager) {
  const auto state = [](std::string_view yarn, std::string_view final_status) {
    return std::string(to_string(job_state_of_yarn(yarn, final_status)));
  };
  EXPECT_EQ(state("ACCEPTED", "UNDEFINED"), "accepted");
  EXPECT_EQ(state("RUNNING", "UNDEFINED"), "running");
  EXPECT_EQ(state("FINISHED", "SUCCEEDED"), "succeeded");
  EXPECT_EQ(state("FINISHED", "FAILED"), "failed");
  EXPECT_EQ(state("FAILED", "FAILED"), "failed");
  EXPECT_EQ(state("KILLED", "KILLED"), "killed");
  EXPECT_EQ(state("SUBMITTED", "UNDEFINED"), "submitted");
  for (const auto name : {"submitted", "accepted", "running", "succeeded", "failed", "killed"}) {
    ASSERT_TRUE(parse_job_state(name).has_value()) << name;
    EXPECT_EQ(to_string(*parse_job_state(name)), name);
  }
  EXPECT_EQ(parse_job_state("finished"), std::nullopt);
  EXPECT_TRUE(is_final_state("killed"));
  EXPECT_FALSE(is_final_state("running"));
  EXPECT_FALSE(is_final_state("gone"));
}

TEST_F(HistoryStoreTest, AJobsRecordAnswersFromItsKeptSpec) {
  JobHistoryEntry job;
  job.application_id = "application_1_0001";
  EXPECT_EQ(job.spec(), std::nullopt);
  EXPECT_EQ(job.output_location(), "");
  EXPECT_EQ(job.has_task_type("tensorboard"), std::nullopt);
  EXPECT_EQ(job.job_state(), JobState::submitted);
  job.spec_yaml =
      "command: python train.py\ninput: hdfs:///data/wine\noutput: hdfs:///runs/wine\n"
      "tasks: {chief: {}, worker: {instances: 2}}\n# a tensorboard would be nice\n";
  job.state = "killed";
  EXPECT_EQ(job.output_location(), "hdfs:///runs/wine");
  EXPECT_EQ(job.input_location(), "hdfs:///data/wine");
  EXPECT_EQ(job.has_task_type("worker"), true);
  // Named in a comment is not a task.
  EXPECT_EQ(job.has_task_type("tensorboard"), false);
  EXPECT_EQ(job.job_state(), JobState::killed);
  EXPECT_TRUE(job.is_final());
  job.spec_yaml = "tasks: [not a spec";
  EXPECT_EQ(job.spec(), std::nullopt);
}

// A writer killed between and inside transactions: every batch it reported
// as committed is there, and the file passes SQLite's integrity check.
TEST_F(HistoryStoreTest, AWriterKilledMidWriteLosesNothingCommitted) {
  { auto store = open(); }
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t writer = ::fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    ::close(pipe_fds[0]);
    auto store = HistoryStore::open(path_);
    if (!store.ok()) ::_exit(2);
    for (int batch = 0;; ++batch) {
      std::vector<MetricPoint> points;
      for (int i = 0; i < 2000; ++i) points.push_back({"tfevents", "train", "loss", batch * 2000 + i, 1.0 * i, 0.5});
      if (!store->record_metrics("application_1_0007", points).ok()) ::_exit(3);
      const char committed = 'c';
      if (::write(pipe_fds[1], &committed, 1) != 1) ::_exit(4);
    }
  }
  ::close(pipe_fds[1]);
  int committed = 0;
  char byte = 0;
  while (committed < 25 && ::read(pipe_fds[0], &byte, 1) == 1) ++committed;
  // Stop the writer until it is caught holding SQLite's write lock, that is inside a
  // transaction, and kill it there without warning.
  bool inside = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!inside && std::chrono::steady_clock::now() < deadline) {
    ASSERT_EQ(::kill(writer, SIGSTOP), 0);
    int stopped = 0;
    ASSERT_EQ(::waitpid(writer, &stopped, WUNTRACED), writer);
    ASSERT_TRUE(WIFSTOPPED(stopped)) << "the writer ended by itself with " << stopped;
    inside = writing_elsewhere();
    if (!inside) ::kill(writer, SIGCONT);
  }
  ASSERT_TRUE(inside) << "the writer was never caught inside a transaction";
  ::kill(writer, SIGKILL);
  int status = 0;
  ::waitpid(writer, &status, 0);
  while (::read(pipe_fds[0], &byte, 1) == 1) ++committed;
  ::close(pipe_fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself with " << status;
  ASSERT_EQ(committed >= 25, true);

  auto store = open();
  auto points = store.metrics("application_1_0007");
  ASSERT_TRUE(points.ok()) << points.error().message;
  EXPECT_GE(points->size(), static_cast<std::size_t>(committed) * 2000);
  EXPECT_EQ(points->size() % 2000, 0u) << "a transaction was kept in part";
  EXPECT_EQ(scalar_query("PRAGMA integrity_check"), "ok");
  ASSERT_TRUE(store.record_state("application_1_0007", "succeeded", "", 0, 1).ok());
}

TEST_F(HistoryStoreTest, ATrackingRunIsClosedOnceAndOnlyAfterItsJobEnded) {
  auto store = open();
  ASSERT_TRUE(store.record_job(submitted_job("application_1_0001", "wine")).ok());
  ASSERT_TRUE(store.record_job(submitted_job("application_1_0002", "untracked")).ok());
  const TrackingRunEntry run{"http://mlflow:5000", "3", "abc123", 0, {{"chief:0", "c0"}, {"worker:1", "w1"}}};
  ASSERT_TRUE(store.record_tracking_run("application_1_0001", run).ok());
  auto kept = store.tracking_run("application_1_0001");
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ(**kept, run);
  EXPECT_EQ((*kept)->url(), "http://mlflow:5000/#/experiments/3/runs/abc123");
  auto none = store.tracking_run("application_1_0002");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  auto ended = store.ended_jobs_with_open_runs();
  ASSERT_TRUE(ended.ok());
  EXPECT_TRUE(ended->empty()) << "a running job's run is not to be closed";
  ASSERT_TRUE(store.record_state("application_1_0001", "killed", "killed by alice", 2000, 9000).ok());
  ASSERT_TRUE(store.record_state("application_1_0002", "succeeded", "", 2000, 9000).ok());
  ended = store.ended_jobs_with_open_runs();
  ASSERT_TRUE(ended.ok());
  EXPECT_EQ(*ended, std::vector<std::string>{"application_1_0001"});

  auto closed = store.close_tracking_run("application_1_0001", 10'000);
  ASSERT_TRUE(closed.ok());
  EXPECT_TRUE(*closed);
  auto again = store.close_tracking_run("application_1_0001", 11'000);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again) << "a second client must not send the run's end again";
  EXPECT_EQ((*store.tracking_run("application_1_0001"))->closed_ms, 10'000);
  EXPECT_TRUE(store.ended_jobs_with_open_runs()->empty());
}

TEST_F(HistoryStoreTest, AHistoryOfTheLastVersionGainsTrackingRunsAndKeepsItsJobs) {
  // A file as the previous release left it: schema 2, one job.
  {
    auto store = open();
    ASSERT_TRUE(store.record_job(submitted_job("application_1_0001", "wine")).ok());
  }
  scalar_query("DROP TABLE sweeps; DROP TABLE tracking_runs; PRAGMA user_version = 2");
  ASSERT_EQ(scalar_query("PRAGMA user_version"), "2");
  auto store = open();
  EXPECT_EQ(scalar_query("PRAGMA user_version"), std::to_string(HistoryStore::schema_version));
  auto job = store.job("application_1_0001");
  ASSERT_TRUE(job.ok() && job->has_value());
  EXPECT_EQ((*job)->name, "wine");
  EXPECT_TRUE(store.record_tracking_run("application_1_0001", {"http://m", "1", "r", 0}).ok());
}

TEST_F(HistoryStoreTest, AHistoryOfTheLastVersionGainsSweepsAndKeepsItsJobs) {
  {
    auto store = open();
    ASSERT_TRUE(store.record_job(submitted_job("application_1_0001", "wine")).ok());
  }
  scalar_query("DROP TABLE sweeps; PRAGMA user_version = 3");
  auto store = open();
  EXPECT_EQ(scalar_query("PRAGMA user_version"), std::to_string(HistoryStore::schema_version));
  auto job = store.job("application_1_0001");
  ASSERT_TRUE(job.ok() && job->has_value());
  SweepRecord sweep;
  sweep.sweep_id = "application_1_0002";
  sweep.name = "wine-sweep";
  sweep.submitted_ms = 5;
  TrialRecord trial;
  trial.parameters = {0, {{"lr", "0.1"}}};
  trial.state = TrialState::stopped;
  trial.why = "at step 60 ...";
  sweep.trials.push_back(trial);
  ASSERT_TRUE(store.record_sweep(sweep).ok());
  sweep.state = SweepState::succeeded;
  ASSERT_TRUE(store.record_sweep(sweep).ok());
  auto kept = store.sweeps();
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].state, SweepState::succeeded);
  EXPECT_EQ((*kept)[0].trials[0].state, TrialState::stopped);
  auto one = store.sweep("application_1_0002");
  ASSERT_TRUE(one.ok() && one->has_value());
  EXPECT_EQ((**one).trials[0].why, "at step 60 ...");
  auto none = store.sweep("application_1_0003");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace spindle::client
