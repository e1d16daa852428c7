#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/time_format.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/json_shapes.h"
#include "spindle/client/mlflow_tracking.h"

namespace spindle::cli {
namespace {

struct HistoryOptions {
  std::string application;
  bool json = false;
};

// A job still running is asked for its latest state and events first, when
// the cluster can be reached; the history alone answers otherwise.
void refresh(const std::string& application_id, client::HistoryStore& history) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return;
  auto job = client::JobConnection::open(*configuration, application_id);
  if (!job || !job->report()) return;
  (void)job->live_status();
  auto seen = history.last_event_sequence(application_id);
  for (std::uint64_t after = seen ? *seen : 0;;) {
    auto events = job->events_after(after, std::chrono::milliseconds(0));
    if (events.empty()) break;
    after = events.back().sequence;
  }
}

nlohmann::json attempt_json(const client::TaskAttemptEntry& attempt) {
  return {{"task", attempt.task},
          {"attempt", attempt.attempt},
          {"phase", attempt.phase},
          {"container", attempt.container},
          {"node", attempt.node},
          {"address", attempt.address},
          {"exit_code", attempt.exit_code ? nlohmann::json(*attempt.exit_code) : nlohmann::json(nullptr)},
          {"exit_description", attempt.exit_description},
          {"log_url", attempt.log_url},
          {"started_ms", attempt.started_ms},
          {"finished_ms", attempt.finished_ms}};
}

void print_json(const client::JobHistoryEntry& job, const std::optional<client::TrackingRunEntry>& run,
                const std::vector<client::MasterAttemptEntry>& masters,
                const std::vector<client::TaskAttemptEntry>& attempts, const std::vector<JobEvent>& events) {
  nlohmann::json out = client::history_entry_json(job);
  out["spec"] = job.spec_yaml;
  if (run) {
    out["mlflow"] = {{"tracking_uri", run->tracking_uri},
                     {"experiment_id", run->experiment_id},
                     {"run_id", run->run_id},
                     {"url", run->url()},
                     {"open", run->closed_ms == 0}};
  } else {
    out["mlflow"] = nullptr;
  }
  out["master_attempts"] = nlohmann::json::array();
  for (const auto& master : masters) {
    out["master_attempts"].push_back({{"attempt", master.attempt},
                                      {"container", master.container},
                                      {"host", master.host},
                                      {"state", master.state},
                                      {"diagnostics", master.diagnostics},
                                      {"started_ms", master.started_ms},
                                      {"finished_ms", master.finished_ms}});
  }
  out["attempts"] = nlohmann::json::array();
  for (const auto& attempt : attempts) out["attempts"].push_back(attempt_json(attempt));
  out["events"] = nlohmann::json::array();
  for (const auto& event : events) {
    out["events"].push_back({{"sequence", event.sequence},
                             {"time_ms", event.time_ms},
                             {"kind", event.kind},
                             {"task", event.task},
                             {"message", event.message}});
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void print_text(const client::JobHistoryEntry& job, const std::optional<client::TrackingRunEntry>& run,
                const std::vector<client::MasterAttemptEntry>& masters,
                const std::vector<client::TaskAttemptEntry>& attempts, const std::vector<JobEvent>& events) {
  std::cout << job.application_id << "  " << job.name << "  (" << job.user << ", queue " << job.queue << ")\n"
            << "state      " << job.state << '\n'
            << "submitted  " << local_time(job.submitted_ms) << '\n'
            << "started    " << local_time(job.started_ms) << '\n'
            << "finished   " << local_time(job.finished_ms) << '\n';
  if (run) std::cout << "mlflow     " << run->url() << (run->closed_ms == 0 ? "  (run still open)" : "") << '\n';
  if (!job.diagnostics.empty()) std::cout << "diagnostics\n  " << job.diagnostics << '\n';
  // One line per application master attempt, once there was more than one.
  if (masters.size() > 1) {
    std::cout << "application master attempts\n";
    for (const auto& master : masters) {
      std::cout << "  " << master.attempt << "  " << std::left << std::setw(10) << master.state << std::setw(42)
                << master.container << master.host;
      const auto first_line = master.diagnostics.substr(0, master.diagnostics.find('\n'));
      if (!first_line.empty()) std::cout << "  " << first_line.substr(0, 200);
      std::cout << '\n';
    }
  }
  std::cout << '\n'
            << std::left << std::setw(16) << "TASK" << std::setw(9) << "ATTEMPT" << std::setw(11) << "PHASE"
            << std::setw(7) << "EXIT" << std::setw(42) << "CONTAINER"
            << "ADDRESS\n";
  for (const auto& attempt : attempts) {
    std::cout << std::left << std::setw(16) << attempt.task << std::setw(9) << attempt.attempt << std::setw(11)
              << attempt.phase << std::setw(7) << (attempt.exit_code ? std::to_string(*attempt.exit_code) : "-")
              << std::setw(42) << attempt.container << attempt.address << '\n';
  }
  if (!events.empty()) std::cout << "\nevents\n";
  for (const auto& event : events) {
    std::cout << "  " << clock_time(event.time_ms) << "  " << std::setw(12) << event.kind << ' '
              << (event.task.empty() ? "" : event.task + ": ") << event.message << '\n';
  }
}

int run_history(const HistoryOptions& options) {
  auto history = client::HistoryStore::open();
  if (!history) {
    std::cerr << history.error().message << '\n';
    return exit_bad_input;
  }
  auto known = history->job(options.application);
  if (!known) {
    std::cerr << known.error().message << '\n';
    return exit_bad_input;
  }
  if (!known->has_value() || !(*known)->is_final()) {
    refresh(options.application, *history);
    known = history->job(options.application);
    client::finish_ended_tracking_runs(*history, [](const std::string& line) { std::cerr << line << '\n'; });
  }
  if (!known || !known->has_value()) {
    std::cerr << options.application << " is not in the job history " << history->path().string()
              << " and the cluster does not know it either; `spindle list --all` shows the jobs there are\n";
    return exit_bad_input;
  }
  auto attempts = history->attempts(options.application);
  auto events = history->events(options.application);
  auto masters = history->master_attempts(options.application);
  auto run = history->tracking_run(options.application);
  if (!attempts || !events || !masters || !run) {
    std::cerr << (!attempts ? attempts.error().message
                  : !events ? events.error().message
                  : !run    ? run.error().message
                            : masters.error().message)
              << '\n';
    return exit_bad_input;
  }
  if (options.json) {
    print_json(**known, *run, *masters, *attempts, *events);
  } else {
    print_text(**known, *run, *masters, *attempts, *events);
  }
  return exit_done;
}

}  // namespace

void add_history_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<HistoryOptions>();
  CLI::App* command = app.add_subcommand("history", "Everything recorded about one job: state, attempts, events");
  command->add_option("application", options->application, "The application id")->required();
  command->add_flag("--json", options->json, "Print as JSON");
  command->callback([options, &exit_code] { exit_code = run_history(*options); });
}

}  // namespace spindle::cli
