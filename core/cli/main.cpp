#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <string_view>

#include "cli/cluster_command.h"
#include "cli/command_tree.h"
#include "cli/doctor_command.h"
#include "cli/env_command.h"
#include "cli/exit_codes.h"
#include "cli/hdfs_bridge_command.h"
#include "cli/job_commands.h"
#include "cli/local_command.h"
#include "cli/render_env_command.h"
#include "cli/serve_command.h"
#include "cli/submit_command.h"
#include "cli/sweep_command.h"
#include "cli/tensorboard_command.h"
#include "cli/validate_command.h"
#include "spindle/core/version.h"

int main(int argc, char** argv) {
  CLI::App app{"spindle: run distributed TensorFlow on Hadoop YARN", "spindle"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("spindle ") + spindle::version);
  int exit_code = spindle::cli::exit_done;
  spindle::cli::add_validate_command(app, exit_code);
  spindle::cli::add_render_env_command(app, exit_code);
  spindle::cli::add_submit_command(app, exit_code);
  spindle::cli::add_status_commands(app, exit_code);
  spindle::cli::add_logs_command(app, exit_code);
  spindle::cli::add_kill_command(app, exit_code);
  spindle::cli::add_sweep_command(app, exit_code);
  spindle::cli::add_tensorboard_command(app, exit_code);
  spindle::cli::add_list_command(app, exit_code);
  spindle::cli::add_history_command(app, exit_code);
  spindle::cli::add_metrics_command(app, exit_code);
  spindle::cli::add_cluster_command(app, exit_code);
  spindle::cli::add_doctor_command(app, exit_code);
  spindle::cli::add_local_command(app, exit_code);
  spindle::cli::add_env_command(app, exit_code);
  spindle::cli::add_serve_command(app, exit_code);
  spindle::cli::add_hdfs_bridge_command(app, exit_code);
  // SPINDLE_PARSE_ONLY=1: parse and check the arguments, then exit 0 without
  // running the command (tests/docs checks the command lines of docs/ so).
  // Every command runs in its subcommand's final callback, which CLI11 calls
  // after the whole command line was parsed and checked, and after this one.
  if (const char* parse_only = std::getenv("SPINDLE_PARSE_ONLY");
      parse_only != nullptr && std::string_view(parse_only) == "1") {
    app.parse_complete_callback([] { throw CLI::Success(); });
  }
  // SPINDLE_COMMAND_TREE=1: print the commands and options as JSON and exit
  // (tests/docs checks the man page and the completions against it).
  if (const char* tree = std::getenv("SPINDLE_COMMAND_TREE"); tree != nullptr && std::string_view(tree) == "1") {
    std::cout << spindle::cli::command_tree(app).dump(2) << '\n';
    return spindle::cli::exit_done;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    // Help and version are not errors; every other parse problem is bad input.
    return code == 0 ? spindle::cli::exit_done : spindle::cli::exit_bad_input;
  }
  return exit_code;
}
