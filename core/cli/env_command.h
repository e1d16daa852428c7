#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle env pack|list|rm: Python environments packed for jobs, and the
// ones the cluster keeps.
void add_env_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
