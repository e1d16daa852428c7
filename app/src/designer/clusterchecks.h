#pragma once

#include <nlohmann/json.hpp>

#include "cluster/clusterinfo.h"
#include "spindle/core/diagnostic.h"

namespace spindle::gui {

// What the connected cluster would refuse: a queue it lacks, a container
// larger than it grants, a node label no node carries or the queue cannot
// reach. Works on the spec document as typed, so these show even while
// other fields still have problems. Nothing when the cluster is unknown.
Diagnostics checkAgainstCluster(const nlohmann::ordered_json& document, const ClusterInfo& cluster);

}  // namespace spindle::gui
