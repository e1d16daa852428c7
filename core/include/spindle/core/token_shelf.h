#pragma once

// The newest delegation tokens of a job whose application master refreshes
// them (docs/architecture.md, "Jobs that outlive their tokens"), numbered by
// generation (the wall clock's milliseconds at shelving, or one more), for the task executors that wait for them in
// long polls (GET /v1/tokens of the job API). Thread-safe.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "spindle/core/long_poll_waiters.h"

namespace spindle {

class TokenShelf {
 public:
  // Called with a generation and its credentials (Hadoop's token storage
  // format, tokens only); never with the shelf's lock held.
  using Waiter = std::function<void(std::uint64_t generation, const std::string& credentials)>;

  // Shelves the next generation and calls everyone waiting.
  void put(std::string credentials);
  // Calls `waiter` at once with the newest generation when it is past
  // `after`; else once one comes. Returns the ticket to forget() it by (0
  // when it was called at once).
  std::uint64_t when_after(std::uint64_t after, Waiter waiter);
  void forget(std::uint64_t ticket);
  std::uint64_t generation() const;
  // How many wait for the next generation.
  std::size_t waiting() const;

 private:
  mutable std::mutex mutex_;
  std::uint64_t generation_ = 0;
  std::string credentials_;
  LongPollWaiters<Waiter> waiters_;
};

}  // namespace spindle
