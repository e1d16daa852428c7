#include "spindle/client/serve_api.h"

#include <algorithm>

#include "spindle/client/json_shapes.h"
#include "spindle/core/job_status.h"

namespace spindle::client::serve_api {
namespace {

const nlohmann::json* member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

std::string text_of(const nlohmann::json& object, const char* key) {
  const auto* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

std::int64_t number_of(const nlohmann::json& object, const char* key) {
  const auto* value = member(object, key);
  return value && value->is_number() ? value->get<std::int64_t>() : 0;
}

Json text_or_null(const std::string& text) {
  return text.empty() ? Json(nullptr) : Json(text);
}

}  // namespace

Json session_json(const Session& session) {
  return {{"user", session.user}, {"version", session.version}, {"api", "v1"}};
}

std::optional<Session> session_from_json(const nlohmann::json& answer) {
  Session session{text_of(answer, "user"), text_of(answer, "version")};
  if (session.user.empty()) return std::nullopt;
  return session;
}

Json jobs_page_json(const JobsPage& page) {
  Json jobs = Json::array();
  for (const auto& job : page.jobs) jobs.push_back(history_entry_json(job));
  return {{"cluster_problem", text_or_null(page.cluster_problem)}, {"jobs", std::move(jobs)}};
}

std::optional<JobsPage> jobs_page_from_json(const nlohmann::json& answer) {
  const auto* jobs = member(answer, "jobs");
  if (!jobs || !jobs->is_array()) return std::nullopt;
  JobsPage page;
  page.cluster_problem = text_of(answer, "cluster_problem");
  for (const auto& job : *jobs) {
    if (job.is_object()) page.jobs.push_back(history_entry_from_json(job));
  }
  return page;
}

Json remote_job_json(const RemoteJob& job, double newest_point) {
  auto entry = history_entry_json(job.entry);
  entry["yarn_state"] = job.yarn_state;
  entry["final_status"] = job.final_status;
  entry["finished"] = job.finished;
  Json out{{"job", std::move(entry)}};
  out["status"] = job.status ? to_json(*job.status) : Json(nullptr);
  out["tensorboard"] = text_or_null(job.tensorboard_path);
  out["newest_point"] = newest_point;
  if (!job.mlflow_run.empty()) out["mlflow_run"] = job.mlflow_run;
  out["tokens_notice"] = text_or_null(job.tokens_notice);
  return out;
}

std::optional<RemoteJob> remote_job_from_json(const nlohmann::json& answer) {
  const auto* job = member(answer, "job");
  if (!job || !job->is_object()) return std::nullopt;
  RemoteJob remote;
  remote.entry = history_entry_from_json(*job);
  remote.yarn_state = text_of(*job, "yarn_state");
  remote.final_status = text_of(*job, "final_status");
  const auto* finished = member(*job, "finished");
  remote.finished = finished && finished->is_boolean() ? finished->get<bool>() : remote.entry.is_final();
  if (const auto* status = member(answer, "status"); status && status->is_object()) {
    auto status_read = job_status_from_json(*status);
    if (!status_read) return std::nullopt;
    remote.status = std::move(*status_read);
  }
  remote.tensorboard_path = text_of(answer, "tensorboard");
  remote.mlflow_run = text_of(answer, "mlflow_run");
  remote.tokens_notice = text_of(answer, "tokens_notice");
  return remote;
}

Json spec_json(const std::string& spec_yaml) {
  return {{"spec", spec_yaml}};
}

std::optional<std::string> spec_from_json(const nlohmann::json& answer) {
  const auto* spec = member(answer, "spec");
  if (!spec || !spec->is_string()) return std::nullopt;
  return spec->get<std::string>();
}

Json points_json(const RemotePoints& page) {
  Json points = Json::array();
  for (const auto& point : page.points) points.push_back(metric_point_json(point));
  return {{"points", std::move(points)}, {"next", page.next}};
}

std::optional<RemotePoints> points_from_json(const nlohmann::json& answer) {
  const auto* points = member(answer, "points");
  if (!points || !points->is_array()) return std::nullopt;
  RemotePoints page;
  page.next = static_cast<std::uint64_t>(std::max<std::int64_t>(0, number_of(answer, "next")));
  for (const auto& point : *points) {
    if (auto metric = metric_point_from_json(point)) page.points.push_back(std::move(*metric));
  }
  return page;
}

Json log_piece_json(const LogPiece& piece) {
  return {{"task", piece.task},     {"file", piece.file}, {"container", piece.container},
          {"offset", piece.offset}, {"size", piece.size}, {"aggregated", piece.log.aggregated},
          {"text", piece.log.text}};
}

std::optional<LogPiece> log_piece_from_json(const nlohmann::json& answer) {
  const auto* text = member(answer, "text");
  if (!text || !text->is_string()) return std::nullopt;
  LogPiece piece;
  piece.task = text_of(answer, "task");
  piece.file = text_of(answer, "file");
  piece.container = text_of(answer, "container");
  piece.offset = static_cast<std::uint64_t>(std::max<std::int64_t>(0, number_of(answer, "offset")));
  piece.size = static_cast<std::uint64_t>(std::max<std::int64_t>(0, number_of(answer, "size")));
  piece.log.text = text->get<std::string>();
  const auto* aggregated = member(answer, "aggregated");
  piece.log.aggregated = aggregated && aggregated->is_boolean() && aggregated->get<bool>();
  return piece;
}

Json killed_json(const std::string& application_id, const KilledJob& killed) {
  return {{"application_id", application_id}, {"state", killed.state}, {"removed_staging", killed.removed_staging}};
}

Json cluster_json(const ClusterState& state) {
  Json nodes = Json::array();
  for (const auto& node : state.nodes) nodes.push_back(node_json(node));
  return {{"nodes", std::move(nodes)}, {"queues", queue_json(state.root)}};
}

std::optional<ClusterState> cluster_from_json(const nlohmann::json& answer) {
  const auto* nodes = member(answer, "nodes");
  const auto* queues = member(answer, "queues");
  if (!nodes || !nodes->is_array() || !queues || !queues->is_object()) return std::nullopt;
  ClusterState state;
  for (const auto& node : *nodes) state.nodes.push_back(node_from_json(node));
  state.root = queue_from_json(*queues);
  return state;
}

Json submitted_json(const std::string& application_id) {
  return {{"application_id", application_id}};
}

std::optional<std::string> submitted_from_json(const nlohmann::json& answer) {
  auto id = text_of(answer, "application_id");
  if (id.empty()) return std::nullopt;
  return id;
}

Json refusal_json(const std::string& sentence) {
  return {{"error", sentence}};
}

Json problems_json(const Diagnostics& problems) {
  Json out = Json::array();
  for (const auto& problem : problems) {
    out.push_back({{"line", problem.line},
                   {"column", problem.column},
                   {"field", problem.field},
                   {"message", problem.message},
                   {"sentence", problem.to_string()}});
  }
  return out;
}

std::string refusal_sentence(const nlohmann::json& answer) {
  std::string sentence = text_of(answer, "error");
  if (const auto* problems = member(answer, "problems"); problems && problems->is_array()) {
    for (const auto& problem : *problems) {
      if (const auto line = text_of(problem, "sentence"); !line.empty()) sentence += "\n" + line;
    }
  }
  return sentence;
}

}  // namespace spindle::client::serve_api
