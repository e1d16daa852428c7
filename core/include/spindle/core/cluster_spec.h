#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle {

// One task of a job: its type and its index among that type's instances.
struct TaskId {
  std::string type;
  int index = 0;

  std::string to_string() const;  // "worker:1"
  friend auto operator<=>(const TaskId&, const TaskId&) = default;
};

// Parses "worker:1".
Result<TaskId> parse_task_id(std::string_view text);

struct HostPort {
  std::string host;
  std::uint16_t port = 0;

  std::string to_string() const;  // "h1:2222", "[::1]:2222"
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

// Parses "host:port" or "[v6]:port".
Result<HostPort> parse_host_port(std::string_view text);

// Every task's registered address, checked against the job: each task of the
// spec has exactly one, and there is none for a task the spec lacks.
class ClusterAddresses {
 public:
  static Result<ClusterAddresses> create(const JobSpec& spec, std::map<TaskId, HostPort> addresses);

  const HostPort& at(const TaskId& task) const { return addresses_.at(task); }
  // Addresses of one type in index order.
  std::vector<HostPort> of_type(std::string_view type) const;
  const std::map<TaskId, HostPort>& all() const { return addresses_; }

 private:
  std::map<TaskId, HostPort> addresses_;
};

// Parses the render-env form "chief:0=h1:2222,worker:0=h2:2223".
Result<std::map<TaskId, HostPort>> parse_address_list(std::string_view text);

// Whether a task type belongs to the training cluster in TF_CONFIG: chief,
// worker and ps. TensorFlow keeps the evaluator out of it, its strategies
// refuse any other job name in it, and TensorBoard is no part of training;
// those tasks see the cluster but are not in it.
bool in_training_cluster(std::string_view type);

}  // namespace spindle
