#pragma once

// The plugin's way to HDFS: a bridge process of Spindle's own, started on
// first use with a socket pair to it, which makes the WebHDFS requests
// (docs/architecture.md, "hdfs:// inside the task"). The plugin thus loads
// into any TensorFlow and needs nothing of the node but its C library: no
// JVM, no libhdfs, no TLS or Kerberos library in the training process.
//
// Each request takes a connection of its own from a pool, so TensorFlow's
// threads reach HDFS side by side. A process forked from the one that
// started the bridge starts its own on first use.

#include <string>

#include "plugin_mutex.h"

#include "spindle/hdfs_bridge/protocol.h"

namespace spindle::hdfs_bridge {

class BridgeClient {
 public:
  constexpr BridgeClient() = default;
  static BridgeClient& instance();

  // The bridge's reply; a bridge that cannot be started or reached is an
  // `unavailable` reply whose message says why and what to check.
  Reply call(const Request& request);

 private:
  bool start(std::string& error);
  int connection(std::string& error);
  void give_back(int fd);
  void forget_bridge();
  // That the bridge has ended, with its exit status, when it has (it is
  // reaped then) or does within a second; else `otherwise`.
  std::string ended_sentence(const std::string& otherwise);

  // Trivially destructible, so that it outlives static destruction: TensorFlow
  // may close files while the process exits.
  PluginMutex mutex_;
  int owner_pid_ = -1;  // the process that started the bridge
  int control_ = -1;
  int bridge_pid_ = -1;
  static constexpr int max_idle = 64;
  int idle_[max_idle] = {};
  int idle_count_ = 0;
};

// The program the bridge runs as and the argument that makes it one:
// $SPINDLE_HDFS_BRIDGE (a task's own spindle-container), else `spindle` on
// the PATH, as on a gateway.
std::string bridge_program();

}  // namespace spindle::hdfs_bridge
