#pragma once

#include <string>

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

// The path part of an hdfs:// URI; anything else as it is.
std::string hdfs_path(const std::string& path_or_uri);

}  // namespace spindle::client
