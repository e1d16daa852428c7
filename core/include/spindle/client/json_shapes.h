#pragma once

// The JSON shapes the CLI's --json output and the dashboard's API share, so
// both say the same thing in the same words.

#include <optional>

#include <nlohmann/json.hpp>

#include "spindle/client/history_store.h"
#include "spindle/yarn/cluster_types.h"

namespace spindle::client {

// A job of the history (list --json, history --json, GET /api/v1/jobs).
nlohmann::ordered_json history_entry_json(const JobHistoryEntry& job);
nlohmann::ordered_json resources_json(const yarn::Resources& resources);
nlohmann::ordered_json node_json(const yarn::NodeInfo& node);
// A training scalar or a container's use (metrics --json, GET /api/v1/jobs/APP/metrics).
nlohmann::ordered_json metric_point_json(const MetricPoint& point);
// The queue and every queue under it.
nlohmann::ordered_json queue_json(const yarn::QueueInfo& queue);

// The way back, for clients of the dashboard's API; fields of another type
// than these write are left at their defaults. Never throw.
yarn::Resources resources_from_json(const nlohmann::json& resources);
yarn::NodeInfo node_from_json(const nlohmann::json& node);
yarn::QueueInfo queue_from_json(const nlohmann::json& queue);
JobHistoryEntry history_entry_from_json(const nlohmann::json& job);
// nullopt when the point has no numeric value.
std::optional<MetricPoint> metric_point_from_json(const nlohmann::json& point);

}  // namespace spindle::client
