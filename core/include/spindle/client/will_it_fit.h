#pragma once

// "Will it fit now": for each task type of a job, whether the cluster has
// room for its containers at this moment, will have it once running work
// ends, or never can as the job stands, with the sentence that says why.
// Shared by `spindle validate --cluster` and the designer.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spindle/client/queue_limits.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_types.h"

namespace spindle::yarn {
class ResourceManagerRest;
}

namespace spindle::client {

// The cluster as the ResourceManager reports it now.
struct ClusterState {
  std::vector<yarn::NodeInfo> nodes;
  yarn::QueueInfo root;  // the whole queue tree
  // The scheduler's limits of each leaf queue, by name and path; empty when
  // they were not read, and then `limits_unknown` says why.
  std::map<std::string, QueueLimits> limits;
  std::string limits_unknown;
};

// The nodes and queues through RPC; with `rest`, the queues' limits too (an
// answer that cannot be had is kept as limits_unknown, not an error: the
// rest of the placement still holds).
Result<ClusterState> read_cluster_state(yarn::ApplicationClient& client, yarn::ResourceManagerRest* rest = nullptr);

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
//
// Never fits: a container larger than every eligible node, or than the
// queue's largest container; a master larger than the queue lets masters
// hold; the whole job (every container at once, as a training gang needs)
// more than one user of the queue may ever hold of each partition. That last
// verdict is the type "the whole job", after the task types.
JobFit will_it_fit(const JobSpec& spec, const ClusterState& cluster);

// The first sentence of a verdict that the job never fits, or empty.
std::string first_never_sentence(const JobFit& fit);

std::string_view to_string(TaskTypeFit::Verdict verdict);

}  // namespace spindle::client
