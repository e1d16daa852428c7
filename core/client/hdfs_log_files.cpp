#include "spindle/client/hdfs_log_files.h"

#include <algorithm>
#include <cstring>
#include <deque>

namespace spindle::client {

Result<JobLogDirectory> JobLogDirectory::open(const std::string& directory) {
  if (!directory.starts_with("hdfs://")) return open(directory, yarn::HadoopConfiguration{});
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return configuration.error();
  return open(directory, *configuration);
}

Result<JobLogDirectory> JobLogDirectory::open(const std::string& directory,
                                              const yarn::HadoopConfiguration& configuration) {
  std::unique_ptr<LogFileSystem> files;
  if (directory.starts_with("hdfs://")) {
    auto hdfs = yarn::WebHdfs::from_configuration(configuration);
    if (!hdfs) return hdfs.error();
    files = std::make_unique<HdfsLogFileSystem>(std::move(*hdfs));
  } else {
    files = std::make_unique<LocalLogFileSystem>();
  }
  const std::string local = directory.starts_with("file://") ? directory.substr(7) : directory;
  return JobLogDirectory(std::move(files), local);
}

JobLogDirectory::JobLogDirectory(std::unique_ptr<LogFileSystem> files, const std::string& directory)
    : files_(std::move(files)), reader_(std::make_unique<LogDirectoryReader>(*files_, directory)) {}
JobLogDirectory::JobLogDirectory(JobLogDirectory&&) noexcept = default;
JobLogDirectory& JobLogDirectory::operator=(JobLogDirectory&&) noexcept = default;
JobLogDirectory::~JobLogDirectory() = default;

std::vector<MetricPoint> training_points(const LogDirectoryUpdate& update) {
  std::vector<MetricPoint> points;
  for (const auto& run : update.runs) {
    for (const auto& point : run.points) {
      points.push_back({"tfevents", run.run, point.tag, point.step, point.wall_time, point.value});
    }
  }
  return points;
}

std::string hdfs_path(const std::string& path_or_uri) {
  if (!path_or_uri.starts_with("hdfs://")) return path_or_uri;
  const auto slash = path_or_uri.find('/', 7);
  return slash == std::string::npos ? std::string("/") : path_or_uri.substr(slash);
}

Result<std::vector<LogFileEntry>> HdfsLogFileSystem::list_files(const std::string& directory) {
  const std::string root = hdfs_path(directory);
  std::vector<LogFileEntry> files;
  // Directories below the root still to list, as paths below it ending in '/'.
  std::deque<std::string> pending{""};
  while (!pending.empty()) {
    const std::string below = std::move(pending.front());
    pending.pop_front();
    auto entries = hdfs_.list(below.empty() ? root : root + "/" + below);
    if (!entries) {
      // Training has not made the log directory yet; one that vanished
      // while being walked has nothing left to read either.
      auto exists = hdfs_.exists(below.empty() ? root : root + "/" + below);
      if (exists.ok() && !*exists) continue;
      return entries.take_error();
    }
    for (const auto& entry : *entries) {
      if (entry.directory) {
        pending.push_back(below + entry.name + "/");
      } else {
        files.push_back(
            LogFileEntry{below + entry.name, static_cast<std::uint64_t>(std::max<std::int64_t>(entry.length, 0))});
      }
    }
  }
  return files;
}

Result<std::size_t> HdfsLogFileSystem::read(const std::string& path, std::uint64_t offset, std::span<char> into) {
  const std::string in_hdfs = hdfs_path(path);
  auto bytes = hdfs_.read_range(in_hdfs, static_cast<std::int64_t>(offset), static_cast<std::int64_t>(into.size()));
  if (!bytes) {
    // WebHDFS refuses to open a file at its end instead of reading nothing.
    auto status = hdfs_.status(in_hdfs);
    if (status.ok() && !status->directory && static_cast<std::uint64_t>(status->length) <= offset)
      return std::size_t{0};
    return bytes.take_error();
  }
  const std::size_t size = std::min(bytes->size(), into.size());
  std::memcpy(into.data(), bytes->data(), size);
  return size;
}

}  // namespace spindle::client
