#include "cli/job_follow.h"

#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/time_format.h"
#include "spindle/client/mlflow_tracking.h"
#include "spindle/core/clock.h"
#include "spindle/core/token_expiry.h"

namespace spindle::cli {

std::optional<OpenedJob> open_job(const std::string& application_id, int& exit_code) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    exit_code = exit_bad_input;
    return std::nullopt;
  }
  auto job = client::JobConnection::open(*configuration, application_id);
  if (!job) {
    std::cerr << job.error().message << '\n';
    exit_code = exit_bad_input;
    return std::nullopt;
  }
  return OpenedJob{std::move(*configuration), std::move(*job)};
}

void print_status_table(const JobStatus& status, std::ostream& out) {
  out << std::left << std::setw(16) << "TASK" << std::setw(11) << "PHASE" << std::setw(22) << "ADDRESS" << std::setw(6)
      << "EXIT" << std::setw(9) << "RESTARTS" << std::setw(9) << "STARTED" << std::setw(9) << "ENDED"
      << "CONTAINER\n";
  for (const auto& task : status.tasks) {
    out << std::left << std::setw(16) << task.task << std::setw(11) << task.phase << std::setw(22)
        << (task.address.empty() ? "-" : task.address) << std::setw(6)
        << (task.exit_code ? std::to_string(*task.exit_code) : "-") << std::setw(9)
        << (std::to_string(task.restarts) + (task.lost ? "+" + std::to_string(task.lost) : "")) << std::setw(9)
        << clock_time(task.started_ms) << std::setw(9) << clock_time(task.finished_ms)
        << (task.container.empty() ? "-" : task.container) << '\n';
  }
  for (const auto& task : status.tasks) {
    if (!task.stalled.empty()) out << task.task << " " << task.stalled << '\n';
  }
  if (!status.waiting_for.empty()) out << "the job " << status.waiting_for << '\n';
  if (status.state == "running") {
    if (const auto notice = tokens_end_notice(status.tokens_end_ms, status.tokens_end_kind, wall_clock_ms());
        !notice.empty()) {
      out << notice << '\n';
    }
  }
}

void print_outcome(const yarn::ApplicationReport& report, std::ostream& out) {
  out << report.id.to_string() << " " << report.state;
  if (report.final_status != "UNDEFINED") out << " " << report.final_status;
  out << '\n';
  if (!report.diagnostics.empty()) out << report.diagnostics << '\n';
}

int follow_job(client::JobConnection& job, std::ostream& progress) {
  std::uint64_t seen = 0;
  std::string last_state;
  int unreachable = 0;
  auto show = [&](const auto& events) {
    for (const auto& event : events) {
      progress << "  " << (event.task.empty() ? "job" : event.task) << " " << event.kind
               << (event.message.empty() ? "" : ": " + event.message) << '\n';
      seen = event.sequence;
    }
  };
  while (true) {
    auto report = job.report();
    if (!report) {
      // A ResourceManager restart is survivable; a minute of silence is not,
      // and neither is a missing or expired Kerberos ticket.
      if (report.error().kind == Error::Kind::authentication || ++unreachable > 60) {
        std::cerr << report.error().message << '\n';
        return exit_code_for_cluster_error(report.error());
      }
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    unreachable = 0;
    if (report->state != last_state) {
      progress << report->id.to_string() << ": " << report->state << '\n';
      last_state = report->state;
    }
    if (report->finished()) break;
    const auto events = job.events_after(seen, std::chrono::seconds(1));
    show(events);
    // Each batch may change a task; the last one before the end is what is kept.
    if (!events.empty()) (void)job.live_status();
    if (events.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // The application master answers for a moment after unregistering: the events of the job's
  // end, which the ResourceManager may have announced before they were read, go to the history
  // too.
  for (int round = 0; round < 10; ++round) {
    const auto events = job.events_after(seen, std::chrono::milliseconds(0));
    if (events.empty()) break;
    show(events);
  }
  (void)job.live_status();
  job.remember_final_status();
  if (auto* history = job.history()) {
    client::finish_ended_tracking_runs(*history, [&](const std::string& line) { progress << line << '\n'; });
  }
  auto final_report = job.report();
  if (!final_report) {
    std::cerr << final_report.error().message << '\n';
    return exit_cluster_unreachable;
  }
  return final_report->final_status == "SUCCEEDED" ? exit_done : exit_job_failed;
}

}  // namespace spindle::cli
