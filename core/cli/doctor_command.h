#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle doctor: checks the Hadoop set-up end to end, one line per step.
void add_doctor_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
