#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/event_log.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/job_state.h"
#include "spindle/core/job_status.h"
#include "spindle/core/result.h"
#include "spindle/core/sweep_state.h"

namespace spindle::client {

// A job as the history keeps it. Secrets are never stored here; they stay in
// the job records (job_records.h).
struct JobHistoryEntry {
  std::string application_id;
  std::string name;
  std::string user;
  std::string queue;
  std::string spec_yaml;
  std::string state;  // submitted, accepted, running, succeeded, failed, killed
  std::string diagnostics;
  std::string tracking_url;
  std::int64_t submitted_ms = 0;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
  std::int64_t updated_ms = 0;

  // What `state` names; a name the history does not know reads as submitted.
  JobState job_state() const;
  bool is_final() const { return spindle::is_final(job_state()); }
  // The spec as it was kept at submit, parsed again (files are not looked
  // for); nullopt when none was kept or it no longer parses.
  std::optional<JobSpec> spec() const;
  // The job's output location (its TensorBoard log directory) and input
  // location, as its spec gives them; empty when it names none.
  std::string output_location() const;
  std::string input_location() const;
  // Whether its spec has a task of the type; nullopt when no spec was kept.
  std::optional<bool> has_task_type(std::string_view type) const;
};

// One container a task ran in: restarts make new attempts.
struct TaskAttemptEntry {
  std::string task;  // "worker:1"
  int attempt = 0;   // 0 first, then one per restart
  std::string container;
  std::string node;
  std::string address;
  std::string phase;
  std::optional<int> exit_code;
  std::string exit_description;
  std::string log_url;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
};

// One attempt of the job's application master, as the ResourceManager
// reports it: a job whose master was restarted has several.
struct MasterAttemptEntry {
  int attempt = 1;
  std::string container;
  std::string host;
  std::string state;  // YARN's: RUNNING, FINISHED, FAILED, KILLED ...
  std::string diagnostics;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
};

// The MLflow run a job is recorded in (see mlflow_tracking.h).
struct TrackingRunEntry {
  std::string tracking_uri;
  std::string experiment_id;
  std::string run_id;
  std::int64_t closed_ms = 0;                    // when its final state was sent; 0 while open
  std::map<std::string, std::string> task_runs;  // nested runs: "worker:1" -> run id

  // The run's page in MLflow's web UI.
  std::string url() const { return tracking_uri + "/#/experiments/" + experiment_id + "/runs/" + run_id; }
  bool operator==(const TrackingRunEntry&) const = default;
};

// A number over time: a training scalar from the job's event files
// (source "tfevents", run = the log subdirectory), or a container's use
// (source "container", run = the task, tag "memory_bytes" or "cpu_seconds").
struct MetricPoint {
  std::string source;
  std::string run;
  std::string tag;
  std::int64_t step = 0;
  double wall_time = 0;  // seconds since the epoch
  double value = 0;
};

struct JobFilter {
  bool include_finished = true;
  std::string search;  // part of the id, name, user or queue; empty: all
  std::size_t limit = 1000;
};

// Everything this user's machine knows about its jobs: SQLite in the XDG
// data directory, shared by the CLI and the desktop app. Every write is one
// transaction, so a writer killed half-way loses only what it had not
// committed.
class HistoryStore {
 public:
  // $SPINDLE_DATA_DIR/history.sqlite, else $XDG_DATA_HOME/spindle/..., else
  // ~/.local/share/spindle/history.sqlite.
  static std::filesystem::path default_path();
  static Result<HistoryStore> open(const std::filesystem::path& path = default_path());
  static constexpr int schema_version = 4;

  HistoryStore(HistoryStore&&) noexcept;
  HistoryStore& operator=(HistoryStore&&) noexcept;
  ~HistoryStore();

  // A new job; the fields the entry leaves empty stay as they were.
  Result<void> record_job(const JobHistoryEntry& job);
  // What the ResourceManager says now; a final state is never taken back.
  Result<void> record_state(const std::string& application_id, const std::string& state, const std::string& diagnostics,
                            std::int64_t started_ms, std::int64_t finished_ms, const std::string& tracking_url = {});
  // The application master's view: every task's current attempt.
  Result<void> record_status(const JobStatus& status);
  Result<void> record_events(const std::string& application_id, const std::vector<JobEvent>& events);
  Result<void> record_master_attempts(const std::string& application_id,
                                      const std::vector<MasterAttemptEntry>& attempts);
  // Points already there (same source, run, tag, step and time) are kept once.
  Result<void> record_metrics(const std::string& application_id, const std::vector<MetricPoint>& points);

  Result<void> record_tracking_run(const std::string& application_id, const TrackingRunEntry& run);
  // Marks the run closed; false when another process closed it first, so
  // that a run's end is sent once.
  Result<bool> close_tracking_run(const std::string& application_id, std::int64_t closed_ms);
  Result<std::optional<TrackingRunEntry>> tracking_run(const std::string& application_id);
  // Jobs that ended whose runs are still open, oldest first.
  Result<std::vector<std::string>> ended_jobs_with_open_runs();

  // A sweep's record as its controller last wrote it (docs/sweeps.md): its
  // trials, their parameters and why each ended. Newest first.
  Result<void> record_sweep(const SweepRecord& sweep);
  Result<std::vector<SweepRecord>> sweeps();
  Result<std::optional<SweepRecord>> sweep(const std::string& sweep_id);

  Result<std::vector<JobHistoryEntry>> jobs(const JobFilter& filter = {});
  Result<std::optional<JobHistoryEntry>> job(const std::string& application_id);
  Result<std::vector<TaskAttemptEntry>> attempts(const std::string& application_id);
  Result<std::vector<JobEvent>> events(const std::string& application_id);
  Result<std::vector<MasterAttemptEntry>> master_attempts(const std::string& application_id);
  Result<std::vector<MetricPoint>> metrics(const std::string& application_id, const std::string& tag = {});
  Result<std::uint64_t> last_event_sequence(const std::string& application_id);

  const std::filesystem::path& path() const;

 private:
  struct State;
  explicit HistoryStore(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The job as `spindle status` shows it, from what the history kept: each
// task's newest attempt, with the earlier ones counted as restarts.
JobStatus status_from_history(const JobHistoryEntry& job, const std::vector<TaskAttemptEntry>& attempts);

}  // namespace spindle::client
