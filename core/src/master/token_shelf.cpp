#include "spindle/core/token_shelf.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "spindle/core/clock.h"

namespace spindle {

void TokenShelf::put(std::string credentials) {
  std::vector<std::pair<std::uint64_t, Waiter>> waiting;
  std::uint64_t generation = 0;
  std::string shelved;
  {
    std::lock_guard lock(mutex_);
    credentials_ = std::move(credentials);
    // Numbered by the wall clock, so that a later application master
    // attempt's generations follow those its executors already hold.
    generation_ = std::max(generation_ + 1, static_cast<std::uint64_t>(wall_clock_ms()));
    generation = generation_;
    shelved = credentials_;
    waiting = waiters_.take_below(generation);
  }
  for (auto& [after, waiter] : waiting) waiter(generation, shelved);
}

std::uint64_t TokenShelf::when_after(std::uint64_t after, Waiter waiter) {
  std::uint64_t generation = 0;
  std::string shelved;
  {
    std::lock_guard lock(mutex_);
    if (generation_ <= after) return waiters_.add(after, std::move(waiter));
    generation = generation_;
    shelved = credentials_;
  }
  waiter(generation, shelved);
  return 0;
}

void TokenShelf::forget(std::uint64_t ticket) {
  if (ticket == 0) return;
  Waiter dropped;  // destroyed after the lock is released: it may hold the last reference to a session
  std::lock_guard lock(mutex_);
  dropped = waiters_.take(ticket);
}

std::uint64_t TokenShelf::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

std::size_t TokenShelf::waiting() const {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

}  // namespace spindle
