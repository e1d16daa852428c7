#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// spindle render-env SPEC --hosts "chief:0=h1:2222,..." --task worker:0 [--json]
void add_render_env_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
