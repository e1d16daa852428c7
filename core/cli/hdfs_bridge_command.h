#pragma once

#include <CLI/CLI.hpp>

namespace spindle::cli {

// `spindle hdfs-bridge --control-fd N`: the HDFS bridge that the TensorFlow
// file system plugin starts on a gateway (docs/architecture.md, "hdfs://
// inside the task"). Not for people to run; hidden from the help.
void add_hdfs_bridge_command(CLI::App& app, int& exit_code);

}  // namespace spindle::cli
