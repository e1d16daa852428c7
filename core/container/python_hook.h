#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "spindle/core/result.h"

namespace spindle::container {

// Gives the task's Python processes hdfs:// in TensorFlow
// (docs/outputs-on-hdfs.md): writes the plugin, its package and the
// sitecustomize hook that this program carries into `directory`, puts that
// directory first on PYTHONPATH, and names this program as the HDFS bridge
// (SPINDLE_HDFS_BRIDGE).
Result<void> install_python_hook(const std::filesystem::path& directory,
                                 std::map<std::string, std::string>& environment);

}  // namespace spindle::container
