#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace spindle::cli {

// The commands people use, with their options and arguments, as the parser
// knows them: {"commands": [{"name", "description", "options": [{"names",
// "takes_value", "positional", "description"}], "commands": [...]}]}.
// Commands without a group (for programs, not people) are left out. The
// man page and the shell completions are checked against this, so none of
// them can fall out of step with the parser.
nlohmann::ordered_json command_tree(const CLI::App& app);

}  // namespace spindle::cli
