#include "spindle/core/job_status.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>

#include "net/query_string.h"
#include "spindle/core/job_lifecycle.h"

namespace spindle {

namespace {

Result<std::size_t> query_count(std::string_view query, std::string_view key, std::size_t fallback) {
  const auto text = query_value(query, key);
  if (!text) return fallback;
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size()) {
    return make_error("the status query's " + std::string(key) + " is \"" + std::string(*text) +
                      "\"; it must be a whole number");
  }
  return value;
}

TaskTypeSummary& summary_of(std::vector<TaskTypeSummary>& types, const std::string& type) {
  for (auto& summary : types) {
    if (summary.type == type) return summary;
  }
  types.push_back(TaskTypeSummary{type, 0, {}, 0});
  return types.back();
}

}  // namespace

Result<TaskSelection> parse_task_selection(std::string_view query) {
  TaskSelection selection;
  if (const auto type = query_value(query, "type")) {
    for (const char c : *type) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
        return make_error("the status query's type is \"" + std::string(*type) + "\", which is no task type's name");
      }
    }
    selection.type = std::string(*type);
  }
  auto offset = query_count(query, "offset", 0);
  if (!offset) return offset.error();
  auto limit = query_count(query, "limit", selection.limit);
  if (!limit) return limit.error();
  selection.offset = *offset;
  selection.limit = *limit;
  return selection;
}

JobStatus job_status(const JobLifecycle& lifecycle, const std::string& application_id, std::uint64_t cluster_version,
                     std::int64_t started_ms, const TaskSelection& selection) {
  JobStatus status;
  status.application_id = application_id;
  status.name = lifecycle.spec().name;
  status.state = std::string(to_string(lifecycle.outcome()));
  status.diagnostics = lifecycle.diagnostics();
  status.waiting_for = lifecycle.ending() ? std::string() : lifecycle.waiting_for();
  status.cluster_version = cluster_version;
  status.started_ms = started_ms;
  status.tasks_offset = selection.offset;
  for (const auto& record : lifecycle.tasks()) {
    auto& summary = summary_of(status.types, record.id.type);
    ++summary.tasks;
    ++summary.phases[std::string(to_string(record.phase))];
    summary.restarts += record.restarts;
    if (record.id.type == "tensorboard" && record.phase == TaskPhase::running && record.address) {
      status.tensorboard_address = record.address->host + ":" + std::to_string(record.address->port);
      status.tensorboard_certificate_sha256 = record.usage.certificate_sha256;
    }
    if (!selection.type.empty() && record.id.type != selection.type) continue;
    const auto position = status.tasks_selected++;
    if (position < selection.offset || position - selection.offset >= selection.limit) continue;
    TaskStatus task;
    task.task = record.id.to_string();
    task.phase = std::string(to_string(record.phase));
    task.container = record.container;
    task.node = record.node;
    task.node_http_address = record.node_http_address;
    if (record.address) task.address = record.address->host + ":" + std::to_string(record.address->port);
    task.exit_code = record.exit_code;
    task.exit_description = record.exit_description;
    task.stalled = record.stalled;
    task.restarts = record.restarts;
    task.lost = record.lost;
    task.log_url = record.log_url;
    task.started_ms = record.started_ms;
    task.finished_ms = record.finished_ms;
    task.rss_bytes = record.usage.rss_bytes;
    task.cpu_seconds = record.usage.cpu_seconds;
    task.cluster_version = record.usage.cluster_version;
    task.certificate_sha256 = record.usage.certificate_sha256;
    task.earlier_attempts = record.earlier_attempts;
    status.tasks.push_back(std::move(task));
  }
  return status;
}

namespace {

nlohmann::ordered_json earlier_json(const std::vector<EarlierAttempt>& attempts) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& attempt : attempts) {
    out.push_back({{"container", attempt.container},
                   {"node", attempt.node},
                   {"address", attempt.address},
                   {"exit_code", attempt.exit_code ? nlohmann::ordered_json(*attempt.exit_code) : nullptr},
                   {"exit_description", attempt.exit_description},
                   {"log_url", attempt.log_url},
                   {"started_ms", attempt.started_ms},
                   {"finished_ms", attempt.finished_ms}});
  }
  return out;
}

std::vector<EarlierAttempt> parse_earlier(const nlohmann::json& item) {
  std::vector<EarlierAttempt> attempts;
  if (!item.contains("earlier_attempts") || !item["earlier_attempts"].is_array()) return attempts;
  for (const auto& one : item["earlier_attempts"]) {
    if (!one.is_object()) continue;
    EarlierAttempt attempt;
    attempt.container = one.value("container", std::string());
    attempt.node = one.value("node", std::string());
    attempt.address = one.value("address", std::string());
    if (one.contains("exit_code") && one["exit_code"].is_number_integer())
      attempt.exit_code = one["exit_code"].get<int>();
    attempt.exit_description = one.value("exit_description", std::string());
    attempt.log_url = one.value("log_url", std::string());
    attempt.started_ms = one.value("started_ms", std::int64_t{0});
    attempt.finished_ms = one.value("finished_ms", std::int64_t{0});
    attempts.push_back(std::move(attempt));
  }
  return attempts;
}

}  // namespace

