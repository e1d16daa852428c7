#pragma once

#include <filesystem>
#include <memory>
#include <string>

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
  virtual Result<yarn::LocalFile> put_text(const std::string& text, const std::string& name) = 0;
  // A file already on the cluster's file system (hdfs:///..., file:///...).
  virtual Result<yarn::LocalFile> describe(const std::string& uri, const std::string& name, bool archive) = 0;
  virtual Result<void> remove() = 0;
  // For people: where the files are.
  virtual std::string location() const = 0;
  // For the application master, which removes the directory at the end:
  // file:///dir, or the directory's WebHDFS URL.
  virtual std::string removal_location() const = 0;
};

}  // namespace spindle::client
