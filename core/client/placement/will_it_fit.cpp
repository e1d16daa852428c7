#include "spindle/client/will_it_fit.h"

#include <algorithm>
#include <map>

#include "spindle/core/quantities.h"
#include "spindle/yarn/resource_manager_rest.h"

namespace spindle::client {
namespace {

constexpr const char* gpu_resource = "yarn.io/gpu";

struct Need {
  std::int64_t memory_mib = 0;
  std::int64_t vcores = 0;
  std::int64_t gpus = 0;
};

struct Room {
  std::int64_t memory_mib = 0;
  std::int64_t vcores = 0;
  std::int64_t gpus = 0;

  bool holds(const Need& need) const {
    return memory_mib >= need.memory_mib && vcores >= need.vcores && gpus >= need.gpus;
  }
  void take(const Need& need) {
    memory_mib -= need.memory_mib;
    vcores -= need.vcores;
    gpus -= need.gpus;
  }
};

std::int64_t gpus_of(const yarn::Resources& resources) {
  auto found = resources.others.find(gpu_resource);
  return found == resources.others.end() ? 0 : found->second;
}

Room capability_of(const yarn::NodeInfo& node) {
  return {node.capability.memory_mib, node.capability.vcores, gpus_of(node.capability)};
}

Room free_of(const yarn::NodeInfo& node) {
  return {std::max<std::int64_t>(node.capability.memory_mib - node.used.memory_mib, 0),
          std::max<std::int64_t>(node.capability.vcores - node.used.vcores, 0),
          std::max<std::int64_t>(gpus_of(node.capability) - gpus_of(node.used), 0)};
}

bool carries(const yarn::NodeInfo& node, const std::string& label) {
  if (label.empty()) return node.labels.empty();
  return std::find(node.labels.begin(), node.labels.end(), label) != node.labels.end();
}

std::string plural(std::int64_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string describe(const Need& need) {
  std::string text =
      format_memory_mib(static_cast<std::uint64_t>(need.memory_mib)) + ", " + plural(need.vcores, "vcore", "vcores");
  if (need.gpus > 0) text += ", " + plural(need.gpus, "GPU", "GPUs");
  return text;
}

std::string where(const std::string& label) {
  return label.empty() ? std::string("the nodes without a label") : "label " + label;
}

// "label gpu has", "the nodes without a label have"
std::string where_has(const std::string& label) {
  return where(label) + (label.empty() ? " have " : " has ");
}

const yarn::QueueInfo* find_queue(const yarn::QueueInfo& queue, const std::string& name) {
  if (queue.children.empty() && (queue.name == name || queue.path == name || queue.path == "root." + name)) {
    return &queue;
  }
  for (const auto& child : queue.children) {
    if (const auto* found = find_queue(child, name)) return found;
  }
  return nullptr;
}

void leaf_names(const yarn::QueueInfo& queue, std::vector<std::string>& names) {
  if (queue.children.empty()) names.push_back(queue.name);
  for (const auto& child : queue.children) leaf_names(child, names);
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : ", ") + word;
  return text.empty() ? std::string("none") : text;
}

struct Placement {
  std::string type;
  int instances = 0;
  Need need;
  std::string label;
};

const QueueLimits* limits_of(const ClusterState& cluster, const std::string& queue) {
  for (const auto& key : {queue, "root." + queue}) {
    if (auto found = cluster.limits.find(key); found != cluster.limits.end()) return &found->second;
  }
  return nullptr;
}

// The share of the cluster a leaf queue may grow to, from the RPC queue tree
// (each queue's maximum is a share of its parent's): used when the
// scheduler's own limits could not be read.
std::optional<double> maximum_share_in_tree(const yarn::QueueInfo& queue, const std::string& name, double above) {
  const double share = above * (queue.maximum_capacity > 0 ? std::min(queue.maximum_capacity, 1.0f) : 1.0);
  if (queue.children.empty()) {
    if (queue.name == name || queue.path == name || queue.path == "root." + name) return share;
    return std::nullopt;
  }
  for (const auto& child : queue.children) {
    if (auto found = maximum_share_in_tree(child, name, share)) return found;
  }
  return std::nullopt;
}

Need need_of(const yarn::Resources& resources) {
  return {resources.memory_mib, resources.vcores, gpus_of(resources)};
}

// The resource a container asks for past a limit, named, or empty.
std::string exceeded(const Need& need, const Need& limit) {
  if (need.memory_mib > limit.memory_mib) return "memory";
  if (need.vcores > limit.vcores) return "vcores";
  if (need.gpus > limit.gpus) return "GPUs";
  return {};
}

}  // namespace

std::string_view to_string(TaskTypeFit::Verdict verdict) {
  switch (verdict) {
    case TaskTypeFit::Verdict::fits_now: return "fits now";
    case TaskTypeFit::Verdict::waits: return "waits";
    case TaskTypeFit::Verdict::never: return "never fits";
  }
  return "?";
}

bool JobFit::fits_now() const {
  return std::all_of(types.begin(), types.end(),
                     [](const TaskTypeFit& fit) { return fit.verdict == TaskTypeFit::Verdict::fits_now; });
}

bool JobFit::can_ever_fit() const {
  return std::none_of(types.begin(), types.end(),
                      [](const TaskTypeFit& fit) { return fit.verdict == TaskTypeFit::Verdict::never; });
}

Result<ClusterState> read_cluster_state(yarn::ApplicationClient& client, yarn::ResourceManagerRest* rest) {
  auto nodes = client.nodes();
  if (!nodes) return nodes.error();
  auto root = client.queue("root", true);
  if (!root) return root.error();
  ClusterState state{std::move(*nodes), std::move(*root), {}, {}};
  if (!rest) {
    state.limits_unknown = "the scheduler's limits were not asked for";
    return state;
  }
  auto answer = rest->scheduler();
  auto limits = answer ? queue_limits_from(*answer) : Result<std::map<std::string, QueueLimits>>(answer.error());
  if (limits) {
    state.limits = std::move(*limits);
  } else {
    state.limits_unknown = limits.error().message;
  }
  return state;
}

std::string first_never_sentence(const JobFit& fit) {
  for (const auto& type : fit.types) {
    if (type.verdict == TaskTypeFit::Verdict::never) return type.sentence;
  }
  return {};
}

namespace {

// Every container of the job at once against what one user of its queue may
// ever hold of each partition: a gang larger than that waits for ever,
// holding what it got. Empty when it could fit.
std::string whole_job_never(const JobSpec& spec, const ClusterState& cluster,
                            const std::vector<Placement>& placements) {
  std::map<std::string, Room> asked;  // by partition
  std::map<std::string, int> containers;
  for (const auto& placement : placements) {
    Room& sum = asked[placement.label];
    sum.memory_mib += placement.need.memory_mib * placement.instances;
    sum.vcores += placement.need.vcores * placement.instances;
    sum.gpus += placement.need.gpus * placement.instances;
    containers[placement.label] += placement.instances;
  }
  const QueueLimits* limits = limits_of(cluster, spec.queue);
  for (const auto& [partition, need] : asked) {
    Room total;
    for (const auto& node : cluster.nodes) {
      const bool in_partition = partition.empty() ? node.labels.empty() : carries(node, partition);
      if (node.state != "RUNNING" || !in_partition) continue;
      const Room capability = capability_of(node);
      total.memory_mib += capability.memory_mib;
      total.vcores += capability.vcores;
      total.gpus += capability.gpus;
    }
    double share = 1.0;
    std::string whose = "queue " + spec.queue;
    if (limits) {
      share = limits->share_one_user_may_hold(partition);
      whose = "one user of queue " + spec.queue;
    } else if (partition.empty()) {
      share = maximum_share_in_tree(cluster.root, spec.queue, 1.0).value_or(1.0);
    }
    const Need bound{static_cast<std::int64_t>(static_cast<double>(total.memory_mib) * share + 0.5),
                     static_cast<std::int64_t>(static_cast<double>(total.vcores) * share + 0.5),
                     static_cast<std::int64_t>(static_cast<double>(total.gpus) * share + 0.5)};
    const Need wanted{need.memory_mib, need.vcores, need.gpus};
    if (exceeded(wanted, bound).empty()) continue;
    return "its " + plural(containers[partition], "container", "containers") + " on " + where(partition) + " need " +
           describe(wanted) + " at once, but " + whose + " may never hold more than " + describe(bound) + " there (" +
           std::to_string(static_cast<int>(share * 100 + 0.5)) + "% of what those nodes have); ask " +
           "for fewer or smaller containers, or use a queue that may hold more";
  }
  return {};
}

}  // namespace

JobFit will_it_fit(const JobSpec& spec, const ClusterState& cluster) {
  JobFit fit;
  const yarn::QueueInfo* queue = find_queue(cluster.root, spec.queue);
  std::vector<Placement> placements;
  const std::string default_label = queue ? queue->default_label_expression : std::string();
  placements.push_back(
      {"application master", 1,
       Need{static_cast<std::int64_t>(spec.application_master.memory_mib), spec.application_master.vcores, 0},
       default_label});
  for (const auto& task : spec.tasks) {
    placements.push_back({task.type, task.instances,
                          Need{static_cast<std::int64_t>(task.memory_mib), task.vcores, task.gpus},
                          task.node_label.empty() ? default_label : task.node_label});
  }

  std::string queue_problem;
  bool queue_full = false;
  if (!queue) {
    std::vector<std::string> leaves;
    leaf_names(cluster.root, leaves);
    queue_problem =
        "queue \"" + spec.queue + "\" does not exist on this cluster; its leaf queues are " + joined(leaves);
  } else if (queue->state != "RUNNING" && !queue->state.empty()) {
    queue_problem = "queue " + spec.queue + " is " + queue->state + " and takes no new applications";
  } else if (queue->capacity > 0 && queue->maximum_capacity > 0 &&
             queue->current_capacity * queue->capacity >= queue->maximum_capacity * 0.999f) {
    queue_full = true;
    fit.warnings.push_back("queue " + spec.queue + " uses all it may (" +
                           std::to_string(static_cast<int>(queue->maximum_capacity * 100 + 0.5f)) +
                           "% of its parent): new containers wait until its running applications release some");
  }

  std::map<std::string, Room> free_room;  // by node id, after the containers placed so far
  for (const auto& node : cluster.nodes) free_room[node.id] = free_of(node);

  for (const auto& placement : placements) {
    TaskTypeFit result;
    result.type = placement.type;
    result.instances = placement.instances;
    const std::string prefix = placement.type + ": ";
    auto never = [&](const std::string& why) {
      result.verdict = TaskTypeFit::Verdict::never;
      result.sentence = prefix + why;
      fit.types.push_back(result);
    };
    if (!queue_problem.empty()) {
      never(queue_problem);
      continue;
    }
    const auto& labels = queue->accessible_labels;
    if (!placement.label.empty() && std::find(labels.begin(), labels.end(), placement.label) == labels.end() &&
        std::find(labels.begin(), labels.end(), "*") == labels.end()) {
      never("queue " + spec.queue + " cannot use node label " + placement.label + " (it may use: " + joined(labels) +
            ")");
      continue;
    }
    std::vector<const yarn::NodeInfo*> eligible;
    for (const auto& node : cluster.nodes) {
      if (node.state == "RUNNING" && carries(node, placement.label)) eligible.push_back(&node);
    }
    if (placement.need.gpus > 0 && placement.label.empty()) {
      const bool unlabelled_gpus =
          std::any_of(eligible.begin(), eligible.end(), [](const auto* node) { return gpus_of(node->capability) > 0; });
      std::vector<std::string> gpu_labels;
      for (const auto& node : cluster.nodes) {
        if (gpus_of(node.capability) == 0) continue;
        for (const auto& label : node.labels) {
          if (std::find(gpu_labels.begin(), gpu_labels.end(), label) == gpu_labels.end()) gpu_labels.push_back(label);
        }
      }
      if (!unlabelled_gpus && !gpu_labels.empty()) {
        never("asks for " + plural(placement.need.gpus, "GPU", "GPUs") +
              " without a node label, but every node with GPUs carries a label (" + joined(gpu_labels) +
              "), where containers without one never go; set node_label: " + gpu_labels.front());
        continue;
      }
    }
    if (eligible.empty()) {
      never(placement.label.empty() ? std::string("no running node is without a label")
                                    : "no running node carries label " + placement.label);
      continue;
    }
    const bool any_big_enough = std::any_of(
        eligible.begin(), eligible.end(), [&](const auto* node) { return capability_of(*node).holds(placement.need); });
    if (!any_big_enough) {
      Room largest;
      for (const auto* node : eligible) {
        const Room room = capability_of(*node);
        largest.memory_mib = std::max(largest.memory_mib, room.memory_mib);
        largest.vcores = std::max(largest.vcores, room.vcores);
        largest.gpus = std::max(largest.gpus, room.gpus);
      }
      never("no node" + (placement.label.empty() ? std::string() : " with label " + placement.label) +
            " has room for one container of " + describe(placement.need) + "; the largest offer " +
            describe(Need{largest.memory_mib, largest.vcores, largest.gpus}));
      continue;
    }

    if (const QueueLimits* limits = limits_of(cluster, spec.queue)) {
      if (limits->largest_container) {
        Need largest = need_of(*limits->largest_container);
        if (!limits->largest_container->others.count(gpu_resource)) largest.gpus = placement.need.gpus;
        if (const auto what = exceeded(placement.need, largest); !what.empty()) {
          never("asks for containers of " + describe(placement.need) + ", more " + what + " than queue " + spec.queue +
                " grants one container (" + describe(largest) + "); ask for at most that");
          continue;
        }
      }
      if (placement.type == "application master" && limits->masters_limit) {
        const Need masters = need_of(*limits->masters_limit);
        if (placement.need.memory_mib > masters.memory_mib || placement.need.vcores > masters.vcores) {
          never("needs " + describe(placement.need) + ", more than queue " + spec.queue +
                " lets application masters hold (" + describe(Need{masters.memory_mib, masters.vcores, 0}) +
                "); make application_master smaller");
          continue;
        }
      }
    }

    // Each container on the eligible node with the most free memory that holds it.
    for (int instance = 0; instance < placement.instances; ++instance) {
      Room* best = nullptr;
      for (const auto* node : eligible) {
        Room& room = free_room[node->id];
        if (room.holds(placement.need) && (!best || room.memory_mib > best->memory_mib)) best = &room;
      }
      if (!best) break;
      best->take(placement.need);
      ++result.placeable_now;
    }
    const std::string containers = plural(placement.instances, "container", "containers");
    if (result.placeable_now == placement.instances && !(queue_full && placement.label.empty())) {
      result.sentence = prefix + "fits now (" + containers + " of " + describe(placement.need) + " on " +
                        where(placement.label) + ")";
      fit.types.push_back(result);
      continue;
    }
    result.verdict = TaskTypeFit::Verdict::waits;
    if (result.placeable_now == placement.instances) {
      result.sentence = prefix + "waits: the nodes have room, but queue " + spec.queue + " uses all it may";
      fit.types.push_back(result);
      continue;
    }
    // What runs short, over every eligible node, for the containers still without room.
    Room total;
    Room free;
    for (const auto* node : eligible) {
      const Room capability = capability_of(*node);
      const Room& room = free_room[node->id];
      total.memory_mib += capability.memory_mib;
      total.vcores += capability.vcores;
      total.gpus += capability.gpus;
      free.memory_mib += room.memory_mib;
      free.vcores += room.vcores;
      free.gpus += room.gpus;
    }
    const std::int64_t missing = placement.instances - result.placeable_now;
    std::string reason;
    const std::string each = ", and each " + placement.type + " container needs ";
    if (placement.need.gpus > 0 && free.gpus < placement.need.gpus * missing) {
      reason = where_has(placement.label) + std::to_string(free.gpus) + " of its " + plural(total.gpus, "GPU", "GPUs") +
               " free (" + std::to_string(total.gpus - free.gpus) + " in use)" + each +
               std::to_string(placement.need.gpus);
    } else if (free.memory_mib < placement.need.memory_mib * missing) {
      reason = where_has(placement.label) + format_memory_mib(static_cast<std::uint64_t>(free.memory_mib)) + " of " +
               format_memory_mib(static_cast<std::uint64_t>(total.memory_mib)) + " free" + each +
               format_memory_mib(static_cast<std::uint64_t>(placement.need.memory_mib));
    } else if (free.vcores < placement.need.vcores * missing) {
      reason = where_has(placement.label) + std::to_string(free.vcores) + " of " +
               plural(total.vcores, "vcore", "vcores") + " free" + each + std::to_string(placement.need.vcores);
    } else {
      reason = "enough is free on " + where(placement.label) +
               " in all, but no single node has room for a whole container of " + describe(placement.need);
    }
    result.sentence =
        prefix + "waits: " + std::to_string(result.placeable_now) + " of " + containers + " fit now; " + reason;
    // Who holds the room, as far as the queue's own statistics tell.
    if (queue->apps_running >= 0) {
      result.sentence +=
          "; queue " + spec.queue + " runs " + plural(queue->apps_running, "application", "applications") +
          (queue->apps_pending > 0 ? " and has " + std::to_string(queue->apps_pending) + " waiting" : "");
    }
    fit.types.push_back(result);
  }
  if (queue_problem.empty() && fit.can_ever_fit()) {
    if (auto whole = whole_job_never(spec, cluster, placements); !whole.empty()) {
      TaskTypeFit result;
      result.type = "the whole job";
      result.verdict = TaskTypeFit::Verdict::never;
      result.sentence = "the whole job: " + whole;
      fit.types.push_back(std::move(result));
    }
  }
  return fit;
}

}  // namespace spindle::client
