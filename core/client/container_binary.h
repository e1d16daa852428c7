#pragma once

#include <filesystem>
#include <string>

#include "spindle/core/result.h"

namespace spindle::client {

// What `path --version` prints, e.g. "spindle-container 0.1.0".
Result<std::string> container_binary_version(const std::filesystem::path& path);

// Refuses a container binary of another release than this program's: the
// master and the executors speak the job API of the release they came from.
Result<void> check_container_binary(const std::filesystem::path& path);

}  // namespace spindle::client
