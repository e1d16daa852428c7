// What a ResourceManager answers at /ws/v1/cluster/scheduler, read as
// Spindle reads it for the queues' limits, then used to place a job: any
// bytes give limits or a sentence, never a crash.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "spindle/client/queue_limits.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/spec_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto answer = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded()) return 0;
  auto limits = spindle::client::queue_limits_from(answer);
  if (!limits.ok()) return 0;
  static const auto spec = [] {
    spindle::SpecParseOptions options;
    options.check_files = false;
    return *spindle::parse_job_spec(
        "name: f\ntasks: {worker: {instances: 3, memory: 2 GiB, gpus: 1, node_label: gpu, command: x}}\n", options);
  }();
  // One node with the label and one without, and the spec's queue as a leaf that may use every label.
  static const auto cluster = [] {
    spindle::client::ClusterState made;
    spindle::yarn::NodeInfo plain;
    plain.id = "a:1";
    plain.state = "RUNNING";
    plain.capability = {8192, 4, {}};
    spindle::yarn::NodeInfo gpu = plain;
    gpu.id = "b:1";
    gpu.capability.others["yarn.io/gpu"] = 2;
    gpu.labels = {"gpu"};
    made.nodes = {plain, gpu};
    made.root.name = made.root.path = "root";
    spindle::yarn::QueueInfo leaf;
    leaf.name = "default";
    leaf.path = "root.default";
    leaf.accessible_labels = {"*"};
    made.root.children = {leaf};
    return made;
  }();
  auto state = cluster;
  state.limits = std::move(*limits);
  for (const auto& [name, queue] : state.limits) {
    (void)queue.share_one_user_may_hold("");
    (void)queue.share_one_user_may_hold("gpu");
  }
  (void)spindle::client::will_it_fit(spec, state);
  return 0;
}
