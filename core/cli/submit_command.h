#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle submit SPEC [--wait] [--json], or the ytf-submit form with -r.
void add_submit_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
