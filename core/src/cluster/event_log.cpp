#include "spindle/core/event_log.h"

#include "spindle/core/clock.h"

namespace spindle {

std::uint64_t EventLog::append(std::string kind, std::string task, std::string message) {
  std::vector<std::pair<Waiter, std::vector<JobEvent>>> ready;
  std::uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    sequence = ++last_;
    events_.push_back(JobEvent{sequence, wall_clock_ms(), std::move(kind), std::move(task), std::move(message)});
    while (events_.size() > capacity_) events_.pop_front();
    for (auto& [after, waiter] : waiters_.take_all()) ready.emplace_back(std::move(waiter), after_locked(after, 1000));
  }
  // Outside the lock: a waiter may append or wait again.
  for (auto& [waiter, events] : ready) waiter(std::move(events));
  return sequence;
}

std::vector<JobEvent> EventLog::after_locked(std::uint64_t sequence, std::size_t limit) const {
  std::vector<JobEvent> found;
  for (const auto& event : events_) {
    if (event.sequence <= sequence) continue;
    found.push_back(event);
    if (found.size() == limit) break;
  }
  return found;
}

std::vector<JobEvent> EventLog::after(std::uint64_t sequence, std::size_t limit) const {
  std::lock_guard lock(mutex_);
  return after_locked(sequence, limit);
}

std::uint64_t EventLog::when_after(std::uint64_t sequence, Waiter waiter) {
  std::vector<JobEvent> found;
  {
    std::lock_guard lock(mutex_);
    if (last_ <= sequence) {
      return waiters_.add(sequence, std::move(waiter));
    }
    found = after_locked(sequence, 1000);
  }
  waiter(std::move(found));
  return 0;
}

void EventLog::forget(std::uint64_t ticket) {
  if (ticket == 0) return;
  Waiter dropped;  // destroyed after the lock is released: it may hold the last reference to a session
  std::lock_guard lock(mutex_);
  dropped = waiters_.take(ticket);
}

std::uint64_t EventLog::last() const {
  std::lock_guard lock(mutex_);
  return last_;
}

}  // namespace spindle
