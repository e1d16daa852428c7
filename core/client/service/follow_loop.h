#pragma once

// What following a job does the same way directly and through a server.

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "spindle/client/job_service.h"

namespace spindle::client {

// Waits `most`, or less once `stop` is set: a follower stops within 50 ms.
inline void sleep_unless(const std::atomic<bool>& stop, std::chrono::milliseconds most) {
  const auto until = std::chrono::steady_clock::now() + most;
  while (!stop && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// One look at a followed job: YARN's state, and whether it has ended.
struct FollowLook {
  std::string state;
  bool finished = false;
};

// Looks at the job until it has ended or `stop` is set, telling each new
// state; between two looks at a running job, `between` tells the rest and
// waits. A look that fails is tried again each second: a ResourceManager
// restart is survivable, a minute of silence is not, and its error ends it.
inline Result<void> follow_until_finished(const std::atomic<bool>& stop, const FollowReport& report,
                                          const std::function<Result<FollowLook>()>& look,
                                          const std::function<void()>& between) {
  std::string last_state;
  int unreachable = 0;
  if (report.containers) report.containers(0, 0);
  while (!stop) {
    auto seen = look();
    if (!seen) {
      if (++unreachable > 60) return seen.error();
      sleep_unless(stop, std::chrono::seconds(1));
      continue;
    }
    unreachable = 0;
    if (seen->state != last_state) {
      last_state = seen->state;
      if (report.state_changed) report.state_changed(last_state);
    }
    if (seen->finished) return {};
    between();
  }
  return make_error("stopped following the job before it ended");
}

}  // namespace spindle::client
