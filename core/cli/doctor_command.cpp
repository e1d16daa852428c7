#include "cli/doctor_command.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli/exit_codes.h"
#include "spindle/client/cluster_checks.h"
#include "spindle/yarn/application_master_client.h"

namespace spindle::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view probe_greeting = "spindle probe ran on ";

int run_doctor() {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cout << "FAIL  configuration: " << configuration.error().message << std::endl;
    return exit_bad_input;
  }
  client::ProbeProgram probe;
  probe.binary = fs::read_symlink("/proc/self/exe");
  probe.command = "./" + probe.binary.filename().string() + " probe-master 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr";
  probe.greeting = std::string(probe_greeting);
  int exit_code = exit_done;
  client::check_cluster(*configuration, probe, [&exit_code](const client::ClusterCheck& check) {
    std::cout << (check.passed ? "OK    " : "FAIL  ") << check.step << ": " << check.detail << std::endl;
    if (!check.passed && exit_code == exit_done)
      exit_code = check.bad_input ? exit_bad_input : exit_cluster_unreachable;
  });
  return exit_code;
}

// Runs in the doctor's container.
int run_probe_master() {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return 1;
  }
  auto master = yarn::ApplicationMasterClient::from_container(*configuration);
  if (!master) {
    std::cerr << master.error().message << '\n';
    return 1;
  }
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  if (auto registered = (*master)->register_master(host, 0, ""); !registered) {
    std::cerr << registered.error().message << '\n';
    return 1;
  }
  const std::string message = std::string(probe_greeting) + host + " as " + yarn::hadoop_user_name();
  std::cout << message << std::endl;
  if (auto finished = (*master)->finish(yarn::FinalStatus::succeeded, message, ""); !finished) {
    std::cerr << finished.error().message << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

void add_doctor_command(CLI::App& app, int& exit_code) {
  CLI::App* doctor = app.add_subcommand("doctor", "Check the Hadoop set-up end to end and say what to fix");
  doctor->callback([&exit_code] { exit_code = run_doctor(); });
  CLI::App* probe = app.add_subcommand("probe-master", "The application master spindle doctor starts");
  probe->group("");  // not for people
  probe->callback([&exit_code] { exit_code = run_probe_master(); });
}

}  // namespace spindle::cli
