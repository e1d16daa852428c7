#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

struct CachedEnvironment {
  std::string name;  // "<environment>-<fingerprint>.tar.gz"
  std::int64_t bytes = 0;
  std::int64_t modification_time = 0;  // ms since the epoch
};

// Packed Python environments kept on the cluster's default file system, in
// .spindle/envs/ under the user's home (/user/<user> on HDFS, $HOME for a
// file: file system). Names carry the content's fingerprint, so a name that
// is there holds what a job needs and is never uploaded again.
class EnvironmentCache {
 public:
  static Result<std::unique_ptr<EnvironmentCache>> open(const yarn::HadoopConfiguration& configuration);
  virtual ~EnvironmentCache() = default;

  // The cached archive as a YARN resource (kept by nodes for the user), if it is there.
  virtual Result<std::optional<yarn::LocalFile>> find(const std::string& name) = 0;
  // Uploads under a temporary name, then renames, so a name never holds part of an archive.
  virtual Result<yarn::LocalFile> upload(const std::filesystem::path& archive, const std::string& name,
                                         std::function<void(std::int64_t done, std::int64_t total)> progress) = 0;
  virtual Result<std::vector<CachedEnvironment>> list() = 0;
  // False when there was no such name.
  virtual Result<bool> remove(const std::string& name) = 0;
  virtual std::string location() const = 0;
};

}  // namespace spindle::client
