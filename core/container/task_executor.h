#pragma once

#include <string>

namespace spindle::container {

struct ExecutorOptions {
  std::string task;         // "worker:1"
  std::string api_address;  // host:port of the application master's job API
  int attempt = 0;          // how many times this task was started before
  int restarts = 0;         // of those, the restarts that spent its budget
};

// Runs one task in its container: reserves the task's port, registers it,
// waits for the cluster spec, runs the command with the environment
// contract, reports how it ended. Returns the command's exit code.
int run_task_executor(const ExecutorOptions& options);

}  // namespace spindle::container
