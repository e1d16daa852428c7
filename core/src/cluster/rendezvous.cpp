#include "spindle/core/rendezvous.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <condition_variable>

#include "spindle/core/environment.h"
#include "spindle/core/gzip.h"
#include "spindle/core/zstd_codec.h"

namespace spindle {

Rendezvous::Rendezvous(JobSpec spec) : spec_(std::move(spec)) {
  for (const auto& task : spec_.tasks) expected_ += static_cast<std::size_t>(task.instances);
}

Result<void> Rendezvous::register_task(const TaskId& task, const HostPort& address, const std::string& container_id) {
  const TaskSpec* type = spec_.find_task(task.type);
  if (!type || task.index < 0 || task.index >= type->instances) {
    return make_error(task.to_string() + " is not a task of this job");
  }
  std::vector<std::pair<Waiter, std::shared_ptr<const ClusterVersion>>> ready;
  {
    std::lock_guard lock(mutex_);
    auto known = containers_.find(task);
    // Known container, withdrawn address: the task is restarting.
    const bool restarting = known != containers_.end() && !addresses_.contains(task);
    if (known != containers_.end() && !restarting) {
      if (known->second == container_id && addresses_.at(task) == address) return {};  // a retried registration
      return make_error(task.to_string() + " is already registered from " + known->second + "; a task registers once " +
                        "per container");
    }
    addresses_[task] = address;
    containers_[task] = container_id;
    if (addresses_.size() == expected_) publish_locked();
    // Only a complete cluster is handed out: while a task restarts, the last one names its old address.
    if (current_ && current_->version == version_ && addresses_.size() == expected_) {
      for (auto& [after, waiter] : waiters_.take_below(version_)) ready.emplace_back(std::move(waiter), current_);
    }
  }
  // Waiters run outside the lock: they may write to sockets or register more.
  for (auto& [waiter, version] : ready) waiter(version);
  return {};
}

void Rendezvous::publish_locked() {
  auto addresses = ClusterAddresses::create(spec_, addresses_);
  if (!addresses) return;  // cannot happen: every task of the spec is there
  publish_locked(std::move(*addresses), ++version_);
}

void Rendezvous::publish_locked(ClusterAddresses addresses, std::uint64_t number) {
  auto version = std::make_shared<ClusterVersion>();
  version->version = number;
  version->ending = ending_;
  version->cluster_json = cluster_json(spec_, addresses);
  nlohmann::json tasks = nlohmann::json::object();
  for (const auto& [task, address] : addresses.all()) tasks[task.to_string()] = address.to_string();
  version->tasks_json = tasks.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // The answer names each address once: the training cluster's lists give
  // their tasks' addresses by position, so "tasks" adds only the others
  // (evaluator, tensorboard). Sent to every executor, the repetition would
  // more than double the traffic, and gzip's 32 KB window cannot find it.
  const auto training = nlohmann::json::parse(version->cluster_json, nullptr, false);
  nlohmann::json others = nlohmann::json::object();
  for (const auto& [task, address] : addresses.all()) {
    if (!training.is_object() || !training.contains(task.type)) others[task.to_string()] = address.to_string();
  }
  version->addresses = std::move(addresses);
  auto answer = std::make_shared<std::string>();
  answer->reserve(version->cluster_json.size() + 64);
  *answer += "{\"version\":" + std::to_string(version->version) + ",\"cluster\":";
  *answer += version->cluster_json;
  *answer += ",\"tasks\":";
  *answer += others.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!ending_.empty()) {
    *answer += ",\"ending\":";
    *answer += nlohmann::json(ending_).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  *answer += "}";
  version->answer_gzip = std::make_shared<const std::string>(gzip_compress(*answer));
  version->answer_zstd = std::make_shared<const std::string>(zstd_compress(*answer));
  version->answer_json = std::move(answer);
  ++encodings_;
  current_ = std::move(version);
}

void Rendezvous::end(const std::string& why) {
  std::vector<std::pair<Waiter, std::shared_ptr<const ClusterVersion>>> ready;
  {
    std::lock_guard lock(mutex_);
    // Before the first complete cluster no command runs: nothing to tell.
    if (!ending_.empty() || !current_) return;
    ending_ = why.empty() ? std::string("the job ended") : why;
    // The same cluster under the same number, which counts the clusters a
    // job had; the ending goes to every waiter, whatever it holds.
    publish_locked(current_->addresses, current_->version);
    for (auto& [after, waiter] : waiters_.take_all()) ready.emplace_back(std::move(waiter), current_);
  }
  for (auto& [waiter, version] : ready) waiter(version);
}

void Rendezvous::continue_after(std::uint64_t version) {
  std::lock_guard lock(mutex_);
  version_ = std::max(version_, version);
}

void Rendezvous::task_restarting(const TaskId& task) {
  std::lock_guard lock(mutex_);
  addresses_.erase(task);
}

std::shared_ptr<const ClusterVersion> Rendezvous::current() const {
  std::lock_guard lock(mutex_);
  // While a task restarts, the last complete cluster is stale but still the newest there is.
  return current_;
}

std::uint64_t Rendezvous::when_newer(std::uint64_t after, Waiter waiter) {
  std::shared_ptr<const ClusterVersion> now;
  {
    std::lock_guard lock(mutex_);
    if (current_ && (!ending_.empty() || (current_->version > after && addresses_.size() == expected_))) {
      now = current_;
    } else {
      return waiters_.add(after, std::move(waiter));
    }
  }
  waiter(now);
  return 0;
}

void Rendezvous::forget(std::uint64_t ticket) {
  if (ticket == 0) return;
  Waiter dropped;  // destroyed after the lock is released: it may hold the last reference to a session
  std::lock_guard lock(mutex_);
  dropped = waiters_.take(ticket);
}

std::shared_ptr<const ClusterVersion> Rendezvous::wait_newer(std::uint64_t after, std::chrono::milliseconds timeout) {
  struct Slot {
    std::mutex mutex;
    std::condition_variable ready;
    std::shared_ptr<const ClusterVersion> version;
  };
  auto slot = std::make_shared<Slot>();
  const auto ticket = when_newer(after, [slot](std::shared_ptr<const ClusterVersion> version) {
    std::lock_guard lock(slot->mutex);
    slot->version = std::move(version);
    slot->ready.notify_all();
  });
  std::shared_ptr<const ClusterVersion> found;
  {
    std::unique_lock lock(slot->mutex);
    slot->ready.wait_for(lock, timeout, [&] { return slot->version != nullptr; });
    found = slot->version;
  }
  forget(ticket);
  return found;
}

std::vector<TaskId> Rendezvous::missing() const {
  std::lock_guard lock(mutex_);
  std::vector<TaskId> absent;
  for (const auto& task : spec_.tasks) {
    for (int index = 0; index < task.instances; ++index) {
      TaskId id{task.type, index};
      if (!addresses_.contains(id)) absent.push_back(std::move(id));
    }
  }
  return absent;
}

std::size_t Rendezvous::registered_count() const {
  std::lock_guard lock(mutex_);
  return addresses_.size();
}

std::size_t Rendezvous::encodings() const {
  std::lock_guard lock(mutex_);
  return encodings_;
}

std::size_t Rendezvous::waiting_count() const {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

}  // namespace spindle
