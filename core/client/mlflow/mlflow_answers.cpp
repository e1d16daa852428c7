#include "client/mlflow/mlflow_answers.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace spindle::client::mlflow {
namespace {

using json = nlohmann::json;

// The object at `path` of the answer, or null when any step is missing or
// not an object.
const json* find(const json& document, std::initializer_list<const char*> path) {
  const json* at = &document;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto found = at->find(key);
    if (found == at->end()) return nullptr;
    at = &*found;
  }
  return at;
}

std::string text_at(const json& document, std::initializer_list<const char*> path) {
  const json* value = find(document, path);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

Result<json> parsed(const std::string& body, const std::string& what) {
  json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) {
    return make_error("MLflow answered " + what +
                      " with something that is not a JSON object; check that the "
                      "tracking URI names an MLflow tracking server");
  }
  return document;
}

// MLflow's limits for one log-batch request.
constexpr std::size_t max_params_per_batch = 100;
constexpr std::size_t max_tags_per_batch = 100;
constexpr std::size_t max_metrics_per_batch = 1000;
constexpr std::size_t max_entries_per_batch = 1000;

// Proto3's JSON form of a double, which MLflow's server reads: NaN and the
// infinities as strings.
json number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

}  // namespace

std::vector<std::string> batch_bodies(const std::string& run_id, const MlflowPairs& params, const MlflowPairs& tags,
                                      const std::vector<MlflowMetric>& metrics) {
  std::vector<std::string> bodies;
  std::size_t next_param = 0;
  std::size_t next_tag = 0;
  std::size_t next_metric = 0;
  while (next_param < params.size() || next_tag < tags.size() || next_metric < metrics.size()) {
    json params_part = json::array();
    json tags_part = json::array();
    json metrics_part = json::array();
    std::size_t entries = 0;
    for (; next_param < params.size() && params_part.size() < max_params_per_batch; ++next_param, ++entries) {
      params_part.push_back({{"key", params[next_param].first}, {"value", params[next_param].second}});
    }
    for (; next_tag < tags.size() && tags_part.size() < max_tags_per_batch && entries < max_entries_per_batch;
         ++next_tag, ++entries) {
      tags_part.push_back({{"key", tags[next_tag].first}, {"value", tags[next_tag].second}});
    }
    for (;
         next_metric < metrics.size() && metrics_part.size() < max_metrics_per_batch && entries < max_entries_per_batch;
         ++next_metric, ++entries) {
      const auto& metric = metrics[next_metric];
      metrics_part.push_back({{"key", metric.key},
                              {"value", number(metric.value)},
                              {"timestamp", metric.timestamp_ms},
                              {"step", metric.step}});
    }
    bodies.push_back(
        json{{"run_id", run_id}, {"params", params_part}, {"tags", tags_part}, {"metrics", metrics_part}}.dump());
  }
  return bodies;
}

Error refusal(const std::string& tracking_uri, long status, const std::string& body, const std::string& doing) {
  const json document = json::parse(body, nullptr, false);
  std::string code;
  std::string message;
  if (document.is_object()) {
    code = text_at(document, {"error_code"});
    message = text_at(document, {"message"});
  }
  std::string sentence = "MLflow at " + tracking_uri + " refused " + doing + " (HTTP " + std::to_string(status);
  if (!code.empty()) sentence += ", " + code;
  sentence += ")";
  if (!message.empty()) sentence += ": " + message.substr(0, 500);
  if (status == 401 || status == 403) {
    sentence += "; set MLFLOW_TRACKING_TOKEN, or MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD";
  } else if (status == 404 && code.empty()) {
    sentence += "; check that the tracking URI names an MLflow tracking server";
  }
  return make_error(sentence);
}

bool says_not_found(const std::string& body) {
  const json document = json::parse(body, nullptr, false);
  return document.is_object() && text_at(document, {"error_code"}) == "RESOURCE_DOES_NOT_EXIST";
}

Result<std::string> experiment_id_of(const std::string& body) {
  auto document = parsed(body, "the experiment's look-up");
  if (!document) return document.error();
  auto id = text_at(*document, {"experiment", "experiment_id"});
  if (id.empty()) return make_error("MLflow's answer about the experiment holds no experiment_id");
  return id;
}

Result<std::string> created_experiment_id(const std::string& body) {
  auto document = parsed(body, "the experiment's creation");
  if (!document) return document.error();
  auto id = text_at(*document, {"experiment_id"});
  if (id.empty()) return make_error("MLflow created the experiment but named no experiment_id");
  return id;
}

Result<MlflowRunInfo> run_info_of(const std::string& body) {
  auto document = parsed(body, "the run's creation");
  if (!document) return document.error();
  MlflowRunInfo info;
  info.run_id = text_at(*document, {"run", "info", "run_id"});
  if (info.run_id.empty()) info.run_id = text_at(*document, {"run", "info", "run_uuid"});
  info.experiment_id = text_at(*document, {"run", "info", "experiment_id"});
  info.artifact_uri = text_at(*document, {"run", "info", "artifact_uri"});
  if (info.run_id.empty()) return make_error("MLflow's answer about the new run holds no run_id");
  return info;
}

Result<std::string> artifact_proxy_path(const std::string& artifact_uri, const std::string& name) {
  constexpr std::string_view scheme = "mlflow-artifacts:";
  if (!artifact_uri.starts_with(scheme)) {
    return make_error("the run keeps its artifacts at " + artifact_uri +
                      ", which only the server's own artifact proxy lets Spindle write; start the server with "
                      "--serve-artifacts (the default since MLflow 2) and without --default-artifact-root");
  }
  std::string path = artifact_uri.substr(scheme.size());
  // mlflow-artifacts://host:port/path names the proxy's host; the path is what counts.
  if (path.starts_with("//")) {
    const auto slash = path.find('/', 2);
    path = slash == std::string::npos ? std::string() : path.substr(slash);
  }
  while (path.starts_with('/')) path.erase(0, 1);
  while (path.ends_with('/')) path.pop_back();
  if (path.empty() || path.find("..") != std::string::npos) {
    return make_error("the run's artifact URI " + artifact_uri + " names no usable path");
  }
  return "/api/2.0/mlflow-artifacts/artifacts/" + path + "/" + name;
}

}  // namespace spindle::client::mlflow
