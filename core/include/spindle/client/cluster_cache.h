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

struct CachedFile {
  std::string name;  // "<environment>-<fingerprint>.tar.gz", "spindle-container-<version>-<fingerprint>"
  std::int64_t bytes = 0;
  std::int64_t modification_time = 0;  // ms since the epoch
};

// What a cache holds, each in a directory of its own under .spindle/.
enum class CacheArea {
  python_environments,  // envs/: packed environments, localized as python_env
  container_binaries,   // bin/: spindle-container, one per release and build
};

// Files that jobs share, kept on the cluster's default file system under the
// user's home (/user/<user>/.spindle on HDFS, $HOME/.spindle for a file:
// file system). Names carry the content's fingerprint, so a name that is
// there holds what a job needs and is never uploaded again; nodes keep them
// for the user (private visibility), so they localize each one once.
class ClusterCache {
 public:
  static Result<std::unique_ptr<ClusterCache>> open(const yarn::HadoopConfiguration& configuration, CacheArea area);
  virtual ~ClusterCache() = default;

  // The cached file as a YARN resource, if it is there.
  virtual Result<std::optional<yarn::LocalFile>> find(const std::string& name) = 0;
  // Uploads under a temporary name, then renames, so a name never holds part of a file.
  virtual Result<yarn::LocalFile> upload(const std::filesystem::path& file, const std::string& name,
                                         std::function<void(std::int64_t done, std::int64_t total)> progress) = 0;
  virtual Result<std::vector<CachedFile>> list() = 0;
  // False when there was no such name.
  virtual Result<bool> remove(const std::string& name) = 0;
  virtual std::string location() const = 0;
};

}  // namespace spindle::client
