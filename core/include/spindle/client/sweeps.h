#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spindle/client/submit.h"
#include "spindle/core/result.h"
#include "spindle/core/sweep_spec.h"
#include "spindle/core/sweep_state.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// Submits a sweep's controller (docs/sweeps.md): the spec's files are staged
// once for every trial, and the search goes with the controller. Refused
// like a job when one trial could never run on the cluster.
Result<SubmittedJob, SubmitError> submit_sweep(const SweepSpec& sweep, const yarn::HadoopConfiguration& configuration,
                                               const SubmitOptions& options);

// What is known of a sweep: its record from HDFS, as its controller last
// wrote it, kept in the history too; without one yet, the controller's
// application as the ResourceManager reports it.
struct SweepView {
  SweepRecord record;
  bool from_cluster = false;  // read from HDFS now, not only from the history
  std::string note;           // why the cluster was not read, or that the controller has not started
};
Result<SweepView> read_sweep(const yarn::HadoopConfiguration& configuration, const std::string& sweep_id);

// The sweep's run in MLflow's web UI; empty when it has none.
std::string sweep_tracking_url(const SweepRecord& record);

// The sweeps of the history, newest first, those still running read again.
Result<std::vector<SweepView>> list_sweeps(const yarn::HadoopConfiguration& configuration);

// Kills the controller, waits until it has ended, then kills every trial
// the ResourceManager still runs for the sweep, and ends its MLflow runs as
// KILLED. Returns the trials killed.
Result<std::vector<std::string>> kill_sweep(const yarn::HadoopConfiguration& configuration,
                                            const std::string& sweep_id);

// Ends one running trial. Stopped, it ends as stopped by the sweep (its
// checkpoints and scalars stay, like a trial the rule stopped); killed, as killed.
// No such trial is an error of kind not_found, one not running of kind refused.
Result<void> end_trial(const yarn::HadoopConfiguration& configuration, const std::string& sweep_id, int trial,
                       bool stop);

// Every trial's values of the sweep's metric so far, by trial, as its event
// files in HDFS hold them, by step: what a chart of all trials draws.
Result<std::map<int, std::vector<MetricSample>>> read_trial_metrics(const yarn::HadoopConfiguration& configuration,
                                                                    const SweepRecord& record);

// A sweep with every trial's metric by step, as a view charts it.
struct SweepDetail {
  SweepView view;
  std::map<int, std::vector<MetricSample>> series;
  std::string series_problem;  // why the trials' scalars could not be read
};

// A sweep and its trials as JSON, the same for `spindle sweep status --json`
// and `spindle serve` (docs/sweeps.md). Trials' secrets are left out.
nlohmann::ordered_json sweep_json(const SweepView& view);
nlohmann::ordered_json trial_json(const TrialRecord& trial);
// Read back, as a client of `spindle serve` gets it ("series" too, when there).
Result<SweepDetail> sweep_detail_from_json(const nlohmann::json& json);

}  // namespace spindle::client
