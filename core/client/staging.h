#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// A job's staging directory on the default file system: HDFS through
// WebHDFS, or a local directory when fs.defaultFS is file:.
class StagingArea {
 public:
  static Result<std::unique_ptr<StagingArea>> open(const yarn::HadoopConfiguration& configuration,
                                                   const std::string& application_id);
  virtual ~StagingArea() = default;

  virtual Result<void> create() = 0;
  // Copies a local file in and describes it the way YARN checks it.
  virtual Result<yarn::LocalFile> put(const std::filesystem::path& local, const std::string& name, bool archive) = 0;
  // The same for a secret (the job's keytab): readable by the job's user
  // alone, in a directory nobody else may enter.
  virtual Result<yarn::LocalFile> put_private(const std::filesystem::path& local, const std::string& name) = 0;
  // A file already on the cluster's file system (hdfs:///..., file:///...).
  virtual Result<yarn::LocalFile> describe(const std::string& uri, const std::string& name, bool archive) = 0;
  // Writes a small file and reads it back, for `spindle doctor` to prove
  // the place submits stage in takes and gives back bytes unchanged.
  virtual Result<void> write_and_read_back(const std::string& name, const std::string& text) = 0;
  virtual Result<void> remove() = 0;
  // For people: where the files are.
  virtual std::string location() const = 0;
  // For the application master, which removes the directory at the end:
  // file:///dir, or the directory's WebHDFS URL.
  virtual std::string removal_location() const = 0;
};

// One entry of the spec's files or archives: a local path, or a URI of a
// file already on the cluster.
struct StagingItem {
  std::string source;
  std::string name;
  bool archive = false;

  bool remote() const { return source.find("://") != std::string::npos; }
};

struct StagedItems {
  std::vector<Result<yarn::LocalFile>> files;  // in the items' order
  std::optional<std::size_t> first_failure;    // the item whose failure stopped the rest
};

// Stages every item: local files are uploaded `at_once` at a time, since
// each upload waits for HDFS to close its file (0.4 s and more when a
// DataNode reports its block late), which one after the other would add
// up; files on the cluster are only described. After a failure no new
// upload starts; every upload has ended when this returns.
StagedItems stage_all(StagingArea& area, const std::vector<StagingItem>& items, std::size_t at_once);

}  // namespace spindle::client
