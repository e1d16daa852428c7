#pragma once

#include <string>

namespace spindle::container {

// A check that this binary works on a node without YARN: one process plays
// the application master's job API, another a task executor, and the task
// registers across the network, receives the cluster, runs a program and
// reports how it ended. Used to prove the binary self-contained in an empty
// root directory; a platform engineer can run it on a new node the same way.
struct SelfCheckOptions {
  std::string listen_host;  // master: the host name whose address the job API binds
  std::string api_address;  // task: host:port of the master's job API
  std::string own_host;     // task: the host name it advertises (default: the host's name)
  std::string secret;       // shared by both; a check's, never a job's
};

// Prints "job API at HOST:PORT" once it listens, then waits for the task's
// result. Returns 0 when the task registered and its program succeeded.
int run_self_check_master(const SelfCheckOptions& options);

// Registers worker:0, waits for the cluster, runs this binary's --version
// without a shell (the root may hold nothing else) and reports the result.
int run_self_check_task(const SelfCheckOptions& options);

}  // namespace spindle::container
