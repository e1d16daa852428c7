#include "spindle/client/queue_limits.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace spindle::client {
namespace {

using nlohmann::json;

// Members read without exceptions: the answer comes from a server and may have any shape.
const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

std::optional<double> number(const json& object, const char* key) {
  const json* value = member(object, key);
  if (!value || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::string text(const json& object, const char* key) {
  const json* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

// Jackson writes a list of one element as that element.
std::vector<const json*> elements(const json* list) {
  std::vector<const json*> items;
  if (!list) return items;
  if (list->is_array()) {
    for (const auto& item : *list) items.push_back(&item);
  } else if (list->is_object()) {
    items.push_back(list);
  }
  return items;
}

std::int64_t whole(double value) {
  constexpr double largest = 9.2e18;
  return static_cast<std::int64_t>(std::clamp(value, -largest, largest));
}

std::optional<yarn::Resources> resources(const json* value) {
  if (!value) return std::nullopt;
  const auto memory = number(*value, "memory");
  const auto vcores = number(*value, "vCores");
  if (!memory || !vcores) return std::nullopt;
  yarn::Resources result;
  result.memory_mib = whole(*memory);
  result.vcores = static_cast<std::int32_t>(std::clamp(*vcores, 0.0, 2.0e9));
  const json* informations = member(*value, "resourceInformations");
  for (const json* information : elements(informations ? member(*informations, "resourceInformation") : nullptr)) {
    const std::string name = text(*information, "name");
    const auto amount = number(*information, "value");
    if (name.empty() || !amount || name == "memory-mb" || name == "vcores") continue;
    result.others[name] = whole(*amount);
  }
  return result;
}

double share(double percent) {
  return std::clamp(percent / 100.0, 0.0, 1.0);
}

void collect(const json& queue, std::map<std::string, QueueLimits>& leaves, int depth) {
  if (depth > 64) return;  // no real tree is this deep
  const json* children = member(queue, "queues");
  const auto inner = elements(children ? member(*children, "queue") : nullptr);
  if (!inner.empty()) {
    for (const json* child : inner) collect(*child, leaves, depth + 1);
    return;
  }
  const std::string name = text(queue, "queueName");
  if (name.empty()) return;
  QueueLimits limits;
  limits.path = text(queue, "queuePath");
  if (const auto guaranteed = number(queue, "absoluteCapacity")) limits.guaranteed_share[""] = share(*guaranteed);
  if (const auto maximum = number(queue, "absoluteMaxCapacity")) limits.maximum_share[""] = share(*maximum);
  const json* capacities = member(queue, "capacities");
  for (const json* partition : elements(capacities ? member(*capacities, "queueCapacitiesByPartition") : nullptr)) {
    const std::string label = text(*partition, "partitionName");
    if (const auto guaranteed = number(*partition, "absoluteCapacity")) {
      limits.guaranteed_share[label] = share(*guaranteed);
    }
    if (const auto maximum = number(*partition, "absoluteMaxCapacity")) limits.maximum_share[label] = share(*maximum);
  }
  if (const auto factor = number(queue, "userLimitFactor")) limits.user_limit_factor = *factor;
  limits.largest_container = resources(member(queue, "maximumAllocation"));
  limits.masters_limit = resources(member(queue, "AMResourceLimit"));
  if (!limits.path.empty()) leaves[limits.path] = limits;
  leaves[name] = std::move(limits);
}

}  // namespace

double QueueLimits::share_one_user_may_hold(const std::string& partition) const {
  const auto maximum = maximum_share.find(partition);
  if (maximum == maximum_share.end()) return 1.0;  // not reported: no bound known
  const auto guaranteed = guaranteed_share.find(partition);
  if (user_limit_factor <= 0 || guaranteed == guaranteed_share.end() || guaranteed->second <= 0) {
    return maximum->second;
  }
  return std::min(maximum->second, guaranteed->second * user_limit_factor);
}

Result<std::map<std::string, QueueLimits>> queue_limits_from(const json& answer) {
  const json* scheduler = member(answer, "scheduler");
  const json* information = scheduler ? member(*scheduler, "schedulerInfo") : nullptr;
  if (!information) return make_error("the ResourceManager's scheduler answer has no schedulerInfo");
  const std::string type = text(*information, "type");
  if (type != "capacityScheduler") {
    return make_error("the cluster's scheduler is " + (type.empty() ? std::string("not named") : type) +
                      ", whose queue limits are not read; only the CapacityScheduler's are");
  }
  std::map<std::string, QueueLimits> leaves;
  collect(*information, leaves, 0);
  if (leaves.empty()) return make_error("the ResourceManager's scheduler answer names no leaf queue");
  return leaves;
}

}  // namespace spindle::client
