#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "container/master_locator.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/core/job_api_client.h"

namespace spindle::container {

// A task executor's line to the application master. When the master stops
// answering, it asks YARN where the next attempt runs and registers there
// again as a task that kept running, so a restarted master adopts it.
// A job API client for `api`, speaking TLS pinned to `pin` when it is set.
std::unique_ptr<JobApiClient> job_api_client(const HostPort& api, const std::string& secret, const std::string& pin);

class MasterLink {
 public:
  // `pin`: the job API's certificate SHA-256 on an encrypted cluster, else empty.
  MasterLink(HostPort api, std::string secret, std::string pin, std::string application_id, std::string user,
             MasterLocator::TokenSource resource_manager_token);

  // The master's job API now; `generation` changes whenever it moves.
  HostPort api() const;
  std::uint64_t generation() const;
  JobApiClient& client() { return *client_; }

  // Called after a call to the master failed. Once it has failed for a while
  // (a master that is only slow is not left), looks for the next attempt
  // and, if there is one, reattaches the task there. True when it moved.
  bool follow(const TaskId& task, const HostPort& address, const std::string& container,
              const Reattachment& reattachment);
  // Called after a call succeeded.
  void answered() { failing_since_.reset(); }
  // Whether YARN says the application has ended (no attempt will come).
  bool application_ended() const { return locator_.application_ended(); }

 private:
  using Clock = std::chrono::steady_clock;

  mutable std::mutex mutex_;
  HostPort api_;
  std::uint64_t generation_ = 0;
  const std::string secret_;
  const std::string pin_;
  std::unique_ptr<JobApiClient> client_;
  MasterLocator locator_;
  std::optional<Clock::time_point> failing_since_;
  Clock::time_point next_lookup_{};
};

}  // namespace spindle::container
