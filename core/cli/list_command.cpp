#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "spindle/yarn/application_client.h"

namespace spindle::cli {
namespace {

struct ListOptions {
  bool all = false;
  bool json = false;
};

int run_list(const ListOptions& options) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
  const std::vector<std::string> active = {"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING"};
  auto applications = client.applications("SPINDLE", options.all ? std::vector<std::string>{} : active);
  if (!applications) {
    std::cerr << applications.error().message << '\n';
    return exit_cluster_unreachable;
  }
  if (options.json) {
    auto list = nlohmann::json::array();
    for (const auto& app : *applications) {
      list.push_back({{"application_id", app.id.to_string()},
                      {"name", app.name},
                      {"user", app.user},
                      {"queue", app.queue},
                      {"state", app.state},
                      {"final_status", app.final_status},
                      {"start_time_ms", app.start_time},
                      {"finish_time_ms", app.finish_time}});
    }
    std::cout << list.dump(2) << '\n';
    return exit_done;
  }
  std::cout << std::left << std::setw(32) << "APPLICATION" << std::setw(24) << "NAME" << std::setw(10) << "USER"
            << std::setw(16) << "QUEUE" << std::setw(10) << "STATE"
            << "FINAL\n";
  for (const auto& app : *applications) {
    std::cout << std::left << std::setw(32) << app.id.to_string() << std::setw(24) << app.name << std::setw(10)
              << app.user << std::setw(16) << app.queue << std::setw(10) << app.state << app.final_status << '\n';
  }
  return exit_done;
}

}  // namespace

void add_list_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand("list", "Spindle jobs on the cluster (running ones, or --all)");
  command->add_flag("--all", options->all, "Finished jobs too");
  command->add_flag("--json", options->json, "Print as JSON");
  command->callback([options, &exit_code] { exit_code = run_list(*options); });
}

}  // namespace spindle::cli
