#include "cli/local_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/exit_codes.h"

namespace spindle::cli {
namespace {

// The launcher and the sources of the local YARN are installed beside the
// program, in share/spindle/local-yarn (a build tree links its sources
// there); SPINDLE_LOCAL_YARN_SCRIPT names another launcher.
std::string launcher() {
  if (const char* script = std::getenv("SPINDLE_LOCAL_YARN_SCRIPT"); script && *script) return script;
  std::error_code error;
  const auto program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "share/spindle/local-yarn/scripts/local-yarn";
  return (program.parent_path().parent_path() / "share/spindle/local-yarn/scripts/local-yarn").string();
}

int run_launcher(const std::string& verb) {
  const std::string script = launcher();
  if (::access(script.c_str(), X_OK) != 0) {
    std::cerr << "the local YARN's launcher " << script
              << " is missing; reinstall spindle, or set SPINDLE_LOCAL_YARN_SCRIPT to scripts/local-yarn of a "
                 "source checkout\n";
    return exit_bad_input;
  }
  const pid_t child = ::fork();
  if (child == 0) {
    ::execl(script.c_str(), script.c_str(), verb.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (verb == "up" && code == 0) {
    std::cerr << "To use it: eval \"$(" << script << " env)\"\n";
  }
  return code == 0 ? exit_done : exit_cluster_unreachable;
}

}  // namespace

void add_local_command(CLI::App& app, int& exit_code) {
  CLI::App* local = app.add_subcommand("local", "A single-machine YARN and HDFS to try Spindle on");
  local->require_subcommand(1);
  for (const auto& [verb, help] : {std::pair{"up", "Start it (a no-op when it runs) and wait until it takes jobs"},
                                   std::pair{"down", "Stop it and every container it started"},
                                   std::pair{"status", "Say whether it runs (exit 0) or not (exit 3)"},
                                   std::pair{"env", "Print export HADOOP_CONF_DIR=... for it"}}) {
    local->add_subcommand(verb, help)->callback([&exit_code, verb = std::string(verb)] {
      exit_code = run_launcher(verb);
    });
  }
}

}  // namespace spindle::cli
