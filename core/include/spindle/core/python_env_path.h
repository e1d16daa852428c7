#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle {

// What a python_env path names (see the spec key).
enum class PythonEnvKind { venv, conda, archive, pex };

// The kind of environment at `path`, or one sentence that starts with the
// path and says what is wrong: it does not exist, it is a directory that is
// no Python environment, a venv whose interpreter is gone, or a file that is
// no archive of a kind Spindle ships.
Result<PythonEnvKind> python_env_kind(const std::filesystem::path& path);

// `node:/opt/envs/torch` names an environment installed at that path on every
// node, as clusters with a shared interpreter have it: nothing is packed or
// shipped, and each task checks that its node has it.
inline constexpr std::string_view python_env_on_nodes_prefix = "node:";

// The directory of a python_env of the node: form, or nothing for any other form.
std::optional<std::string> python_env_on_nodes(std::string_view python_env);

}  // namespace spindle
