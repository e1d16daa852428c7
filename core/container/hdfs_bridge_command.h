#pragma once

namespace spindle::container {

// `spindle-container hdfs-bridge --control-fd N`: the HDFS bridge of the
// TensorFlow file system plugin in a task's process (docs/architecture.md,
// "hdfs:// inside the task"), as the container reaches HDFS: the node's
// NameNodes, the job's user and delegation token.
int run_hdfs_bridge(int control_fd);

}  // namespace spindle::container
