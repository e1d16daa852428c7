#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "spindle/serve/cluster_access.h"

namespace spindle::serve {

// What browsers follow, read again every interval on a thread of its own:
// the jobs list, and each job a browser looked at in the last minute. Every
// change raises the version, which wakes the long polls of /api/v1/updates;
// reads between changes are answered from here without asking the cluster.
class LiveView {
 public:
  LiveView(ClusterAccess& cluster, std::chrono::milliseconds interval);
  ~LiveView();
  LiveView(const LiveView&) = delete;
  LiveView& operator=(const LiveView&) = delete;

  // Answers every waiting poll and ends the thread.
  void stop();

  std::optional<ApiReply> jobs();
  std::optional<ApiReply> job(const std::string& application_id);
  // Keeps the job fresh for a minute from now.
  void follow(const std::string& application_id);
  void remember(const std::string& application_id, const ApiReply& reply);
  std::uint64_t version();
  // Calls `done` with the version once it passes `after`, or when `longest` passed.
  void wait(std::uint64_t after, std::chrono::milliseconds longest, std::function<void(std::uint64_t)> done);
  std::size_t waiting();

 private:
  struct Snapshot {
    ApiReply reply;
    std::string text;  // to see a change
  };
  struct Waiter {
    std::uint64_t after = 0;
    std::chrono::steady_clock::time_point deadline;
    std::function<void(std::uint64_t)> done;
  };

  void run();
  bool store(std::optional<Snapshot>& slot, ApiReply reply);
  void wake(bool everyone);

  ClusterAccess& cluster_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  std::uint64_t version_ = 1;
  std::optional<Snapshot> jobs_;
  std::map<std::string, std::optional<Snapshot>> job_snapshots_;
  std::map<std::string, std::chrono::steady_clock::time_point> followed_until_;
  std::vector<Waiter> waiters_;
  std::thread thread_;
};

}  // namespace spindle::serve