nlohmann::ordered_json to_json(const JobStatus& status) {
  auto tasks = nlohmann::ordered_json::array();
  for (const auto& task : status.tasks) {
    tasks.push_back({{"task", task.task},
                     {"phase", task.phase},
                     {"container", task.container},
                     {"node", task.node},
                     {"node_http_address", task.node_http_address},
                     {"address", task.address},
                     {"certificate_sha256", task.certificate_sha256},
                     {"exit_code", task.exit_code ? nlohmann::ordered_json(*task.exit_code) : nullptr},
                     {"exit_description", task.exit_description},
                     {"stalled", task.stalled},
                     {"restarts", task.restarts},
                     {"lost", task.lost},
                     {"log_url", task.log_url},
                     {"started_ms", task.started_ms},
                     {"finished_ms", task.finished_ms},
                     {"rss_bytes", task.rss_bytes},
                     {"cpu_seconds", task.cpu_seconds},
                     {"cluster_version", task.cluster_version},
                     {"earlier_attempts", earlier_json(task.earlier_attempts)}});
  }
  auto types = nlohmann::ordered_json::array();
  for (const auto& summary : status.types) {
    types.push_back(
        {{"type", summary.type}, {"tasks", summary.tasks}, {"phases", summary.phases}, {"restarts", summary.restarts}});
  }
  nlohmann::ordered_json json = {{"application_id", status.application_id},
                                 {"name", status.name},
                                 {"state", status.state},
                                 {"diagnostics", status.diagnostics},
                                 {"waiting_for", status.waiting_for},
                                 {"cluster_version", status.cluster_version},
                                 {"started_ms", status.started_ms},
                                 {"types", std::move(types)},
                                 {"tensorboard_address", status.tensorboard_address},
                                 {"tensorboard_certificate_sha256", status.tensorboard_certificate_sha256},
                                 {"tokens_end_ms", status.tokens_end_ms},
                                 {"tokens_end_kind", status.tokens_end_kind},
                                 {"tasks_selected", status.tasks_selected},
                                 {"tasks_offset", status.tasks_offset},
                                 {"tasks", std::move(tasks)}};
  return json;
}

Result<JobStatus> parse_job_status(const std::string& text) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) return make_error("the job status is not a JSON object");
  return job_status_from_json(json);
}

Result<JobStatus> job_status_from_json(const nlohmann::json& json) {
  if (!json.is_object()) return make_error("the job status is not a JSON object");
  try {
    JobStatus status;
    status.application_id = json.value("application_id", std::string());
    status.name = json.value("name", std::string());
    status.state = json.value("state", std::string());
    status.diagnostics = json.value("diagnostics", std::string());
    status.waiting_for = json.value("waiting_for", std::string());
    status.cluster_version = json.value("cluster_version", std::uint64_t{0});
    status.started_ms = json.value("started_ms", std::int64_t{0});
    if (json.contains("types") && json["types"].is_array()) {
      for (const auto& item : json["types"]) {
        if (!item.is_object()) continue;
        TaskTypeSummary summary;
        summary.type = item.value("type", std::string());
        summary.tasks = item.value("tasks", 0);
        summary.restarts = item.value("restarts", 0);
        if (item.contains("phases") && item["phases"].is_object()) {
          for (const auto& [phase, count] : item["phases"].items()) {
            if (count.is_number_integer()) summary.phases[phase] = count.get<int>();
          }
        }
        status.types.push_back(std::move(summary));
      }
    }
    status.tasks_offset = json.value("tasks_offset", std::size_t{0});
    status.tensorboard_address = json.value("tensorboard_address", std::string());
    status.tensorboard_certificate_sha256 = json.value("tensorboard_certificate_sha256", std::string());
    status.tokens_end_ms = json.value("tokens_end_ms", std::int64_t{0});
    status.tokens_end_kind = json.value("tokens_end_kind", std::string());
    if (json.contains("tasks") && json["tasks"].is_array()) {
      for (const auto& item : json["tasks"]) {
        TaskStatus task;
        task.task = item.value("task", std::string());
        task.phase = item.value("phase", std::string());
        task.container = item.value("container", std::string());
        task.node = item.value("node", std::string());
        task.node_http_address = item.value("node_http_address", std::string());
        task.address = item.value("address", std::string());
        task.certificate_sha256 = item.value("certificate_sha256", std::string());
        if (item.contains("exit_code") && item["exit_code"].is_number_integer()) {
          task.exit_code = item["exit_code"].get<int>();
        }
        task.exit_description = item.value("exit_description", std::string());
        task.stalled = item.value("stalled", std::string());
        task.restarts = item.value("restarts", 0);
        task.lost = item.value("lost", 0);
        task.log_url = item.value("log_url", std::string());
        task.started_ms = item.value("started_ms", std::int64_t{0});
        task.finished_ms = item.value("finished_ms", std::int64_t{0});
        task.rss_bytes = item.value("rss_bytes", std::uint64_t{0});
        task.cpu_seconds = item.value("cpu_seconds", 0.0);
        task.cluster_version = item.value("cluster_version", std::uint64_t{0});
        task.earlier_attempts = parse_earlier(item);
        status.tasks.push_back(std::move(task));
      }
    }
    // A master of an earlier release lists every task and says nothing more.
    status.tasks_selected = json.value("tasks_selected", status.tasks.size());
    return status;
  } catch (const nlohmann::json::exception& e) {
    return make_error(std::string("the job status has a field of the wrong type: ") + e.what());
  }
}

}  // namespace spindle
