#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace spindle::yarn {

// Resources as YARN counts them; `others` holds countable types such as yarn.io/gpu.
struct Resources {
  std::int64_t memory_mib = 0;
  std::int32_t vcores = 0;
  std::map<std::string, std::int64_t> others;
};

struct ClusterMetrics {
  int node_managers = 0;
  int active = 0;
  int decommissioned = 0;
  int lost = 0;
  int unhealthy = 0;
  int rebooted = 0;
};

struct NodeInfo {
  std::string id;  // host:port of the NodeManager
  std::string http_address;
  std::string rack;
  std::string state;  // RUNNING, UNHEALTHY, LOST, ...
  std::string health_report;
  int containers = 0;
  Resources used;
  Resources capability;
  std::vector<std::string> labels;
};

struct QueueInfo {
  std::string name;
  std::string path;
  std::string state;           // RUNNING, STOPPED, DRAINING
  float capacity = 0;          // share of the parent, 0..1
  float maximum_capacity = 0;  // 0..1
  float current_capacity = 0;  // used share of its capacity
  std::vector<std::string> accessible_labels;
  std::string default_label_expression;
  // Applications running and waiting in it, as the scheduler counts them;
  // -1 when it does not say.
  std::int64_t apps_running = -1;
  std::int64_t apps_pending = -1;
  std::vector<QueueInfo> children;
};

struct NodeLabelInfo {
  std::string name;
  bool exclusive = true;
};

}  // namespace spindle::yarn
