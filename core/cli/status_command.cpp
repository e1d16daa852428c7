#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/job_follow.h"
#include "cli/time_format.h"
#include "spindle/client/mlflow_tracking.h"

namespace spindle::cli {
namespace {

struct StatusOptions {
  std::string application;
  bool json = false;
};

// `status --json`: what is known of the application, and the job's own status.
void print_status_json(nlohmann::json out, const std::optional<JobStatus>& status) {
  out["job"] = status ? nlohmann::json(to_json(*status)) : nlohmann::json(nullptr);
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// A job the ResourceManager no longer knows: what the history kept of it,
// said to be the history's word, or the cluster's sentence when there is none.
int forgotten_job_status(client::JobConnection& job, const StatusOptions& options, const Error& refusal) {
  std::optional<client::JobHistoryEntry> entry;
  if (auto* history = job.history()) {
    if (auto found = history->job(job.application_id()); found) entry = *found;
  }
  if (!entry) {
    std::cerr << refusal.message << '\n';
    return exit_bad_input;
  }
  const auto status = job.last_status();
  const std::string note = "the cluster no longer knows " + job.application_id() +
                           "; this is what the history last saw, " + local_time(entry->updated_ms);
  if (options.json) {
    print_status_json({{"application_id", entry->application_id},
                       {"name", entry->name},
                       {"state", "unknown"},
                       {"last_state", entry->state},
                       {"last_seen_ms", entry->updated_ms},
                       {"diagnostics", entry->diagnostics},
                       {"tracking_url", entry->tracking_url},
                       {"start_time_ms", entry->started_ms},
                       {"finish_time_ms", entry->finished_ms}},
                      status);
  } else {
    if (status) print_status_table(*status, std::cout);
    std::cout << entry->application_id << " " << entry->state << " (as last seen)\n";
  }
  std::cerr << note << '\n';
  return exit_done;
}

int run_status(const StatusOptions& options) {
  int failed = exit_done;
  auto opened = open_job(options.application, failed);
  if (!opened) return failed;
  auto& job = opened->job;
  auto report = job.report();
  if (!report) {
    if (report.error().kind == Error::Kind::not_found) return forgotten_job_status(job, options, report.error());
    std::cerr << report.error().message << '\n';
    return exit_code_for_cluster_error(report.error());
  }
  const auto status = job.last_status();
  if (options.json) {
    print_status_json({{"application_id", report->id.to_string()},
                       {"name", report->name},
                       {"state", report->state},
                       {"final_status", report->final_status},
                       {"diagnostics", report->diagnostics},
                       {"tracking_url", report->tracking_url},
                       {"start_time_ms", report->start_time},
                       {"finish_time_ms", report->finish_time}},
                      status);
  } else {
    if (status) print_status_table(*status, std::cout);
    if (!status && !job.record()) {
      std::cout << "(no per-task status: this machine does not hold the job's secret)\n";
    }
    print_outcome(*report, std::cout);
  }
  if (auto* history = job.history(); history && report->finished()) {
    client::finish_ended_tracking_runs(*history, [](const std::string& line) { std::cerr << line << '\n'; });
  }
  return exit_done;
}

int run_watch(const StatusOptions& options) {
  int failed = exit_done;
  auto opened = open_job(options.application, failed);
  if (!opened) return failed;
  auto& job = opened->job;
  const int code = follow_job(job, std::cout);
  if (auto status = job.last_status()) print_status_table(*status, std::cout);
  if (auto report = job.report()) print_outcome(*report, std::cout);
  return code;
}

}  // namespace

void add_status_commands(CLI::App& app, int& exit_code) {
  auto status = std::make_shared<StatusOptions>();
  CLI::App* command = app.add_subcommand("status", "A job's state and every task's");
  command->add_option("application", status->application, "Application id")->required();
  command->add_flag("--json", status->json, "Print as JSON");
  command->callback([status, &exit_code] { exit_code = run_status(*status); });

  auto watch = std::make_shared<StatusOptions>();
  CLI::App* watching = app.add_subcommand("watch", "Follow a job's events until it ends");
  watching->add_option("application", watch->application, "Application id")->required();
  watching->callback([watch, &exit_code] { exit_code = run_watch(*watch); });
}

}  // namespace spindle::cli
