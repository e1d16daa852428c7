#pragma once

// A job recorded as an MLflow run: opened at submit with the spec as
// parameters, closed by whichever Spindle client first sees the job end,
// with its final state, duration, restarts and training scalars.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "spindle/client/history_store.h"
#include "spindle/client/mlflow_client.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle::client {

// Where a job is tracked: the spec's mlflow block, completed from
// `configured_uri` (a setting of the app), then from MLFLOW_TRACKING_URI and
// MLFLOW_EXPERIMENT_NAME of this process.
struct MlflowTarget {
  std::string tracking_uri;
  std::string experiment;  // "Default" unless named
  std::string run_name;    // the job's name unless named
  bool required = false;
  bool nested = false;  // a child run per task
};

// None when neither the spec, the setting nor the environment names a
// tracking server.
std::optional<MlflowTarget> mlflow_target(const JobSpec& spec, const std::string& configured_uri = {});

// The spec as MLflow parameters: its JSON form flattened to dotted keys
// ("tasks.worker.instances" = "2"); values of environment variables whose
// names suggest a secret are replaced by "(hidden)".
MlflowPairs spec_parameters(const JobSpec& spec);

struct TrackedSubmission {
  std::string application_id;
  std::string user;
  std::string queue;
  std::string yarn_tracking_url;  // the job's page through the ResourceManager's web proxy
  std::string spec_yaml;          // stored as the run's artifact spec.yaml
  std::int64_t submitted_ms = 0;
};

// Opens the run for a job being submitted, and with `nested` a child run
// per task (tensorboard tasks excepted: they run no code of the user's),
// named after the task and tagged with mlflow.parentRunId. Warnings (the spec could not be
// stored as an artifact) go to `warn`; an error means no run was made.
Result<TrackingRunEntry> start_tracking_run(const JobSpec& spec, const MlflowTarget& target,
                                            const TrackedSubmission& job,
                                            const std::function<void(const std::string&)>& warn);

// Marks a run whose job was never submitted as failed, saying why.
void abandon_tracking_run(const TrackingRunEntry& run, const std::string& why);

// Once the history holds the job's final state: sends the training scalars
// of its output directory, its duration and restarts, and ends the run as
// FINISHED, FAILED or KILLED. Does nothing for a job without a run, one
// still running, or one whose run another client closed; true when this
// call closed it.
Result<bool> finish_tracking_run(HistoryStore& history, const std::string& application_id);

// finish_tracking_run for every job of the history that has ended with its
// run still open; one line per run closed ("MLflow run ... ended as
// FINISHED: URL") or not closed (a warning saying why) goes to `report`.
void finish_ended_tracking_runs(HistoryStore& history, const std::function<void(const std::string&)>& report);

}  // namespace spindle::client
