#pragma once

#include <map>
#include <string>
#include <string_view>

#include "spindle/core/cluster_spec.h"
#include "spindle/core/job_spec.h"

namespace spindle {

// What identifies one run of one task, beyond the spec and the addresses.
// The name under which a job's input in HDFS appears in each container.
inline constexpr std::string_view input_link_name = "spindle-input";

struct TaskContext {
  std::string application_id;
  TaskId task;
  int attempt = 0;  // how many times this task was started before
  // Where a task whose output is in HDFS writes it on its own node, which
  // the task executor keeps in HDFS; relative to the container's directory
  // unless the executor names it absolutely.
  std::string output_directory = "spindle-output";
  // Where a task finds an input in HDFS: YARN localizes it into the
  // container's directory under this name, once per node.
  std::string input_directory = std::string(input_link_name);
};

// A job's output (or input) in HDFS, "hdfs://[authority]/path", which its
// tasks reach through a directory on their own node.
bool is_hdfs_location(std::string_view location);
// "hdfs://ns/a/b" and "hdfs:///a/b" -> "/a/b".
std::string hdfs_path_of(std::string_view location);

using Environment = std::map<std::string, std::string>;

// The full environment a task's command sees: the spec's env, the task type's
// env, then the contract of docs/environment-contract.md (TF_CONFIG, DTF_*, TonY's, PyTorch's and
// SPINDLE_* variables), which specs cannot override.
Environment task_environment(const JobSpec& spec, const ClusterAddresses& addresses, const TaskContext& context);

// This process's own environment (what YARN and the NodeManager set), by name.
Environment inherited_environment();

// The environment of local process `local_rank` (0 to processes - 1) of a
// container whose task_environment is `container` and which runs `processes`
// copies of its command: its own RANK, ROLE_RANK and LOCAL_RANK, and its even
// share of the container's CUDA_VISIBLE_DEVICES. Unchanged for one process or
// a task outside PyTorch's group.
Environment process_environment(const Environment& container, int local_rank, int processes);

// The cluster as TF_CONFIG and CLUSTER_SPEC carry it: {"chief": ["h:p"], ...}.
std::string cluster_json(const JobSpec& spec, const ClusterAddresses& addresses);

// Whether a variable name is set by Spindle and so may not appear in a spec.
bool is_reserved_variable(std::string_view name);

}  // namespace spindle
