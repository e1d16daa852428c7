#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/time_format.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_actions.h"
#include "spindle/client/json_shapes.h"
#include "spindle/client/mlflow_tracking.h"
#include "spindle/yarn/application_client.h"

namespace spindle::cli {
namespace {

// Cuts `text` to fit a column of `width`, leaving a space before the next.
std::string fitted(const std::string& text, std::size_t width) {
  if (text.size() < width) return text;
  return text.substr(0, width - 2) + "~";
}

struct ListOptions {
  bool all = false;
  bool json = false;
  std::string search;
};

// What the ResourceManager knows of Spindle jobs goes into the history first.
Result<std::set<std::string>> refresh_from_cluster(client::HistoryStore& history, bool all) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return configuration.error();
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
  return client::refresh_history_from_cluster(history, client, all);
}

int run_list(const ListOptions& options) {
  auto history = client::HistoryStore::open();
  if (!history) {
    std::cerr << history.error().message << '\n';
    return exit_bad_input;
  }
  int code = exit_done;
  std::set<std::string> forgotten;
  if (auto refreshed = refresh_from_cluster(*history, options.all); !refreshed) {
    std::cerr << "warning: showing the job history only, without the cluster's latest word: "
              << refreshed.error().message << '\n';
    code = exit_cluster_unreachable;
  } else {
    forgotten = std::move(*refreshed);
    client::finish_ended_tracking_runs(*history, [](const std::string& line) { std::cerr << line << '\n'; });
  }
  auto jobs = history->jobs(client::JobFilter{options.all, options.search, 1000});
  if (!jobs) {
    std::cerr << jobs.error().message << '\n';
    return exit_bad_input;
  }
  if (!forgotten.empty()) {
    std::cerr << forgotten.size()
              << " job(s) shown as unknown: the ResourceManager no longer knows them (restarted "
                 "without recovery, or it forgot old applications); their state is the last one the history saw\n";
  }
  if (options.json) {
    auto list = nlohmann::json::array();
    for (const auto& job : *jobs) {
      nlohmann::json entry = client::history_entry_json(job);
      if (forgotten.contains(job.application_id)) {
        entry["last_state"] = job.state;
        entry["state"] = "unknown";
        entry["last_seen_ms"] = job.updated_ms;
      }
      list.push_back(std::move(entry));
    }
    std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return code;
  }
  std::cout << std::left << std::setw(32) << "APPLICATION" << std::setw(24) << "NAME" << std::setw(10) << "USER"
            << std::setw(14) << "QUEUE" << std::setw(11) << "STATE"
            << "STARTED\n";
  for (const auto& job : *jobs) {
    const bool unknown = forgotten.contains(job.application_id);
    std::cout << std::left << std::setw(32) << job.application_id << std::setw(24) << fitted(job.name, 24)
              << std::setw(10) << fitted(job.user, 10) << std::setw(14) << fitted(job.queue, 14) << std::setw(11)
              << (unknown ? "unknown" : job.state) << local_time(job.started_ms ? job.started_ms : job.submitted_ms);
    if (unknown) std::cout << "  (the cluster no longer knows it; last seen " << local_time(job.updated_ms) << ")";
    std::cout << '\n';
  }
  return code;
}

}  // namespace

void add_list_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand("list", "Your Spindle jobs: running ones, or with --all past ones too");
  command->add_flag("--all", options->all, "Finished jobs too");
  command->add_option("--search", options->search, "Only jobs whose id, name, user or queue holds this text");
  command->add_flag("--json", options->json, "Print as JSON");
  command->callback([options, &exit_code] { exit_code = run_list(*options); });
}

}  // namespace spindle::cli
