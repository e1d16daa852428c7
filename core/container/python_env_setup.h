#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "spindle/core/result.h"

namespace spindle::container {

// Puts the job's Python environment (the spec's `python_env`), as YARN
// localized it in the container's directory (python_env/ unpacked, or
// python_env.pex) or as the node has it installed (node:/dir), first on the
// task's PATH, so that `python` in a command and TensorBoard are the
// environment's. Refuses, naming the path and the node, an environment this
// node lacks, or whose base interpreter it lacks.
Result<void> use_python_env(const std::string& python_env, const std::filesystem::path& container_directory,
                            const std::string& node, std::map<std::string, std::string>& environment);

}  // namespace spindle::container
