#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spindle/client/mlflow_client.h"

namespace spindle::container {

// The training scalars an MLflow run has not taken yet (docs/mlflow.md,
// "While a job trains"). A job's master and a sweep's controller both read
// event files as they grow and hand each run what they read; this keeps it
// until MLflow takes it. A point sent twice (a new attempt sending all again)
// is kept once by MLflow.
class RunScalars {
 public:
  using Log = std::function<void(const std::string&)>;

  // `who` names the run in log lines: "trial 3's run".
  RunScalars(std::string run_id, std::string who);

  // One scalar of an event file; NaN and infinity are left out.
  void add(const std::string& run, const std::string& tag, std::int64_t step, double wall_time, double value);
  // Leaves out the oldest beyond `most`, for a run MLflow refuses for long;
  // how many were left out.
  std::size_t keep_newest(std::size_t most);
  // Sends what waits; true once nothing does. A refusal is said once while
  // it lasts, and said again when MLflow takes the scalars again.
  bool send(client::MlflowClient& client, const Log& log);

 private:
  std::string run_id_;
  std::string who_;
  std::vector<client::MlflowMetric> unsent_;
  bool failing_ = false;
};

}  // namespace spindle::container
