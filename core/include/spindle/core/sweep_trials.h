#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/job_spec.h"
#include "spindle/core/sweep_spec.h"

namespace spindle {

// One trial's values, by parameter name, as the trial gets them.
struct TrialParameters {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> values;

  friend bool operator==(const TrialParameters&, const TrialParameters&) = default;
};

// Every trial of the search, drawn once and in a fixed order: the grid's
// combinations, each once, in an order the seed shuffles, or `trials` random
// draws from the seed. The same search always gives the same trials.
std::vector<TrialParameters> draw_trials(const SweepSearch& search);

// The job one trial runs: the base spec with the values as environment
// variables and in place of {{name}} in commands, its own output directory
// (<output>/trial-<index>), its own name and the sweep's tags.
JobSpec trial_job(const JobSpec& base, const SweepSearch& search, const TrialParameters& trial,
                  const std::string& sweep_id);

// A logged value of the sweep's metric.
struct MetricSample {
  std::int64_t step = 0;
  double value = 0;
};

// A trial's value at one rung, and what the rung decided.
struct RungVerdict {
  std::size_t rung = 0;
  std::int64_t step = 0;  // the rung's step
  double value = 0;       // what the trial logged there (or last before it)
  bool stop = false;
  std::string reason;         // why it stops, or goes on: one sentence
  std::optional<double> cut;  // the value it was compared with (ASHA's cut, the median), when it was
};

// The values every trial logged at each rung so far, and the rules that
// judge a trial on them (docs/sweeps.md, "Early stopping").
class RungBoard {
 public:
  RungBoard(EarlyStopping rule, bool maximize, std::string metric);

  // Judges every rung the trial has passed since its last call: a rung is
  // passed once the trial logged at or after its step, and its value there is
  // the one logged at the step, or the last before it. Returns the verdicts,
  // in rung order, up to the first that stops it. `samples` are by step.
  std::vector<RungVerdict> judge(int trial, const std::vector<MetricSample>& samples);

  // What an earlier run of the controller recorded: kept, not judged again.
  void restore(int trial, std::size_t rung, double value);

  const std::vector<std::vector<std::pair<int, double>>>& rungs() const { return rungs_; }

 private:
  RungVerdict decide(int trial, std::size_t rung, double value) const;
  bool better(double a, double b) const { return maximize_ ? a > b : a < b; }

  EarlyStopping rule_;
  bool maximize_;
  std::string metric_;
  std::vector<std::vector<std::pair<int, double>>> rungs_;  // per rung: (trial, value) in the order recorded
  std::set<std::pair<int, std::size_t>> judged_;
};

// The best of a trial's samples under the goal; nothing when it has none.
std::optional<MetricSample> best_sample(const std::vector<MetricSample>& samples, bool maximize);

}  // namespace spindle
