#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/cluster_spec.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/long_poll_waiters.h"
#include "spindle/core/result.h"

namespace spindle {

// One published cluster: every task's address, numbered. Version 1 is the
// first complete cluster; each restart that moves a task publishes the next.
struct ClusterVersion {
  std::uint64_t version = 0;
  ClusterAddresses addresses;
  std::string cluster_json;  // the training cluster, as TF_CONFIG carries it
  std::string tasks_json;    // every task's address: {"worker:0": "h:p", ...}
  // Set on the version published when the job's end is decided: each task
  // still running stops its command itself, so that what it wrote is copied
  // before its container is stopped.
  std::string ending;
  // The job API's answer for this version, {"version", "cluster", "tasks"}
  // ("tasks" only those outside the training cluster),
  // encoded and compressed once when it is published: every executor is
  // sent these same bytes, so thousands of waiters cost no copy each.
  std::shared_ptr<const std::string> answer_json;
  std::shared_ptr<const std::string> answer_gzip;
  std::shared_ptr<const std::string> answer_zstd;
};

// The registry of task addresses that lives in the application master. Task
// executors register where they listen; nobody gets a cluster until every
// task has registered (the gang barrier); a restarted task's new address is
// published as a new version, which those waiting past the old one receive.
class Rendezvous {
 public:
  using Waiter = std::function<void(std::shared_ptr<const ClusterVersion>)>;

  explicit Rendezvous(JobSpec spec);

  // A task announces its address from its container. A second registration
  // of the same task is accepted only from the container that replaced the
  // first (after task_restarting); otherwise it is refused.
  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container_id);

  // The task's container is gone and another will take its place: its
  // address is withdrawn until the new container registers.
  void task_restarting(const TaskId& task);

  // Versions published from now on are above `version`: a later
  // application master attempt continues the numbering its tasks have seen.
  void continue_after(std::uint64_t version);

  // The job's end is decided (`why` in a sentence): the last cluster is
  // published again, under its own version, carrying it; every waiter gets
  // it at once, whatever version it holds, even while a restarting task has
  // withdrawn its address. Once only.
  void end(const std::string& why);

  // The newest complete cluster, if there is one.
  std::shared_ptr<const ClusterVersion> current() const;

  // Calls `waiter` once with the first complete cluster whose version is
  // above `after`: at once if there is one, else when it is published.
  // Returns a ticket for forget() (0 when it was called at once).
  std::uint64_t when_newer(std::uint64_t after, Waiter waiter);
  // Drops a waiter that was not called, e.g. when its long poll timed out;
  // without it, every poll would stay until the next version.
  void forget(std::uint64_t ticket);

  // Blocking form of when_newer, for threads that may wait.
  std::shared_ptr<const ClusterVersion> wait_newer(std::uint64_t after, std::chrono::milliseconds timeout);

  // Tasks that have not registered (for status pages and timeouts).
  std::vector<TaskId> missing() const;
  std::size_t registered_count() const;
  // Waiters not yet called: long polls that have reached the registry and wait.
  std::size_t waiting_count() const;
  // Versions encoded so far: one per published version, however many read it.
  std::size_t encodings() const;

 private:
  void publish_locked();
  void publish_locked(ClusterAddresses addresses, std::uint64_t number);

  const JobSpec spec_;
  mutable std::mutex mutex_;
  std::map<TaskId, HostPort> addresses_;
  std::map<TaskId, std::string> containers_;
  std::size_t expected_ = 0;
  std::string ending_;
  std::uint64_t version_ = 0;
  std::shared_ptr<const ClusterVersion> current_;
  LongPollWaiters<Waiter> waiters_;  // by the version they wait past
  std::size_t encodings_ = 0;
};

}  // namespace spindle
