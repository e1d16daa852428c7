#include "spindle/client/json_shapes.h"

namespace spindle::client {

using json = nlohmann::ordered_json;

json history_entry_json(const JobHistoryEntry& job) {
  return {{"application_id", job.application_id},
          {"name", job.name},
          {"user", job.user},
          {"queue", job.queue},
          {"state", job.state},
          {"diagnostics", job.diagnostics},
          {"tracking_url", job.tracking_url},
          {"submitted_ms", job.submitted_ms},
          {"started_ms", job.started_ms},
          {"finished_ms", job.finished_ms}};
}

json metric_point_json(const MetricPoint& point) {
  return {{"source", point.source},       {"run", point.run},    {"tag", point.tag}, {"step", point.step},
          {"wall_time", point.wall_time}, {"value", point.value}};
}

json resources_json(const yarn::Resources& resources) {
  json out{{"memory_mib", resources.memory_mib}, {"vcores", resources.vcores}};
  for (const auto& [name, value] : resources.others) out[name] = value;
  return out;
}

json node_json(const yarn::NodeInfo& node) {
  return {{"id", node.id},
          {"state", node.state},
          {"http_address", node.http_address},
          {"rack", node.rack},
          {"labels", node.labels},
          {"containers", node.containers},
          {"used", resources_json(node.used)},
          {"capability", resources_json(node.capability)},
          {"health_report", node.health_report}};
}

json queue_json(const yarn::QueueInfo& queue) {
  json children = json::array();
  for (const auto& child : queue.children) children.push_back(queue_json(child));
  return {{"name", queue.name},
          {"path", queue.path},
          {"state", queue.state},
          {"capacity", queue.capacity},
          {"maximum_capacity", queue.maximum_capacity},
          {"current_capacity", queue.current_capacity},
          {"apps_running", queue.apps_running},
          {"apps_pending", queue.apps_pending},
          {"accessible_labels", queue.accessible_labels},
          {"default_label_expression", queue.default_label_expression},
          {"children", children}};
}

}  // namespace spindle::client
