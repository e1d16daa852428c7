#pragma once

// "Will it fit now": for each task type of a job, whether the cluster has
// room for its containers at this moment, will have it once running work
// ends, or never can as the job stands, with the sentence that says why.
// Shared by `spindle validate --cluster` and the designer.

#include <optional>
#include <string>
#include <vector>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_types.h"

namespace spindle::client {

// The cluster as the ResourceManager reports it now.
struct ClusterState {
  std::vector<yarn::NodeInfo> nodes;
  yarn::QueueInfo root;  // the whole queue tree
};

Result<ClusterState> read_cluster_state(yarn::ApplicationClient& client);

struct TaskTypeFit {
  enum class Verdict { fits_now, waits, never };
  std::string type;  // a task type, or "application master"
  Verdict verdict = Verdict::fits_now;
  int instances = 0;
  int placeable_now = 0;  // containers that find room now, after the types before it
  std::string sentence;   // "worker: ..." one line a user reads
};

struct JobFit {
  std::vector<TaskTypeFit> types;  // the application master first, then the spec's order
  std::vector<std::string> warnings;

  bool fits_now() const;
  bool can_ever_fit() const;
};

// The job's containers placed on the nodes' free room one after the other
// (the master's first, each type in the spec's order, each container on the
// eligible node with the most free memory), as YARN's scheduler would if it
// had nothing else to do. Eligible: a RUNNING node with the task's label (its
// node_label, else the queue's default label expression), or with no label.
JobFit will_it_fit(const JobSpec& spec, const ClusterState& cluster);

std::string_view to_string(TaskTypeFit::Verdict verdict);

}  // namespace spindle::client
