#include "live_view.h"

namespace spindle::serve {

namespace {
constexpr auto follow_time = std::chrono::minutes(1);
}

LiveView::LiveView(ClusterAccess& cluster, std::chrono::milliseconds interval)
    : cluster_(cluster), interval_(interval), thread_([this] { run(); }) {}

LiveView::~LiveView() {
  stop();
}

void LiveView::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  wake(true);
}

std::optional<ApiReply> LiveView::jobs() {
  std::lock_guard lock(mutex_);
  if (!jobs_) return std::nullopt;
  return jobs_->reply;
}

std::optional<ApiReply> LiveView::job(const std::string& application_id) {
  std::lock_guard lock(mutex_);
  const auto found = job_snapshots_.find(application_id);
  if (found == job_snapshots_.end() || !found->second) return std::nullopt;
  return found->second->reply;
}

void LiveView::follow(const std::string& application_id) {
  std::lock_guard lock(mutex_);
  followed_until_[application_id] = std::chrono::steady_clock::now() + follow_time;
}

void LiveView::remember(const std::string& application_id, const ApiReply& reply) {
  std::lock_guard lock(mutex_);
  followed_until_[application_id] = std::chrono::steady_clock::now() + follow_time;
  if (store(job_snapshots_[application_id], reply)) ++version_;
}

std::uint64_t LiveView::version() {
  std::lock_guard lock(mutex_);
  return version_;
}

std::size_t LiveView::waiting() {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

void LiveView::wait(std::uint64_t after, std::chrono::milliseconds longest, std::function<void(std::uint64_t)> done) {
  std::unique_lock lock(mutex_);
  if (version_ > after || stopping_) {
    const auto now = version_;
    lock.unlock();
    done(now);
    return;
  }
  waiters_.push_back({after, std::chrono::steady_clock::now() + longest, std::move(done)});
}

bool LiveView::store(std::optional<Snapshot>& slot, ApiReply reply) {
  auto text = reply.body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  const bool changed = !slot || slot->text != text || slot->reply.status != reply.status;
  slot = Snapshot{std::move(reply), std::move(text)};
  return changed;
}

void LiveView::wake(bool everyone) {
  std::vector<std::function<void()>> calls;
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::vector<Waiter> kept;
    for (auto& waiter : waiters_) {
      if (everyone || version_ > waiter.after || waiter.deadline <= now) {
        calls.push_back([done = std::move(waiter.done), version = version_] { done(version); });
      } else {
        kept.push_back(std::move(waiter));
      }
    }
    waiters_ = std::move(kept);
  }
  for (auto& call : calls) call();
}

void LiveView::run() {
  for (;;) {
    const auto started = std::chrono::steady_clock::now();
    auto listed = cluster_.jobs(true, "");
    std::vector<std::string> followed;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      if (store(jobs_, std::move(listed))) ++version_;
      for (auto it = followed_until_.begin(); it != followed_until_.end();) {
        if (it->second < started) {
          job_snapshots_.erase(it->first);
          it = followed_until_.erase(it);
        } else {
          followed.push_back(it->first);
          ++it;
        }
      }
    }
    for (const auto& id : followed) {
      auto reply = cluster_.job(id);
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      if (store(job_snapshots_[id], std::move(reply))) ++version_;
    }
    wake(false);
    std::unique_lock lock(mutex_);
    changed_.wait_until(lock, started + interval_, [this] { return stopping_; });
    if (stopping_) return;
  }
}

}  // namespace spindle::serve
