#pragma once

// The next window of a file read straight through (a TFRecord stream),
// fetched from HDFS while the reader still works on the window before, so
// that the DataNode's transfer and TensorFlow's parsing overlap instead of
// taking turns. Kept briefly and for a few windows only; whatever this
// bridge writes, renames or removes drops what is kept of those paths.

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "spindle/core/result.h"

namespace spindle::hdfs_bridge {

class ReadAhead {
 public:
  using Fetch = std::function<Result<std::string>()>;

  // The bytes fetched ahead for [offset, offset + length) of `path`, waiting
  // for the fetch if it still runs; nullopt when none was started for that
  // place, or it failed (the caller then reads as usual and gets the
  // failure's own sentence).
  std::optional<std::string> take(const std::string& path, std::int64_t offset, std::int64_t length);
  // Starts `fetch` of the window at `offset` of `path` on a thread of its
  // own, unless one runs for it already.
  void start(const std::string& path, std::int64_t offset, std::int64_t length, Fetch fetch);
  // Drops every window kept of `path`.
  void forget(const std::string& path);

 private:
  struct Window {
    std::int64_t length = 0;
    std::chrono::steady_clock::time_point started;
    std::shared_future<Result<std::string>> bytes;
  };
  void drop_stale_locked();

  static constexpr std::size_t max_windows = 4;
  static constexpr auto keep_for = std::chrono::seconds(20);
  std::mutex mutex_;
  std::map<std::pair<std::string, std::int64_t>, Window> windows_;
};

}  // namespace spindle::hdfs_bridge
