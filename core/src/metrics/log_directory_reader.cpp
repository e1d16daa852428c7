#include <map>
#include <string_view>

#include "spindle/core/tfevents.h"

namespace spindle {
namespace {

// TensorBoard's test for an event file: "tfevents" anywhere in the name.
bool is_event_file(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name.find("tfevents") != std::string_view::npos;
}

std::string run_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string(".") : std::string(path.substr(0, slash));
}

std::string joined(const std::string& directory, const std::string& path) {
  return directory.ends_with('/') ? directory + path : directory + "/" + path;
}

}  // namespace

LogDirectoryReader::LogDirectoryReader(LogFileSystem& files, std::string directory)
    : files_(&files), directory_(std::move(directory)) {
  while (directory_.size() > 1 && directory_.ends_with('/')) directory_.pop_back();
}

Result<LogDirectoryUpdate> LogDirectoryReader::poll() {
  auto listed = files_->list_files(directory_);
  if (!listed) return listed.take_error();

  std::map<std::string, std::uint64_t> sizes;
  std::map<std::string, std::string> newest_of_run;
  for (const auto& entry : *listed) {
    if (!is_event_file(entry.path)) continue;
    sizes[entry.path] = entry.size;
    auto run = run_of(entry.path);
    auto& newest = newest_of_run[run];
    if (newest < entry.path) newest = entry.path;
    if (!event_files_.contains(entry.path)) {
      event_files_.emplace(entry.path,
                           EventFile{std::move(run), EventFileReader(*files_, joined(directory_, entry.path))});
    }
  }

  LogDirectoryUpdate update;
  std::map<std::string, std::vector<ScalarPoint>> points_of_run;
  for (auto& [path, file] : event_files_) {
    const auto listed_size = sizes.find(path);
    if (listed_size == sizes.end() || file.reader.stopped()) continue;
    // HDFS lists the length of a file being written only up to its last
    // finished block, so the newest file of a run is read even when its
    // listed size has not grown.
    if (listed_size->second <= file.reader.bytes_read() && newest_of_run[file.run] != path) continue;
    auto& points = points_of_run[file.run];
    // One poll reads to the end of the file, unless damaged records stop it:
    // then more polls go past them.
    while (true) {
      const auto before = file.reader.offset();
      auto polled = file.reader.poll();
      if (!polled) {
        update.problems.push_back(polled.take_error());
        if (file.reader.stopped() || file.reader.offset() == before) break;
        continue;
      }
      if (points.empty()) {
        points = *std::move(polled);
      } else {
        points.insert(points.end(), std::make_move_iterator(polled->begin()), std::make_move_iterator(polled->end()));
      }
      if (!file.reader.damage_next()) break;
    }
  }
  for (auto& [run, points] : points_of_run) {
    if (!points.empty()) update.runs.push_back(RunScalars{run, std::move(points)});
  }
  return update;
}

}  // namespace spindle
