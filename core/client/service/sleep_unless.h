#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace spindle::client {

// Waits `most`, or less once `stop` is set: a follower stops within 50 ms.
inline void sleep_unless(const std::atomic<bool>& stop, std::chrono::milliseconds most) {
  const auto until = std::chrono::steady_clock::now() + most;
  while (!stop && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

}  // namespace spindle::client
