#pragma once

#include <filesystem>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// The container binary this program stages: $SPINDLE_CONTAINER_BINARY, else
// the spindle-container beside this program.
std::filesystem::path default_container_binary();

// What `path --version` prints, e.g. "spindle-container 0.1.0".
Result<std::string> container_binary_version(const std::filesystem::path& path);

// Refuses a container binary of another release than this program's: the
// master and the executors speak the job API of the release they came from.
Result<void> check_container_binary(const std::filesystem::path& path);

// The binary as the cluster's cache holds it, under a name of its release and
// content ("spindle-container-0.1.0-<fingerprint>"), uploaded by the first
// submit that needs it; every later job and node reuses it.
struct CachedContainerBinary {
  yarn::LocalFile resource;
  bool uploaded_now = false;
};
Result<CachedContainerBinary> cached_container_binary(const yarn::HadoopConfiguration& configuration,
                                                      const std::filesystem::path& path);

}  // namespace spindle::client
