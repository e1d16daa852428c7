#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle serve [--bind ADDR] [--port N]
void add_serve_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
