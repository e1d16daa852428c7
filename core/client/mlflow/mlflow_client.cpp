#include "spindle/client/mlflow_client.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "client/mlflow/mlflow_answers.h"
#include "spindle/core/text_encodings.h"
#include "spindle/yarn/http_client.h"

namespace spindle::client {
namespace {

using json = nlohmann::json;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

json pairs_json(const MlflowPairs& pairs) {
  json list = json::array();
  for (const auto& [key, value] : pairs) list.push_back({{"key", key}, {"value", value}});
  return list;
}

// MLflow's own variables for credentials, besides the CA bundle.
constexpr std::array<const char*, 3> credential_variables{"MLFLOW_TRACKING_TOKEN", "MLFLOW_TRACKING_USERNAME",
                                                          "MLFLOW_TRACKING_PASSWORD"};
// The key of the CA bundle's text in carried credentials.
constexpr const char* carried_ca_key = "MLFLOW_TRACKING_SERVER_CERT";

// The PEM text of the CA bundle `path` names, or a sentence saying what is wrong with it.
Result<std::string> read_ca_bundle(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream pem;
  pem << in.rdbuf();
  if (!in || pem.str().find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return make_error("MLFLOW_TRACKING_SERVER_CERT_PATH names " + path +
                      ", which is not a readable file of PEM certificates; point it at the CA bundle the MLflow "
                      "server's certificate is signed by");
  }
  return pem.str();
}

}  // namespace

std::string mlflow_tag_value(std::string value) {
  constexpr std::size_t max_tag_value = 8000;
  if (value.size() > max_tag_value) value.resize(max_tag_value);
  return value;
}

Result<std::string> carried_mlflow_credentials() {
  json carried = json::object();
  for (const char* name : credential_variables) {
    if (auto value = environment(name); !value.empty()) carried[name] = value;
  }
  if (auto bundle = environment("MLFLOW_TRACKING_SERVER_CERT_PATH"); !bundle.empty()) {
    auto pem = read_ca_bundle(bundle);
    if (!pem) return pem.error();
    carried[carried_ca_key] = std::move(*pem);
  }
  return carried.empty() ? std::string() : carried.dump();
}

Result<void> use_carried_mlflow_credentials(const std::string& carried_text, const std::string& directory) {
  const auto carried = json::parse(carried_text, nullptr, false);
  if (carried.is_discarded() || !carried.is_object()) {
    return make_error("the MLflow credentials carried here are not a JSON object; submit again");
  }
  for (const char* name : credential_variables) {
    if (const auto found = carried.find(name); found != carried.end() && found->is_string()) {
      ::setenv(name, found->get<std::string>().c_str(), 1);
    }
  }
  if (const auto pem = carried.find(carried_ca_key); pem != carried.end() && pem->is_string()) {
    const auto path = std::filesystem::path(directory) / "mlflow-ca.pem";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << pem->get<std::string>();
    if (!out.flush()) return make_error("the MLflow server's CA bundle cannot be written to " + path.string());
    ::setenv("MLFLOW_TRACKING_SERVER_CERT_PATH", path.c_str(), 1);
  }
  return {};
}

std::string metric_key(const std::string& run, const std::string& tag) {
  std::string key = run.empty() || run == "." ? tag : run + "/" + tag;
  for (auto& c : key) {
    const bool allowed =
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ' ' || c == '/';
    if (!allowed) c = '_';
  }
  return key;
}

std::optional<MlflowMetric> training_metric(const std::string& run, const std::string& tag, std::int64_t step,
                                            double wall_time, double value) {
  if (!std::isfinite(value)) return std::nullopt;
  return MlflowMetric{metric_key(run, tag), value, static_cast<std::int64_t>(std::llround(wall_time * 1000)), step};
}

void flatten_parameters(const nlohmann::ordered_json& value, const std::string& key, MlflowPairs& out,
                        const std::function<bool(const std::string&, const std::string&)>& hidden) {
  // MLflow's limit on one parameter's value.
  constexpr std::size_t max_param_value = 6000;
  if (value.is_object()) {
    for (const auto& [name, item] : value.items()) {
      const auto child = key.empty() ? name : key + "." + name;
      if (hidden && hidden(key, name)) {
        out.emplace_back(child, "(hidden)");
        continue;
      }
      flatten_parameters(item, child, out, hidden);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      flatten_parameters(value[i], key + "." + std::to_string(i), out, hidden);
    }
  } else if (value.is_string()) {
    auto text = value.get<std::string>();
    if (text.size() > max_param_value) text.resize(max_param_value);
    out.emplace_back(key, std::move(text));
  } else {
    out.emplace_back(key, value.dump());
  }
}

struct MlflowClient::Connection {
  std::string authorization;  // the header's value; empty: none
  std::shared_ptr<const yarn::WebTrust> trust;
  std::string trust_problem;  // a CA bundle that could not be read
};

MlflowClient::MlflowClient(std::string tracking_uri)
    : tracking_uri_(std::move(tracking_uri)), connection_(std::make_unique<Connection>()) {
  while (tracking_uri_.ends_with('/')) tracking_uri_.pop_back();
  if (auto token = environment("MLFLOW_TRACKING_TOKEN"); !token.empty()) {
    connection_->authorization = "Bearer " + token;
  } else if (auto user = environment("MLFLOW_TRACKING_USERNAME"); !user.empty()) {
    connection_->authorization = "Basic " + base64_encode(user + ":" + environment("MLFLOW_TRACKING_PASSWORD"));
  }
  if (auto bundle = environment("MLFLOW_TRACKING_SERVER_CERT_PATH"); !bundle.empty()) {
    if (auto pem = read_ca_bundle(bundle)) {
      connection_->trust = std::make_shared<const yarn::WebTrust>(yarn::WebTrust{std::move(*pem), bundle});
    } else {
      connection_->trust_problem = pem.error().message;
    }
  }
}

MlflowClient::~MlflowClient() = default;
MlflowClient::MlflowClient(MlflowClient&&) noexcept = default;
MlflowClient& MlflowClient::operator=(MlflowClient&&) noexcept = default;

Result<MlflowClient::Reply> MlflowClient::exchange(const std::string& method, const std::string& path,
                                                   const std::string& body, const std::string& doing) {
  if (!connection_->trust_problem.empty()) return make_error(connection_->trust_problem);
  yarn::http::Request request;
  request.method = method;
  request.url = tracking_uri_ + path;
  request.connect_timeout = std::chrono::seconds(10);
  request.timeout = std::chrono::seconds(60);
  request.trust = connection_->trust.get();
  if (method != "GET") {
    request.body = body;
    request.headers.emplace_back("Content-Type", method == "PUT" ? "application/octet-stream" : "application/json");
  }
  if (!connection_->authorization.empty()) request.headers.emplace_back("Authorization", connection_->authorization);
  auto answer = yarn::http::perform(request);
  if (!answer) {
    return make_error("MLflow at " + tracking_uri_ + " could not be reached for " + doing + ": " +
                      answer.error().message + "; check the tracking URI and that the server runs");
  }
  return Reply{answer->status, std::move(answer->body)};
}

Result<std::string> MlflowClient::call(const std::string& method, const std::string& path, const std::string& body,
                                       const std::string& doing) {
  auto reply = exchange(method, path, body, doing);
  if (!reply) return reply.error();
  if (reply->status != 200) return mlflow::refusal(tracking_uri_, reply->status, reply->body, doing);
  return std::move(reply->body);
}

Result<std::string> MlflowClient::experiment_id(const std::string& name) {
  const std::string doing = "the experiment \"" + name + "\"";
  auto lookup =
      exchange("GET", "/api/2.0/mlflow/experiments/get-by-name?experiment_name=" + yarn::http::escape(name), {}, doing);
  if (!lookup) return lookup.error();
  if (lookup->status == 200) return mlflow::experiment_id_of(lookup->body);
  if (!mlflow::says_not_found(lookup->body)) {
    return mlflow::refusal(tracking_uri_, lookup->status, lookup->body, "to look up " + doing);
  }
  auto created = call("POST", "/api/2.0/mlflow/experiments/create", json{{"name", name}}.dump(), "to create " + doing);
  if (!created) return created.error();
  return mlflow::created_experiment_id(*created);
}

Result<MlflowRunInfo> MlflowClient::create_run(const std::string& experiment_id, const std::string& run_name,
                                               std::int64_t start_ms, const MlflowPairs& tags) {
  json request = {
      {"experiment_id", experiment_id}, {"run_name", run_name}, {"start_time", start_ms}, {"tags", pairs_json(tags)}};
  for (const auto& [key, value] : tags) {
    if (key == "mlflow.user") request["user_id"] = value;
  }
  auto created =
      call("POST", "/api/2.0/mlflow/runs/create", request.dump(), "to create a run in experiment " + experiment_id);
  if (!created) return created.error();
  return mlflow::run_info_of(*created);
}

Result<void> MlflowClient::log_batch(const std::string& run_id, const MlflowPairs& params, const MlflowPairs& tags,
                                     const std::vector<MlflowMetric>& metrics) {
  for (const auto& body : mlflow::batch_bodies(run_id, params, tags, metrics)) {
    if (auto logged = call("POST", "/api/2.0/mlflow/runs/log-batch", body, "to log to run " + run_id); !logged) {
      return logged.error();
    }
  }
  return {};
}

Result<void> MlflowClient::end_run(const std::string& run_id, const std::string& status, std::int64_t end_ms) {
  auto updated =
      call("POST", "/api/2.0/mlflow/runs/update",
           json{{"run_id", run_id}, {"status", status}, {"end_time", end_ms}}.dump(), "to end run " + run_id);
  if (!updated) return updated.error();
  return {};
}

Result<void> MlflowClient::upload_artifact(const MlflowRunInfo& run, const std::string& name,
                                           const std::string& content) {
  auto path = mlflow::artifact_proxy_path(run.artifact_uri, name);
  if (!path) return path.error();
  auto stored = call("PUT", *path, content, "to store the artifact " + name + " of run " + run.run_id);
  if (!stored) return stored.error();
  return {};
}

}  // namespace spindle::client
