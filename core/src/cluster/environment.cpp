#include "spindle/core/environment.h"
#include "spindle/core/text.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <vector>

extern char** environ;

namespace spindle {
namespace {

using json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 16> reserved_names{
    "TF_CONFIG",  "CLUSTER_SPEC", "JOB_NAME",        "TASK_INDEX",
    "TASK_NUM",   "IS_CHIEF",     "MASTER_ADDR",     "MASTER_PORT",
    "RANK",       "WORLD_SIZE",   "LOCAL_RANK",      "LOCAL_WORLD_SIZE",
    "GROUP_RANK", "ROLE_RANK",    "ROLE_WORLD_SIZE", "TORCHELASTIC_RUN_ID"};
constexpr std::array<std::string_view, 2> reserved_prefixes{"DTF_", "SPINDLE_"};

json cluster_object(const JobSpec& spec, const ClusterAddresses& addresses) {
  json cluster = json::object();
  for (const auto& task : spec.tasks) {
    if (!in_training_cluster(task.type)) continue;
    json hosts = json::array();
    for (const auto& address : addresses.of_type(task.type)) hosts.push_back(address.to_string());
    cluster[task.type] = std::move(hosts);
  }
  return cluster;
}

std::string join(const std::vector<HostPort>& addresses) {
  std::string out;
  for (const auto& address : addresses) {
    if (!out.empty()) out += ',';
    out += address.to_string();
  }
  return out;
}

// TensorFlow's rule: the chief leads; with no chief, worker 0 does.
bool is_chief(const JobSpec& spec, const TaskId& task) {
  if (spec.find_task(task_types::chief)) return task.type == task_types::chief;
  return task.type == task_types::worker && task.index == 0;
}

// TonY's TASK_NUM: the tasks the job waits for, every type but the untracked
// ones (ps by default), which are Spindle's services.
int tracked_task_count(const JobSpec& spec) {
  int count = 0;
  for (const auto& task : spec.tasks) {
    if (task.role == TaskRole::tracked) count += task.instances;
  }
  return count;
}

// PyTorch's process group is the chief (rank 0, if any) and the workers, each
// container a group (torchrun's node) of its type's `processes`. The variables
// are those torchrun gives its workers, so a script written for torchrun runs
// unchanged; every rank has the one role. These are the values of the
// container's first process; process_environment gives the others theirs.
void add_pytorch_variables(const JobSpec& spec, const ClusterAddresses& addresses, const TaskContext& context,
                           Environment& env) {
  const TaskId& task = context.task;
  const TaskSpec* chief = spec.find_task(task_types::chief);
  const TaskSpec* worker = spec.find_task(task_types::worker);
  if (!chief && !worker) return;
  const HostPort& master =
      addresses.at(TaskId{chief ? std::string(task_types::chief) : std::string(task_types::worker), 0});
  const int chief_ranks = chief ? chief->instances * chief->processes : 0;
  const int world_size = chief_ranks + (worker ? worker->instances * worker->processes : 0);
  env["MASTER_ADDR"] = master.host;
  env["MASTER_PORT"] = std::to_string(master.port);
  env["WORLD_SIZE"] = std::to_string(world_size);
  int first_rank = 0;
  int group_rank = 0;
  int processes = 1;
  if (task.type == task_types::chief) {
    processes = chief->processes;
    first_rank = task.index * processes;
    group_rank = task.index;
  } else if (task.type == task_types::worker) {
    processes = worker->processes;
    first_rank = chief_ranks + task.index * processes;
    group_rank = (chief ? chief->instances : 0) + task.index;
  } else {
    return;
  }
  env["RANK"] = std::to_string(first_rank);
  env["LOCAL_RANK"] = "0";
  env["LOCAL_WORLD_SIZE"] = std::to_string(processes);
  env["GROUP_RANK"] = std::to_string(group_rank);
  env["ROLE_RANK"] = env["RANK"];
  env["ROLE_WORLD_SIZE"] = env["WORLD_SIZE"];
  env["TORCHELASTIC_RUN_ID"] = context.application_id;
}

// The share of a comma-separated device list that local process `local_rank`
// of `processes` gets: an equal run of consecutive devices.
std::string device_share(const std::string& devices, int local_rank, int processes) {
  std::vector<std::string> listed;
  std::size_t start = 0;
  while (start <= devices.size()) {
    const auto comma = devices.find(',', start);
    const auto end = comma == std::string::npos ? devices.size() : comma;
    if (end > start) listed.push_back(devices.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (listed.empty() || listed.size() % static_cast<std::size_t>(processes) != 0) return devices;
  const std::size_t each = listed.size() / static_cast<std::size_t>(processes);
  std::string share;
  for (std::size_t i = 0; i < each; ++i) {
    if (!share.empty()) share += ',';
    share += listed[static_cast<std::size_t>(local_rank) * each + i];
  }
  return share;
}

}  // namespace

bool is_reserved_variable(std::string_view name) {
  for (auto reserved : reserved_names) {
    if (name == reserved) return true;
  }
  for (auto prefix : reserved_prefixes) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

std::string cluster_json(const JobSpec& spec, const ClusterAddresses& addresses) {
  return cluster_object(spec, addresses).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool is_hdfs_location(std::string_view location) {
  return location.starts_with("hdfs://");
}

std::string hdfs_path_of(std::string_view location) {
  if (!is_hdfs_location(location)) return std::string(location);
  const auto rest = location.substr(std::string_view("hdfs://").size());
  const auto slash = rest.find('/');
  return slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
}

Environment task_environment(const JobSpec& spec, const ClusterAddresses& addresses, const TaskContext& context) {
  Environment env = spec.env;
  const TaskId& task = context.task;
  if (const TaskSpec* type = spec.find_task(task.type)) {
    for (const auto& [name, value] : type->env) env[name] = value;
  }

  const json cluster = cluster_object(spec, addresses);
  if (task.type != task_types::tensorboard) {
    json config;
    config["cluster"] = cluster;
    config["task"] = {{"type", task.type}, {"index", task.index}};
    env["TF_CONFIG"] = config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  // YARN-DTF (ytf-submit)
  for (const auto& type : spec.tasks) env["DTF_" + to_upper(type.type) + "_HOSTS"] = join(addresses.of_type(type.type));
  env["DTF_TASK_JOB_NAME"] = task.type;
  env["DTF_TASK_INDEX"] = std::to_string(task.index);
  env["DTF_TASK_SCRIPT"] = spec.script;
  const std::string input = is_hdfs_location(spec.input) ? context.input_directory : spec.input;
  env["DTF_INPUT_PATH"] = input;
  // An output in HDFS is written to a directory of the task's node, which
  // the executor keeps in HDFS; the HDFS location is there for scripts too.
  const std::string output = is_hdfs_location(spec.output) ? context.output_directory : spec.output;
  env["DTF_OUTPUT_PATH"] = output;
  if (!spec.docker_image.empty()) env["DTF_DOCKER_IMAGE"] = spec.docker_image;

  // TonY
  env["JOB_NAME"] = task.type;
  env["TASK_INDEX"] = std::to_string(task.index);
  env["TASK_NUM"] = std::to_string(tracked_task_count(spec));
  env["IS_CHIEF"] = is_chief(spec, task) ? "true" : "false";
  env["CLUSTER_SPEC"] = cluster.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

  add_pytorch_variables(spec, addresses, context, env);

  // A job tracked with a run per task: this task's run, under the job's.
  if (spec.mlflow) {
    if (auto run = spec.mlflow->task_runs.find(task.to_string()); run != spec.mlflow->task_runs.end()) {
      if (auto parent = env.find("MLFLOW_RUN_ID"); parent != env.end()) env["MLFLOW_PARENT_RUN_ID"] = parent->second;
      env["MLFLOW_RUN_ID"] = run->second;
    }
  }

  env["SPINDLE_APP_ID"] = context.application_id;
  env["SPINDLE_TASK"] = task.to_string();
  env["SPINDLE_ATTEMPT"] = std::to_string(context.attempt);
  env["SPINDLE_OUTPUT"] = output;
  if (is_hdfs_location(spec.output)) env["SPINDLE_OUTPUT_URI"] = spec.output;
  if (!spec.input.empty()) env["SPINDLE_INPUT"] = input;
  if (is_hdfs_location(spec.input)) env["SPINDLE_INPUT_URI"] = spec.input;
  return env;
}

Environment inherited_environment() {
  Environment env;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string_view::npos) env[std::string(text.substr(0, equals))] = text.substr(equals + 1);
  }
  return env;
}

Environment process_environment(const Environment& container, int local_rank, int processes) {
  Environment env = container;
  const auto rank = env.find("RANK");
  if (rank == env.end() || processes <= 1) return env;
  const int first_rank = std::stoi(rank->second);
  env["RANK"] = std::to_string(first_rank + local_rank);
  env["ROLE_RANK"] = env["RANK"];
  env["LOCAL_RANK"] = std::to_string(local_rank);
  // The container's GPUs, as YARN made them visible, shared out evenly.
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES"}) {
    if (auto devices = env.find(name); devices != env.end()) {
      devices->second = device_share(devices->second, local_rank, processes);
    }
  }
  return env;
}

}  // namespace spindle
