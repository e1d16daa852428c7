#pragma once

#include "spindle/yarn/application_types.h"
#include "spindle/yarn/cluster_types.h"
#include "yarn_records.pb.h"
#include "yarn_service.pb.h"

namespace spindle::yarn {

// From the wire's messages to the plain types of the public headers.
Resources from_proto(const wire::yarn::Resource& resource);
ClusterMetrics from_proto(const wire::yarn::YarnClusterMetrics& metrics);
NodeInfo from_proto(const wire::yarn::NodeReport& report);
QueueInfo from_proto(const wire::yarn::QueueInfo& queue);
ApplicationReport from_proto(const wire::yarn::ApplicationReport& report);
AllocatedContainer from_proto(const wire::yarn::Container& container);
CompletedContainer from_proto(const wire::yarn::ContainerStatus& status);
Token from_proto(const wire::hadoop::Token& token);

wire::yarn::Resource to_proto(const Resources& resources);
wire::yarn::ContainerLaunchContext to_proto(const LaunchContext& context);
wire::hadoop::Token to_proto(const Token& token);
// An application's or attempt's diagnostics as YARN reports them, readable: "N/A" is empty, and
// the notes the ResourceManager runs together without a separator ("Attempt recovered after RM
// restart" followed at once by the master's own text) are parted with "; ".
std::string readable_diagnostics(const std::string& reported);
// "hdfs://nn:8020/a/b" -> {scheme, host, port, file}
wire::yarn::Url url_to_proto(const std::string& url);

}  // namespace spindle::yarn
