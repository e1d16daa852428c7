#include "read_ahead.h"

#include <thread>

namespace spindle::hdfs_bridge {

std::optional<std::string> ReadAhead::take(const std::string& path, std::int64_t offset, std::int64_t length) {
  std::shared_future<Result<std::string>> bytes;
  {
    std::lock_guard lock(mutex_);
    const auto found = windows_.find({path, offset});
    if (found == windows_.end()) return std::nullopt;
    const bool fits = found->second.length >= length;
    bytes = found->second.bytes;
    windows_.erase(found);
    if (!fits) return std::nullopt;
  }
  // Every fetch ends within the WebHDFS client's own bounds (its connect and idle timeouts).
  const auto& fetched = bytes.get();
  if (!fetched) return std::nullopt;
  if (static_cast<std::int64_t>(fetched->size()) <= length) return *fetched;
  return fetched->substr(0, static_cast<std::size_t>(length));
}

void ReadAhead::start(const std::string& path, std::int64_t offset, std::int64_t length, Fetch fetch) {
  std::lock_guard lock(mutex_);
  drop_stale_locked();
  if (windows_.contains({path, offset}) || windows_.size() >= max_windows) return;
  std::packaged_task<Result<std::string>()> task(std::move(fetch));
  windows_.emplace(std::make_pair(path, offset),
                   Window{length, std::chrono::steady_clock::now(), task.get_future().share()});
  // Detached: a window nobody takes is dropped, and its fetch ends on its own.
  std::thread(std::move(task)).detach();
}

void ReadAhead::forget(const std::string& path) {
  std::lock_guard lock(mutex_);
  std::erase_if(windows_, [&](const auto& window) { return window.first.first == path; });
}

void ReadAhead::drop_stale_locked() {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(windows_, [&](const auto& window) { return now - window.second.started > keep_for; });
}

}  // namespace spindle::hdfs_bridge
