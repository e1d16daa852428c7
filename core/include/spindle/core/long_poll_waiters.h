#pragma once

// The callbacks of long polls waiting past a number (an event's sequence, a
// cluster's version), each with a ticket to withdraw it by. Not locked: the
// owner holds its own lock around every call, and calls the callbacks it
// takes out only after releasing it, since a callback may write to a
// socket, wait again, or hold the last reference to a session.

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace spindle {

template <typename Waiter>
class LongPollWaiters {
 public:
  // The ticket for take(); never 0, which callers use for "none".
  std::uint64_t add(std::uint64_t waits_past, Waiter waiter) {
    const auto ticket = ++last_ticket_;
    waiting_.emplace(waits_past, Waiting{ticket, std::move(waiter)});
    return ticket;
  }

  // The waiter of `ticket`, removed; empty when it was already called or taken.
  Waiter take(std::uint64_t ticket) {
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
      if (it->second.ticket != ticket) continue;
      Waiter taken = std::move(it->second.waiter);
      waiting_.erase(it);
      return taken;
    }
    return {};
  }

  // Every waiter waiting past a number below `number`, removed, with that number.
  std::vector<std::pair<std::uint64_t, Waiter>> take_below(std::uint64_t number) {
    std::vector<std::pair<std::uint64_t, Waiter>> taken;
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first < number;) {
      taken.emplace_back(it->first, std::move(it->second.waiter));
      it = waiting_.erase(it);
    }
    return taken;
  }

  std::vector<std::pair<std::uint64_t, Waiter>> take_all() { return take_below(UINT64_MAX); }

  std::size_t size() const { return waiting_.size(); }

 private:
  struct Waiting {
    std::uint64_t ticket;
    Waiter waiter;
  };
  std::multimap<std::uint64_t, Waiting> waiting_;  // by the number they wait past
  std::uint64_t last_ticket_ = 0;
};

}  // namespace spindle
