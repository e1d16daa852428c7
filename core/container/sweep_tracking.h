#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "container/run_scalars.h"
#include "spindle/client/history_store.h"
#include "spindle/client/mlflow_client.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/sweep_spec.h"
#include "spindle/core/sweep_state.h"

namespace spindle::container {

// A sweep's runs in MLflow (docs/mlflow.md, "Sweeps"): the parent, opened
// at submit, gets the search as parameters; each trial gets a child run
// before it is submitted, tagged with MLflow's mlflow.parentRunId, with the
// trial's parameters as its params, given the trial's scalars as the
// controller reads them, and ended with its state; the parent ends with the best trial. MLflow being away never
// holds the sweep: each failure is a line of the controller's log, and what
// was not sent is tried again on the next call.
class SweepTracking {
 public:
  using Log = std::function<void(const std::string&)>;

  SweepTracking(SweepTrackingRun parent, Log log);

  // The parent's parameters: the search, flattened under "sweep.".
  void describe_search(const SweepSearch& search, const std::string& search_json);
  // The trial's child run, made when it has none yet and tagged with the
  // trial's application; false when MLflow could not make it (the trial
  // then runs without one).
  bool open_trial(const SweepRecord& record, TrialRecord& trial);
  // The scalars of `points` (every one read so far, in the order read) the
  // trial's run has not had yet; true once it has them all.
  bool send_scalars(const TrialRecord& trial, const std::vector<client::MetricPoint>& points);
  // The scalars not sent yet, the trial's state and why, and its end.
  void close_trial(TrialRecord& trial, const std::vector<client::MetricPoint>& points);
  // The best trial's metric and the counts of each end, and the parent's end.
  void close_sweep(SweepRecord& record);

  // What a trial's tasks get to log into its run themselves.
  void export_to(const TrialRecord& trial, JobSpec& job) const;

 private:
  SweepTrackingRun parent_;
  client::MlflowClient client_;
  Log log_;
  // How many of a trial's points were handed to its run's scalars (a new
  // controller attempt hands them all again, which MLflow keeps once).
  struct Fed {
    std::size_t read = 0;
    RunScalars scalars;
  };
  std::map<int, Fed> fed_;
};

// MLflow's status for a trial's end: a trial the sweep stopped did what it
// was asked, so FINISHED, with its state in the tag spindle.final_state.
std::string trial_run_status(TrialState state);
std::string sweep_run_status(SweepState state);

}  // namespace spindle::container
