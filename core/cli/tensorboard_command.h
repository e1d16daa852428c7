#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle tensorboard APP [--port N] [--bind ADDR]
void add_tensorboard_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
