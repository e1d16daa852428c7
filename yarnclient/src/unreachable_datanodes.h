#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace spindle::yarn {

// DataNodes this client could not reach lately, by host. The NameNode takes
// ten minutes to declare a silent DataNode dead and names it meanwhile; each
// request of a long read would wait for it again. So every request leaves
// them out (excludedatanodes) for two minutes after one failed. Shared by a
// client's copies.
class UnreachableDataNodes {
 public:
  void add(const std::string& host) {
    if (host.empty()) return;
    std::lock_guard lock(mutex_);
    until_[host] = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  }

  // The hosts still left out, comma-separated, as excludedatanodes takes them.
  std::string hosts() {
    std::lock_guard lock(mutex_);
    std::string listed;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = until_.begin(); it != until_.end();) {
      if (it->second <= now) {
        it = until_.erase(it);
        continue;
      }
      listed += (listed.empty() ? "" : ",") + it->first;
      ++it;
    }
    return listed;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::chrono::steady_clock::time_point> until_;
};

}  // namespace spindle::yarn
