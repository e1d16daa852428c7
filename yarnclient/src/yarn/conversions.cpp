#include "yarn/conversions.h"

namespace spindle::yarn {
namespace {

std::string node_state_name(wire::yarn::NodeState state) {
  switch (state) {
    case wire::yarn::NS_NEW: return "NEW";
    case wire::yarn::NS_RUNNING: return "RUNNING";
    case wire::yarn::NS_UNHEALTHY: return "UNHEALTHY";
    case wire::yarn::NS_DECOMMISSIONED: return "DECOMMISSIONED";
    case wire::yarn::NS_LOST: return "LOST";
    case wire::yarn::NS_REBOOTED: return "REBOOTED";
    case wire::yarn::NS_DECOMMISSIONING: return "DECOMMISSIONING";
    case wire::yarn::NS_SHUTDOWN: return "SHUTDOWN";
  }
  return "UNKNOWN";
}

std::string queue_state_name(wire::yarn::QueueState state) {
  switch (state) {
    case wire::yarn::Q_STOPPED: return "STOPPED";
    case wire::yarn::Q_RUNNING: return "RUNNING";
    case wire::yarn::Q_DRAINING: return "DRAINING";
  }
  return "UNKNOWN";
}

}  // namespace

Resources from_proto(const wire::yarn::Resource& resource) {
  Resources out;
  out.memory_mib = resource.memory();
  out.vcores = resource.virtual_cores();
  for (const auto& info : resource.resource_value_map()) {
    // Memory and vcores come in fields of their own, which win.
    if (info.key() == "memory-mb" || info.key() == "vcores") continue;
    out.others[info.key()] = info.value();
  }
  return out;
}

ClusterMetrics from_proto(const wire::yarn::YarnClusterMetrics& metrics) {
  return ClusterMetrics{metrics.num_node_managers(), metrics.num_active_nms(),    metrics.num_decommissioned_nms(),
                        metrics.num_lost_nms(),      metrics.num_unhealthy_nms(), metrics.num_rebooted_nms()};
}

NodeInfo from_proto(const wire::yarn::NodeReport& report) {
  NodeInfo node;
  node.id = report.node_id().host() + ":" + std::to_string(report.node_id().port());
  node.http_address = report.http_address();
  node.rack = report.rack_name();
  node.state = node_state_name(report.node_state());
  node.health_report = report.health_report();
  node.containers = report.num_containers();
  node.used = from_proto(report.used());
  node.capability = from_proto(report.capability());
  node.labels.assign(report.node_labels().begin(), report.node_labels().end());
  return node;
}

QueueInfo from_proto(const wire::yarn::QueueInfo& queue) {
  QueueInfo out;
  out.name = queue.queue_name();
  out.path = queue.queue_path();
  out.state = queue_state_name(queue.state());
  out.capacity = queue.capacity();
  out.maximum_capacity = queue.maximum_capacity();
  out.current_capacity = queue.current_capacity();
  out.accessible_labels.assign(queue.accessible_node_labels().begin(), queue.accessible_node_labels().end());
  out.default_label_expression = queue.default_node_label_expression();
  for (const auto& child : queue.child_queues()) out.children.push_back(from_proto(child));
  return out;
}

}  // namespace spindle::yarn
