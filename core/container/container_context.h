#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::container {

// The alias under which the client puts the job's secret into the
// credentials of every container it and the application master launch.
inline constexpr const char* secret_alias = "spindle.job.secret";

// What YARN tells a container about itself through its environment.
struct ContainerContext {
  std::string container_id;    // CONTAINER_ID
  std::string application_id;  // derived from the container id
  int attempt = 1;             // the application attempt the container belongs to
  std::string host;            // NM_HOST: the name YARN knows the node by
  std::string user;            // USER
  std::string secret;          // from $HADOOP_TOKEN_FILE_LOCATION
};

Result<ContainerContext> read_container_context();

}  // namespace spindle::container
