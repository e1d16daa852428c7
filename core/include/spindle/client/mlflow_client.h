#pragma once

// MLflow's tracking REST API (/api/2.0/mlflow/...), spoken directly: no
// Python on the submitting machine.

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::client {

struct MlflowMetric {
  std::string key;
  double value = 0;
  std::int64_t timestamp_ms = 0;
  std::int64_t step = 0;
};

using MlflowPairs = std::vector<std::pair<std::string, std::string>>;

struct MlflowRunInfo {
  std::string run_id;
  std::string experiment_id;
  std::string artifact_uri;  // "mlflow-artifacts:/1/<run>/artifacts" when the server serves artifacts
};

// A training scalar's metric key: "<run>/<tag>" ("train/loss"), or the tag
// alone for the log directory's own run; characters MLflow refuses become '_'.
std::string metric_key(const std::string& run, const std::string& tag);

// A training scalar of an event file as an MLflow metric at its own step and
// wall time; nothing for NaN or infinity, which JSON, and so MLflow, cannot
// hold. Sent twice, the same point is kept once.
std::optional<MlflowMetric> training_metric(const std::string& run, const std::string& tag, std::int64_t step,
                                            double wall_time, double value);

// A JSON document as MLflow parameters: dotted keys ("tasks.worker.instances"),
// text values clipped to MLflow's limit. `hidden(parent key, name)` true
// records that member as "(hidden)".
void flatten_parameters(const nlohmann::ordered_json& value, const std::string& key, MlflowPairs& out,
                        const std::function<bool(const std::string&, const std::string&)>& hidden = {});

// A tag's value within MLflow's limit (8,000 characters).
std::string mlflow_tag_value(std::string value);

// MLflow's credentials of this process (MLFLOW_TRACKING_TOKEN, or
// MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD, and the CA bundle
// MLFLOW_TRACKING_SERVER_CERT_PATH names, as its text) as JSON, for a
// process elsewhere that records runs for this one (a sweep's controller);
// "" when there are none.
Result<std::string> carried_mlflow_credentials();
// Puts credentials carried_mlflow_credentials() wrote into this process's
// environment, where MlflowClient reads them; a CA bundle is written to
// `directory` first.
Result<void> use_carried_mlflow_credentials(const std::string& carried, const std::string& directory);

// One tracking server. Credentials come from MLflow's own variables:
// MLFLOW_TRACKING_TOKEN (bearer), or MLFLOW_TRACKING_USERNAME and
// MLFLOW_TRACKING_PASSWORD (basic); MLFLOW_TRACKING_SERVER_CERT_PATH names
// the CA bundle an https:// server is checked against.
class MlflowClient {
 public:
  explicit MlflowClient(std::string tracking_uri);
  ~MlflowClient();
  MlflowClient(MlflowClient&&) noexcept;
  MlflowClient& operator=(MlflowClient&&) noexcept;

  const std::string& tracking_uri() const { return tracking_uri_; }

  // The experiment of that name, created when it does not exist yet.
  Result<std::string> experiment_id(const std::string& name);
  Result<MlflowRunInfo> create_run(const std::string& experiment_id, const std::string& run_name, std::int64_t start_ms,
                                   const MlflowPairs& tags);
  // In as many requests as MLflow's limits need (100 parameters, 1,000
  // metrics and 1,000 entries in all per request).
  Result<void> log_batch(const std::string& run_id, const MlflowPairs& params, const MlflowPairs& tags,
                         const std::vector<MlflowMetric>& metrics);
  // FINISHED, FAILED or KILLED.
  Result<void> end_run(const std::string& run_id, const std::string& status, std::int64_t end_ms);
  // Stores `content` as the run's artifact `name`, through the server's
  // artifact proxy; a run whose artifacts live elsewhere gets a sentence.
  Result<void> upload_artifact(const MlflowRunInfo& run, const std::string& name, const std::string& content);

 private:
  struct Connection;
  struct Reply {
    long status = 0;
    std::string body;
  };
  // One request; any HTTP status is a reply, only a transport failure an error.
  Result<Reply> exchange(const std::string& method, const std::string& path, const std::string& body,
                         const std::string& doing);
  // exchange() that takes anything but 200 as MLflow's refusal.
  Result<std::string> call(const std::string& method, const std::string& path, const std::string& body,
                           const std::string& doing);

  std::string tracking_uri_;
  std::unique_ptr<Connection> connection_;
};

}  // namespace spindle::client
