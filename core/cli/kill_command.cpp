#include <iostream>
#include <memory>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/job_follow.h"
#include "spindle/client/job_actions.h"
#include "spindle/client/job_connection.h"

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
  auto killed = client::kill_job(opened->job, opened->configuration, "killed by its owner with spindle kill");
  if (!killed) {
    std::cerr << killed.error().message << '\n';
    return exit_code_for_cluster_error(killed.error());
  }
  std::cout << application << " " << killed->state << '\n';
  if (!killed->finished) return exit_cluster_unreachable;
  if (!killed->removed_staging.empty())
    std::cout << "removed its staging directory " << killed->removed_staging << '\n';
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
