#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle cluster info|nodes|queues|labels [--json]
void add_cluster_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
