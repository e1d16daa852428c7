#include "cli/doctor_command.h"

#include <iostream>

#include "cli/exit_codes.h"
#include "spindle/client/cluster_checks.h"

namespace spindle::cli {
namespace {

int run_doctor() {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cout << "FAIL  configuration: " << configuration.error().message << std::endl;
    return exit_bad_input;
  }
  int exit_code = exit_done;
  client::check_cluster(*configuration, [&exit_code](const client::ClusterCheck& check) {
    std::cout << (check.passed ? "OK    " : "FAIL  ") << check.step << ": " << check.detail << std::endl;
    if (!check.passed && exit_code == exit_done)
      exit_code = check.bad_input ? exit_bad_input : exit_cluster_unreachable;
  });
  return exit_code;
}

}  // namespace

void add_doctor_command(CLI::App& app, int& exit_code) {
  CLI::App* doctor = app.add_subcommand("doctor", "Check the Hadoop set-up end to end and say what to fix");
  doctor->callback([&exit_code] { exit_code = run_doctor(); });
}

}  // namespace spindle::cli
