// What an MLflow tracking server answers, read as Spindle reads it: every
// reader takes any bytes and returns a value or a sentence, never crashes.

#include <cstddef>
#include <cstdint>
#include <string>

#include "client/mlflow/mlflow_answers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  using namespace spindle::client::mlflow;
  (void)experiment_id_of(body);
  (void)created_experiment_id(body);
  if (auto run = run_info_of(body); run.ok()) (void)artifact_proxy_path(run->artifact_uri, "spec.yaml");
  (void)artifact_proxy_path(body, "spec.yaml");
  (void)says_not_found(body);
  (void)refusal("http://mlflow:5000", 400, body, "to log to run r");
  return 0;
}
