#pragma once

#include <memory>
#include <string>

#include "spindle/client/history_store.h"
#include "spindle/core/tfevents.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {

// Log directories on HDFS, read through WebHDFS. Paths may be plain
// (/user/me/runs) or URIs (hdfs://namenode:8020/user/me/runs, hdfs:///...).
class HdfsLogFileSystem final : public LogFileSystem {
 public:
  explicit HdfsLogFileSystem(yarn::WebHdfs hdfs) : hdfs_(std::move(hdfs)) {}

  Result<std::vector<LogFileEntry>> list_files(const std::string& directory) override;
  Result<std::size_t> read(const std::string& path, std::uint64_t offset, std::span<char> into) override;

 private:
  yarn::WebHdfs hdfs_;
};

// A job's log directory where it is: HDFS for hdfs:// URIs (through the
// configuration of HADOOP_CONF_DIR), this machine's file system otherwise
// (a single-machine cluster, or a shared mount).
class JobLogDirectory {
 public:
  static Result<JobLogDirectory> open(const std::string& directory);
  // The same, with HDFS as `configuration` says (not HADOOP_CONF_DIR).
  static Result<JobLogDirectory> open(const std::string& directory, const yarn::HadoopConfiguration& configuration);
  JobLogDirectory(JobLogDirectory&&) noexcept;
  JobLogDirectory& operator=(JobLogDirectory&&) noexcept;
  ~JobLogDirectory();

  // The scalars written since the last poll.
  Result<LogDirectoryUpdate> poll() { return reader_->poll(); }

 private:
  JobLogDirectory(std::unique_ptr<LogFileSystem> files, const std::string& directory);
  std::unique_ptr<LogFileSystem> files_;
  std::unique_ptr<LogDirectoryReader> reader_;
};

// The scalars of an update as the history keeps them (source "tfevents").
std::vector<MetricPoint> training_points(const LogDirectoryUpdate& update);

// The path part of an hdfs:// URI; anything else as it is.
std::string hdfs_path(const std::string& path_or_uri);

}  // namespace spindle::client
