#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "spindle/core/long_poll_waiters.h"

namespace spindle {

// Something that happened to a job, as the CLI and the GUI show it.
struct JobEvent {
  std::uint64_t sequence = 0;
  std::int64_t time_ms = 0;  // ms since the epoch
  std::string kind;          // allocated, launched, registered, running, succeeded, failed, restarting, job ...
  std::string task;          // "worker:1", empty for the job itself
  std::string message;
};

// The job's events in order, numbered from 1 (or from where an earlier attempt's end), with long polls for what comes
// next. Only the newest `capacity` are kept; a reader that fell further
// behind gets what is left.
class EventLog {
 public:
  using Waiter = std::function<void(std::vector<JobEvent>)>;

  // `numbered_after`: the sequence the first event follows. A later
  // application master attempt numbers past the earlier attempts' events so
  // that those who follow the job see its events as new.
  explicit EventLog(std::size_t capacity = 10'000, std::uint64_t numbered_after = 0)
      : capacity_(capacity), last_(numbered_after) {}

  std::uint64_t append(std::string kind, std::string task, std::string message);
  std::vector<JobEvent> after(std::uint64_t sequence, std::size_t limit = 1000) const;
  // Calls `waiter` once with the events after `sequence`: at once if there
  // are some, else when the next one is appended. Returns a ticket for
  // forget() (0 when it was called at once).
  std::uint64_t when_after(std::uint64_t sequence, Waiter waiter);
  // Drops a waiter that was not called, e.g. when its long poll timed out.
  void forget(std::uint64_t ticket);
  std::uint64_t last() const;

 private:
  std::vector<JobEvent> after_locked(std::uint64_t sequence, std::size_t limit) const;

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::deque<JobEvent> events_;
  std::uint64_t last_ = 0;
  LongPollWaiters<Waiter> waiters_;  // by the sequence they wait past
};

}  // namespace spindle
