#include "spindle/client/job_actions.h"

#include <chrono>
#include <thread>

#include "spindle/client/submit.h"

namespace spindle::client {

Result<std::set<std::string>> refresh_history_from_cluster(HistoryStore& history, yarn::ApplicationClient& client,
                                                           bool include_finished) {
  const std::vector<std::string> active = {"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING"};
  auto applications = client.applications("SPINDLE", include_finished ? std::vector<std::string>{} : active);
  if (!applications) return applications.error();
  std::set<std::string> listed;
  for (const auto& app : *applications) {
    listed.insert(app.id.to_string());
    JobHistoryEntry seen;
    seen.application_id = app.id.to_string();
    seen.name = app.name;
    seen.user = app.user;
    seen.queue = app.queue;
    if (auto recorded = history.record_job(seen); !recorded) return recorded.error();
    if (auto recorded = history.record_state(seen.application_id,
                                             std::string(to_string(job_state_of_yarn(app.state, app.final_status))),
                                             app.diagnostics, app.start_time, app.finish_time, app.tracking_url);
        !recorded) {
      return recorded.error();
    }
  }
  // A job the history thinks runs but the cluster no longer lists has ended,
  // or the cluster forgot it: ask for its final state.
  std::set<std::string> forgotten;
  auto running = history.jobs(JobFilter{false, "", 1000});
  if (!running) return running.error();
  for (const auto& job : *running) {
    if (listed.contains(job.application_id)) continue;
    auto id = yarn::ApplicationId::parse(job.application_id);
    if (!id) continue;
    auto report = client.report(*id);
    if (!report) {
      if (report.error().kind == Error::Kind::not_found) forgotten.insert(job.application_id);
      continue;
    }
    (void)history.record_state(job.application_id,
                               std::string(to_string(job_state_of_yarn(report->state, report->final_status))),
                               report->diagnostics, report->start_time, report->finish_time, report->tracking_url);
  }
  return forgotten;
}

Result<KilledJob> kill_job(JobConnection& job, const yarn::HadoopConfiguration& configuration,
                           const std::string& reason) {
  auto id = yarn::ApplicationId::parse(job.application_id());
  if (!id) return id.error();
  // The tasks as they were, kept with the record below (the report says where the job API is).
  if (job.report()) (void)job.live_status();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool accepted = false;
  while (!accepted && std::chrono::steady_clock::now() < deadline) {
    auto killed = job.client().kill(*id, reason);
    if (!killed) return killed.error();
    accepted = *killed;
    if (!accepted) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  job.remember_final_status();
  auto report = job.report();
  if (!report) return report.error();
  KilledJob outcome{accepted, report->state, report->finished(), {}};
  if (!outcome.finished) return outcome;
  // The application master removes the staging directory as it stops, often after YARN already
  // reports the job killed; a job killed before its master ran has nobody else to remove it.
  const auto& record = job.record();
  if (record && !record->staging.empty()) {
    auto removed = remove_staging_left_behind(configuration, job.application_id(), record->staging);
    if (!removed) {
      return Error{"the job ended, but its staging directory " + record->staging +
                   " could not be removed: " + removed.error().message};
    }
    if (*removed) outcome.removed_staging = record->staging;
  }
  return outcome;
}

}  // namespace spindle::client
