#pragma once

#include <string>

#include "container/container_context.h"
#include "spindle/core/result.h"

namespace spindle::container {

// Removes the job's staging directory once the job is over. `location` is
// what the client put in SPINDLE_STAGING: "file:///abs/dir" or the
// directory's WebHDFS URL "http(s)://namenode:port/webhdfs/v1/dir?user.name=u".
// An HDFS directory goes through the container's own way into HDFS
// (hdfs_access.h): the node's NameNodes, the job's delegation token.
Result<void> remove_staging(const std::string& location, const ContainerContext& context);

}  // namespace spindle::container
