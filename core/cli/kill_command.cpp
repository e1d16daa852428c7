#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/job_follow.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/submit.h"

namespace spindle::cli {
namespace {

int run_kill(const std::string& application) {
  auto id = yarn::ApplicationId::parse(application);
  if (!id) {
    std::cerr << id.error().message << '\n';
    return exit_bad_input;
  }
  int failed = exit_done;
  auto opened = open_job(application, failed);
  if (!opened) return failed;
  auto& job = opened->job;
  // The tasks as they were, kept with the record below (the report says where the job API is).
  if (job.report()) (void)job.live_status();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    auto killed = job.client().kill(*id, "killed by its owner with spindle kill");
    if (!killed) {
      std::cerr << killed.error().message << '\n';
      return exit_code_for_cluster_error(killed.error());
    }
    if (*killed) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  job.remember_final_status();
  auto report = job.report();
  if (!report) {
    std::cerr << report.error().message << '\n';
    return exit_cluster_unreachable;
  }
  std::cout << application << " " << report->state << '\n';
  if (!report->finished()) return exit_cluster_unreachable;
  // The application master removes the staging directory as it stops, often after YARN already
  // reports the job killed; a job killed before its master ran has nobody else to remove it.
  const auto& record = job.record();
  if (record && !record->staging.empty()) {
    auto removed = client::remove_staging_left_behind(opened->configuration, application, record->staging);
    if (!removed) {
      std::cerr << "the job ended, but its staging directory " << record->staging
                << " could not be removed: " << removed.error().message << '\n';
      return exit_cluster_unreachable;
    }
    if (*removed) std::cout << "removed its staging directory " << record->staging << '\n';
  }
  return exit_done;
}

}  // namespace

void add_kill_command(CLI::App& app, int& exit_code) {
  auto application = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("kill", "Kill a job: every container of it stops");
  command->add_option("application", *application, "Application id")->required();
  command->callback([application, &exit_code] { exit_code = run_kill(*application); });
}

}  // namespace spindle::cli
