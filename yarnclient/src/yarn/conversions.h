#pragma once

#include "spindle/yarn/cluster_types.h"
#include "yarn_records.pb.h"

namespace spindle::yarn {

// From the wire's messages to the plain types of the public headers.
Resources from_proto(const wire::yarn::Resource& resource);
ClusterMetrics from_proto(const wire::yarn::YarnClusterMetrics& metrics);
NodeInfo from_proto(const wire::yarn::NodeReport& report);
QueueInfo from_proto(const wire::yarn::QueueInfo& queue);

}  // namespace spindle::yarn
