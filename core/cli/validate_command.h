#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle validate [--json] SPEC | -r ... -- COMMAND
void add_validate_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
