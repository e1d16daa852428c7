#pragma once

#include <filesystem>

#include "spindle/core/result.h"

namespace spindle {

// What a python_env path names (see the spec key).
enum class PythonEnvKind { venv, conda, archive, pex };

// The kind of environment at `path`, or one sentence that starts with the
// path and says what is wrong: it does not exist, it is a directory that is
// no Python environment, a venv whose interpreter is gone, or a file that is
// no archive of a kind Spindle ships.
Result<PythonEnvKind> python_env_kind(const std::filesystem::path& path);

}  // namespace spindle
