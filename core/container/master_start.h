#pragma once

#include <memory>
#include <string>

#include "container/container_context.h"
#include "spindle/core/result.h"
#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::container {

// What an application master (a job's or a sweep's controller) reads before
// anything else: its container, the node's Hadoop configuration, and the
// client of the ResourceManager's scheduler with the container's AMRM token.
struct MasterStart {
  ContainerContext context;
  yarn::HadoopConfiguration configuration;
  std::unique_ptr<yarn::ApplicationMasterClient> scheduler;
};

Result<MasterStart> start_master();

// Registers only to unregister as failed with `why`, so that the user reads
// it in the application's diagnostics.
void fail_registered(yarn::ApplicationMasterClient& scheduler, const std::string& host, const std::string& why);

}  // namespace spindle::container
