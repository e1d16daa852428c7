#include "cli/hdfs_bridge_command.h"

#include <iostream>

#include "cli/exit_codes.h"
#include "spindle/hdfs_bridge/bridge_server.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::cli {

void add_hdfs_bridge_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("hdfs-bridge", "");
  command->group("");
  auto control_fd = std::make_shared<int>(-1);
  command->add_option("--control-fd", *control_fd)->required();
  command->final_callback([control_fd, &exit_code] {
    // On a gateway: the cluster of HADOOP_CONF_DIR, as the user's Kerberos ticket or name says.
    auto configuration = yarn::HadoopConfiguration::from_environment();
    if (!configuration) {
      std::cerr << "spindle hdfs-bridge: " << configuration.error().message << "\n";
      exit_code = exit_cluster_unreachable;
      return;
    }
    auto hdfs = yarn::WebHdfs::from_configuration(*configuration);
    if (!hdfs) {
      std::cerr << "spindle hdfs-bridge: " << hdfs.error().message << "\n";
      exit_code = exit_cluster_unreachable;
      return;
    }
    if (auto private_blocks = hdfs_bridge::transport_keeps_blocks_private(*configuration, *hdfs); !private_blocks) {
      std::cerr << "spindle hdfs-bridge: " << private_blocks.error().message << "\n";
      exit_code = exit_bad_input;
      return;
    }
    exit_code = hdfs_bridge::serve(*control_fd, *hdfs);
  });
}

}  // namespace spindle::cli
