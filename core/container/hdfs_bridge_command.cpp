#include "container/hdfs_bridge_command.h"

#include <iostream>

#include "container/container_context.h"
#include "container/hdfs_access.h"
#include "spindle/hdfs_bridge/bridge_server.h"

namespace spindle::container {

int run_hdfs_bridge(int control_fd) {
  auto context = read_container_context();
  if (!context) {
    std::cerr << "spindle hdfs bridge: " << context.error().message << "\n";
    return 1;
  }
  auto hdfs = container_hdfs(*context);
  if (!hdfs) {
    std::cerr << "spindle hdfs bridge: " << hdfs.error().message << "\n";
    return 1;
  }
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << "spindle hdfs bridge: " << configuration.error().message << "\n";
    return 1;
  }
  if (auto private_blocks = hdfs_bridge::transport_keeps_blocks_private(*configuration, *hdfs); !private_blocks) {
    std::cerr << "spindle hdfs bridge: " << private_blocks.error().message << "\n";
    return 1;
  }
  return hdfs_bridge::serve(control_fd, *hdfs);
}

}  // namespace spindle::container
