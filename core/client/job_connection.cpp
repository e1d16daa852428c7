#include "spindle/client/job_connection.h"

namespace spindle::client {

Result<JobConnection> JobConnection::open(const yarn::HadoopConfiguration& configuration,
                                          const std::string& application_id) {
  auto id = yarn::ApplicationId::parse(application_id);
  if (!id) return id.error();
  std::optional<JobRecord> record;
  if (auto loaded = JobRecords().load(id->to_string())) record = std::move(*loaded);
  return JobConnection(yarn::ApplicationClient(yarn::ApplicationClient::options_for(configuration)), *id,
                       std::move(record));
}

Result<yarn::ApplicationReport> JobConnection::report() {
  auto report = client_.report(id_);
  if (report) last_report_ = *report;
  return report;
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
  return status.value();
}

std::optional<JobStatus> JobConnection::last_status() {
  if (auto live = live_status()) return live;
  if (last_status_) return last_status_;
  if (record_ && !record_->final_status_json.empty()) {
    if (auto kept = parse_job_status(record_->final_status_json)) return kept.value();
  }
  return std::nullopt;
}

std::vector<JobEvent> JobConnection::events_after(std::uint64_t after, std::chrono::milliseconds wait) {
  auto* client = api();
  if (!client) return {};
  auto events = client->events_after(after, wait);
  if (!events) return {};
  return std::move(*events);
}

void JobConnection::remember_final_status() {
  if (!record_ || !last_status_) return;
  record_->final_status_json = to_json(*last_status_);
  (void)JobRecords().save(*record_);
}

}  // namespace spindle::client
