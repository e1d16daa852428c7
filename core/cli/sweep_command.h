#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle sweep submit|status|list|kill|best (docs/sweeps.md)
void add_sweep_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
