#include "client/remote/dashboard_answers.h"

#include <nlohmann/json.hpp>

#include "spindle/client/json_shapes.h"

namespace spindle::client {
namespace {

using json = nlohmann::json;

std::string text_of(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::int64_t number_of(const json& object, const char* key) {
  if (!object.is_object()) return 0;
  const auto found = object.find(key);
  return found != object.end() && found->is_number() ? found->get<std::int64_t>() : 0;
}

// Our own sentence for a server that answers in a shape we do not know.
Error unexpected(const std::string& server, std::string_view what) {
  return make_error("the Spindle server at " + server + " answered " + std::string(what) +
                    " in a shape this version does not know; use a spindle serve of the same version");
}

// The JSON of an answer; null when it is none.
json parsed(std::string_view body) {
  return json::parse(body.begin(), body.end(), nullptr, false);
}

JobHistoryEntry entry_from(const json& job) {
  JobHistoryEntry entry;
  entry.application_id = text_of(job, "application_id");
  entry.name = text_of(job, "name");
  entry.user = text_of(job, "user");
  entry.queue = text_of(job, "queue");
  entry.state = text_of(job, "state");
  entry.diagnostics = text_of(job, "diagnostics");
  entry.tracking_url = text_of(job, "tracking_url");
  entry.submitted_ms = number_of(job, "submitted_ms");
  entry.started_ms = number_of(job, "started_ms");
  entry.finished_ms = number_of(job, "finished_ms");
  return entry;
}

}  // namespace

Result<std::string> read_session_user(std::string_view body, const std::string& server) {
  const auto user = text_of(parsed(body), "user");
  if (user.empty()) return unexpected(server, "the session");
  return user;
}

Result<std::vector<JobHistoryEntry>> read_jobs(std::string_view body, const std::string& server) {
  const auto listed = parsed(body);
  if (!listed.is_object() || !listed.contains("jobs") || !listed["jobs"].is_array()) {
    return unexpected(server, "the jobs list");
  }
  std::vector<JobHistoryEntry> entries;
  for (const auto& job : listed["jobs"]) {
    if (job.is_object()) entries.push_back(entry_from(job));
  }
  return entries;
}

Result<ClusterState> read_cluster(std::string_view body, const std::string& server) {
  const auto whole = parsed(body);
  if (!whole.is_object() || !whole.contains("nodes") || !whole["nodes"].is_array() || !whole.contains("queues") ||
      !whole["queues"].is_object()) {
    return unexpected(server, "the cluster");
  }
  ClusterState state;
  for (const auto& node : whole["nodes"]) state.nodes.push_back(node_from_json(node));
  state.root = queue_from_json(whole["queues"]);
  return state;
}

Result<RemoteJob> read_job(std::string_view body, const std::string& server) {
  const auto whole = parsed(body);
  if (!whole.is_object() || !whole.contains("job") || !whole["job"].is_object()) return unexpected(server, "the job");
  const auto& job = whole["job"];
  RemoteJob remote;
  remote.entry = entry_from(job);
  remote.yarn_state = text_of(job, "yarn_state");
  remote.final_status = text_of(job, "final_status");
  const auto finished = job.find("finished");
  remote.finished = finished != job.end() && finished->is_boolean() ? finished->get<bool>() : remote.entry.is_final();
  if (const auto status = whole.find("status"); status != whole.end() && status->is_object()) {
    auto status_read = job_status_from_json(*status);
    if (!status_read) return unexpected(server, "the job's status");
    remote.status = std::move(*status_read);
  }
  remote.tensorboard_path = text_of(whole, "tensorboard");
  remote.mlflow_run = text_of(whole, "mlflow_run");
  return remote;
}

Result<std::string> read_spec(std::string_view body, const std::string& server) {
  const auto whole = parsed(body);
  if (!whole.is_object() || !whole.contains("spec") || !whole["spec"].is_string())
    return unexpected(server, "the spec");
  return whole["spec"].get<std::string>();
}

Result<RemotePoints> read_points(std::string_view body, const std::string& server) {
  const auto page = parsed(body);
  if (!page.is_object() || !page.contains("points") || !page["points"].is_array()) {
    return unexpected(server, "the metrics");
  }
  RemotePoints remote;
  remote.next = static_cast<std::uint64_t>(std::max<std::int64_t>(0, number_of(page, "next")));
  for (const auto& point : page["points"]) {
    if (!point.is_object()) continue;
    const auto value = point.find("value");
    if (value == point.end() || !value->is_number()) continue;
    MetricPoint metric;
    metric.source = text_of(point, "source");
    metric.run = text_of(point, "run");
    metric.tag = text_of(point, "tag");
    metric.step = number_of(point, "step");
    if (const auto wall_time = point.find("wall_time"); wall_time != point.end() && wall_time->is_number()) {
      metric.wall_time = wall_time->get<double>();
    }
    metric.value = value->get<double>();
    remote.points.push_back(std::move(metric));
  }
  return remote;
}

Result<RemoteLog> read_log(std::string_view body, const std::string& server) {
  const auto log = parsed(body);
  if (!log.is_object() || !log.contains("text") || !log["text"].is_string()) return unexpected(server, "the log");
  RemoteLog remote;
  remote.text = log["text"].get<std::string>();
  const auto aggregated = log.find("aggregated");
  remote.aggregated = aggregated != log.end() && aggregated->is_boolean() && aggregated->get<bool>();
  return remote;
}

Result<std::string> read_submitted(std::string_view body, const std::string& server) {
  const auto id = text_of(parsed(body), "application_id");
  if (id.empty()) return unexpected(server, "the submit");
  return id;
}

std::string read_refusal(std::string_view body) {
  const auto refusal = parsed(body);
  std::string sentence = text_of(refusal, "error");
  if (refusal.is_object()) {
    if (const auto problems = refusal.find("problems"); problems != refusal.end() && problems->is_array()) {
      for (const auto& problem : *problems) {
        if (const auto line = text_of(problem, "sentence"); !line.empty()) sentence += "\n" + line;
      }
    }
  }
  return sentence;
}

}  // namespace spindle::client
