#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/core/sweep_trials.h"

namespace spindle {

// Where a trial is in its life. `stopped` is the sweep's own end for a trial
// its early-stopping rule cut short: neither failed nor killed, and its
// checkpoints and scalars stay.
enum class TrialState { waiting, submitted, running, succeeded, failed, killed, stopped };

std::string_view to_string(TrialState state);
std::optional<TrialState> trial_state_from(std::string_view text);
bool is_final(TrialState state);

struct TrialRecord {
  TrialParameters parameters;
  TrialState state = TrialState::waiting;
  std::string application_id;  // set before the submission, so a new controller finds it
  std::string why;             // how it ended, or the last rung's verdict
  std::optional<MetricSample> best;
  std::optional<MetricSample> last;
  std::vector<RungVerdict> rungs;
  std::int64_t submitted_ms = 0;
  std::int64_t ended_ms = 0;
  // What following the trial's own job API takes (spindle status, logs):
  // the record sits in the user's own directory, which nobody else may read.
  std::string secret;
  std::string api_pin;
  // The trial's child run under the sweep's MLflow run, made before the
  // trial is submitted; closed once its end and scalars were sent there.
  std::string mlflow_run_id;
  bool mlflow_closed = false;
};

enum class SweepState { running, succeeded, failed, killed };

// The sweep's own MLflow run, opened at submit: the parent of every
// trial's run (docs/mlflow.md, "Sweeps").
struct SweepTrackingRun {
  std::string tracking_uri;
  std::string experiment_id;
  std::string run_id;
  bool closed = false;
  bool operator==(const SweepTrackingRun&) const = default;
};
std::string_view to_string(SweepState state);

// All a sweep is and did, as its controller keeps it in HDFS beside the
// sweep's staging directory (docs/sweeps.md, "Where a sweep keeps itself").
struct SweepRecord {
  std::string sweep_id;  // the controller's application id
  std::string name;
  std::string user;
  std::string queue;
  std::string output;       // the spec's; trial n writes <output>/trial-<n>
  std::string search_json;  // the search as search_to_json wrote it
  SweepState state = SweepState::running;
  std::string diagnostics;
  std::int64_t submitted_ms = 0;
  std::int64_t ended_ms = 0;
  int most_running = 0;  // the most trials the controller had running at once
  std::optional<SweepTrackingRun> mlflow;
  std::vector<TrialRecord> trials;

  // The metric its search names (tag, run, goal); an empty tag when the
  // record holds no readable search.
  SweepMetric metric() const;
  // The trial with the best metric so far under the search's goal, if any logged one.
  const TrialRecord* best_trial() const { return best_trial(metric().maximize); }
  const TrialRecord* best_trial(bool maximize) const;
  int count(TrialState wanted) const;
};

// Where a sweep's record is on the default file system: beside the user's
// staging directories, kept after the sweep ends.
std::string sweep_record_path(const std::string& user, const std::string& sweep_id);
// The tag a sweep's controller application carries; its trials carry
// spindle-sweep:<sweep id>.
inline constexpr std::string_view sweep_tag = "spindle-sweep";
// What a trial's kill says when its owner stops it (rather than kills it):
// the controller then records it as stopped by the sweep.
inline constexpr std::string_view trial_stopped_by_owner = "stopped by its owner";

std::string to_json(const SweepRecord& record);
// Read back with a sentence for anything that is not a sweep record.
Result<SweepRecord> sweep_record_from_json(std::string_view text);

}  // namespace spindle
