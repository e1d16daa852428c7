#pragma once

// What the CapacityScheduler lets one queue ever hold, as its REST API
// (/ws/v1/cluster/scheduler) reports it: the limits that decide whether a job
// could ever be placed whole, which the RPC protocols do not tell.

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "spindle/core/result.h"
#include "spindle/yarn/cluster_types.h"

namespace spindle::client {

struct QueueLimits {
  std::string path;  // root.default
  // Shares of each partition's resources ("" names the nodes without a label), 0..1.
  std::map<std::string, double> guaranteed_share;  // absolute capacity
  std::map<std::string, double> maximum_share;     // absolute maximum capacity
  // One user may hold up to this many times the guaranteed share (bounded by
  // the maximum); negative when the scheduler sets no such bound.
  double user_limit_factor = -1;
  std::optional<yarn::Resources> largest_container;  // the queue's maximum allocation
  std::optional<yarn::Resources> masters_limit;      // what application masters may hold in it

  // The share of a partition one user of this queue can ever hold.
  double share_one_user_may_hold(const std::string& partition) const;
};

// The leaf queues of a CapacityScheduler's answer, by name and by path. Another
// scheduler's answer, or one that names no leaf queue, is an error saying so.
Result<std::map<std::string, QueueLimits>> queue_limits_from(const nlohmann::json& answer);

}  // namespace spindle::client
