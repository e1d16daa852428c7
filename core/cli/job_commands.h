#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle status APP [--json], spindle watch APP
void add_status_commands(CLI::App& app, int& exit_code);
// spindle logs APP [TASK] [--follow]
void add_logs_command(CLI::App& app, int& exit_code);
// spindle kill APP
void add_kill_command(CLI::App& app, int& exit_code);
// spindle list [--all] [--json]
void add_list_command(CLI::App& app, int& exit_code);
// spindle history APP [--json]
void add_history_command(CLI::App& app, int& exit_code);
// spindle metrics APP [--tag TAG] [--json] [--follow]
void add_metrics_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
