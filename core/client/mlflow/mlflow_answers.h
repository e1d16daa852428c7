#pragma once

// Reading what an MLflow server answers: JSON from outside, so every field is
// checked and nothing in it can crash the reader (see the fuzz target).

#include <string>
#include <vector>

#include "spindle/client/mlflow_client.h"
#include "spindle/core/result.h"

namespace spindle::client::mlflow {

// The bodies of runs/log-batch requests that carry all of these within
// MLflow's limits per request (100 parameters, 100 tags, 1,000 metrics,
// 1,000 entries in all).
std::vector<std::string> batch_bodies(const std::string& run_id, const MlflowPairs& params, const MlflowPairs& tags,
                                      const std::vector<MlflowMetric>& metrics);

// The sentence for an answer other than 200: MLflow's error_code and
// message when the body carries them, else the status.
Error refusal(const std::string& tracking_uri, long status, const std::string& body, const std::string& doing);

// Whether a refusal body says RESOURCE_DOES_NOT_EXIST.
bool says_not_found(const std::string& body);

Result<std::string> experiment_id_of(const std::string& body);       // {"experiment": {"experiment_id": ...}}
Result<std::string> created_experiment_id(const std::string& body);  // {"experiment_id": ...}
Result<MlflowRunInfo> run_info_of(const std::string& body);          // {"run": {"info": {...}}}

// The artifact proxy's path for `name` under a run's artifact URI
// (mlflow-artifacts:/1/<run>/artifacts or mlflow-artifacts://host:port/...);
// an error for any other scheme.
Result<std::string> artifact_proxy_path(const std::string& artifact_uri, const std::string& name);

}  // namespace spindle::client::mlflow
