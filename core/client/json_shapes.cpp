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

namespace {

template <typename T>
T field(const nlohmann::json& object, const char* key, T fallback = {}) {
  if (!object.is_object()) return fallback;
  const auto found = object.find(key);
  if (found == object.end()) return fallback;
  if constexpr (std::is_same_v<T, std::string>) {
    return found->is_string() ? found->get<std::string>() : fallback;
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    T out;
    if (found->is_array()) {
      for (const auto& each : *found) {
        if (each.is_string()) out.push_back(each.get<std::string>());
      }
    }
    return out;
  } else {
    return found->is_number() ? found->get<T>() : fallback;
  }
}

}  // namespace

yarn::Resources resources_from_json(const nlohmann::json& resources) {
  yarn::Resources out;
  if (!resources.is_object()) return out;
  for (const auto& [name, value] : resources.items()) {
    if (!value.is_number()) continue;
    if (name == "memory_mib") {
      out.memory_mib = value.get<std::int64_t>();
    } else if (name == "vcores") {
      out.vcores = value.get<std::int32_t>();
    } else {
      out.others[name] = value.get<std::int64_t>();
    }
  }
  return out;
}

yarn::NodeInfo node_from_json(const nlohmann::json& node) {
  yarn::NodeInfo out;
  out.id = field<std::string>(node, "id");
  out.state = field<std::string>(node, "state");
  out.http_address = field<std::string>(node, "http_address");
  out.rack = field<std::string>(node, "rack");
  out.labels = field<std::vector<std::string>>(node, "labels");
  out.containers = field<int>(node, "containers");
  out.health_report = field<std::string>(node, "health_report");
  if (node.is_object()) {
    if (const auto used = node.find("used"); used != node.end()) out.used = resources_from_json(*used);
    if (const auto capability = node.find("capability"); capability != node.end()) {
      out.capability = resources_from_json(*capability);
    }
  }
  return out;
}

yarn::QueueInfo queue_from_json(const nlohmann::json& queue) {
  yarn::QueueInfo out;
  out.name = field<std::string>(queue, "name");
  out.path = field<std::string>(queue, "path");
  out.state = field<std::string>(queue, "state");
  out.capacity = field<float>(queue, "capacity");
  out.maximum_capacity = field<float>(queue, "maximum_capacity");
  out.current_capacity = field<float>(queue, "current_capacity");
  out.apps_running = field<std::int64_t>(queue, "apps_running", -1);
  out.apps_pending = field<std::int64_t>(queue, "apps_pending", -1);
  out.accessible_labels = field<std::vector<std::string>>(queue, "accessible_labels");
  out.default_label_expression = field<std::string>(queue, "default_label_expression");
  if (queue.is_object()) {
    if (const auto children = queue.find("children"); children != queue.end() && children->is_array()) {
      for (const auto& child : *children) out.children.push_back(queue_from_json(child));
    }
  }
  return out;
}

JobHistoryEntry history_entry_from_json(const nlohmann::json& job) {
  JobHistoryEntry entry;
  entry.application_id = field<std::string>(job, "application_id");
  entry.name = field<std::string>(job, "name");
  entry.user = field<std::string>(job, "user");
  entry.queue = field<std::string>(job, "queue");
  entry.state = field<std::string>(job, "state");
  entry.diagnostics = field<std::string>(job, "diagnostics");
  entry.tracking_url = field<std::string>(job, "tracking_url");
  entry.submitted_ms = field<std::int64_t>(job, "submitted_ms");
  entry.started_ms = field<std::int64_t>(job, "started_ms");
  entry.finished_ms = field<std::int64_t>(job, "finished_ms");
  return entry;
}

std::optional<MetricPoint> metric_point_from_json(const nlohmann::json& point) {
  if (!point.is_object()) return std::nullopt;
  const auto value = point.find("value");
  if (value == point.end() || !value->is_number()) return std::nullopt;
  MetricPoint metric;
  metric.source = field<std::string>(point, "source");
  metric.run = field<std::string>(point, "run");
  metric.tag = field<std::string>(point, "tag");
  metric.step = field<std::int64_t>(point, "step");
  metric.wall_time = field<double>(point, "wall_time");
  metric.value = value->get<double>();
  return metric;
}

}  // namespace spindle::client
