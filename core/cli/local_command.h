#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle local up|down|status: the single-machine YARN of tests/yarn-cluster.
void add_local_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
