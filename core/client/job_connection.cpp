#include "spindle/client/job_connection.h"

#include "spindle/yarn/cluster_identity.h"

#include <chrono>
#include <cstdlib>

namespace spindle::client {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

Result<JobConnection> JobConnection::open(const yarn::HadoopConfiguration& configuration,
                                          const std::string& application_id) {
  auto id = yarn::ApplicationId::parse(application_id);
  if (!id) return id.error();
  std::optional<JobRecord> record;
  if (auto loaded = JobRecords().load(id->to_string())) record = std::move(*loaded);
  JobConnection job(yarn::ApplicationClient(yarn::ApplicationClient::options_for(configuration)), *id,
                    std::move(record));
  if (auto user = yarn::cluster_user(configuration)) job.cluster_user_ = std::move(*user);
  if (auto history = HistoryStore::open()) {
    job.history_ = std::make_shared<HistoryStore>(std::move(*history));
  } else {
    job.history_problem_ = history.error().message;
  }
  return job;
}

Result<yarn::ApplicationReport> JobConnection::report() {
  auto report = client_.report(id_);
  if (report) {
    last_report_ = *report;
    record_report(*report);
  }
  return report;
}

void JobConnection::record_report(const yarn::ApplicationReport& report) {
  if (!history_) return;
  JobHistoryEntry seen;
  seen.application_id = application_id_;
  seen.name = report.name;
  seen.user = report.user;
  seen.queue = report.queue;
  // The history is a convenience: following the job goes on without it.
  (void)history_->record_job(seen);
  (void)history_->record_state(application_id_,
                               std::string(to_string(job_state_of_yarn(report.state, report.final_status))),
                               report.diagnostics, report.start_time, report.finish_time, report.tracking_url);
  record_master_attempts(report.finished());
}

void JobConnection::record_master_attempts(bool finished) {
  // Attempts change rarely: a look every half minute, and one at the end.
  const auto now = std::chrono::steady_clock::now();
  if (final_master_attempts_recorded_ || (!finished && now - master_attempts_recorded_ < std::chrono::seconds(30))) {
    return;
  }
  auto attempts = client_.attempts(id_);
  if (!attempts) return;
  master_attempts_recorded_ = now;
  final_master_attempts_recorded_ = finished;
  std::vector<MasterAttemptEntry> entries;
  for (const auto& attempt : *attempts) {
    MasterAttemptEntry entry;
    // appattempt_<cluster timestamp>_<application>_<attempt>
    const auto last = attempt.id.rfind('_');
    entry.attempt = last == std::string::npos ? 0 : std::atoi(attempt.id.c_str() + last + 1);
    entry.container = attempt.am_container;
    entry.host = attempt.host;
    entry.state = attempt.state;
    entry.diagnostics = attempt.diagnostics;
    entry.started_ms = attempt.start_time;
    entry.finished_ms = attempt.finish_time;
    entries.push_back(std::move(entry));
  }
  (void)history_->record_master_attempts(application_id_, entries);
}

void JobConnection::record_status(const JobStatus& status) {
  if (!history_) return;
  (void)history_->record_status(status);
  // Each look at a running job adds a point to its containers' use.
  const double now = now_seconds();
  std::vector<MetricPoint> usage;
  for (const auto& task : status.tasks) {
    if (task.phase != "running" || task.rss_bytes == 0) continue;
    usage.push_back({"container", task.task, "memory_bytes", 0, now, static_cast<double>(task.rss_bytes)});
    usage.push_back({"container", task.task, "cpu_seconds", 0, now, task.cpu_seconds});
  }
  (void)history_->record_metrics(application_id_, usage);
}

JobApiClient* JobConnection::api() {
  // The address stays in the report after the end; the application master
  // answers there for a moment after unregistering.
  if (!record_ || !last_report_ || last_report_->am_rpc_port <= 0 || last_report_->am_host.empty() ||
      last_report_->am_host == "N/A") {
    return nullptr;
  }
  const auto address = last_report_->am_host + ":" + std::to_string(last_report_->am_rpc_port);
  if (!api_ || api_address_ != address) {
    api_ = std::make_unique<JobApiClient>(last_report_->am_host, static_cast<std::uint16_t>(last_report_->am_rpc_port),
                                          record_->secret, std::chrono::seconds(5));
    if (!record_->api_certificate_sha256.empty()) api_->pin_certificate(record_->api_certificate_sha256);
    api_address_ = address;
  }
  return api_.get();
}

std::optional<JobStatus> JobConnection::live_status() {
  auto* client = api();
  if (!client) return std::nullopt;
  auto text = client->status_json();
  if (!text) return std::nullopt;
  auto status = parse_job_status(*text);
  if (!status) return std::nullopt;
  last_status_ = *status;
  record_status(*status);
  return status.value();
}

std::optional<JobStatus> JobConnection::last_status() {
  if (auto live = live_status()) return live;
  if (last_status_) return last_status_;
  // The master's own last word, kept by whoever followed the job to its end,
  // says more (free restarts, earlier attempts) than the history rebuilds.
  if (record_ && !record_->final_status_json.empty()) {
    if (auto kept = parse_job_status(record_->final_status_json)) return kept.value();
  }
  if (history_) {
    if (auto attempts = history_->attempts(application_id_); attempts && !attempts->empty()) {
      if (auto job = history_->job(application_id_); job && job->has_value()) {
        return status_from_history(**job, *attempts);
      }
    }
  }
  return std::nullopt;
}

std::vector<JobEvent> JobConnection::events_after(std::uint64_t after, std::chrono::milliseconds wait) {
  auto* client = api();
  if (!client) return {};
  auto events = client->events_after(after, wait);
  if (!events) return {};
  if (history_) (void)history_->record_events(application_id_, *events);
  return std::move(*events);
}

void JobConnection::remember_final_status() {
  if (!record_ || !last_status_) return;
  record_->final_status_json = to_json(*last_status_).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  (void)JobRecords().save(*record_);
}

}  // namespace spindle::client
