#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// A container whose logs are asked for, and the task it ran.
struct LogContainer {
  std::string task;  // "worker:1", or "master" (attempt n: "master#n")
  std::string container;
  std::string node;               // NodeManager id, host:port; empty when unknown
  std::string node_http_address;  // its web server; empty when unknown
};

// Where an application's logs are to be had now.
enum class LogPlace {
  node_managers,  // it runs: each container's node serves them
  aggregated,     // it ended and its logs were collected on the file system
  aggregating,    // it ended and the NodeManagers are still collecting them
  not_kept,       // it ended on a cluster that keeps no logs after a job
};

struct LogText {
  std::string file;
  std::string contents;
  bool aggregated = false;  // read from the aggregated logs, not a NodeManager
};

// A job's container logs, from the NodeManagers while the application runs
// and from the aggregated logs once it ended (TFile or the indexed format,
// wherever yarn.nodemanager.remote-app-log-dir puts them). Shared by
// `spindle logs` and the desktop app's log viewer.
class ContainerLogs {
 public:
  static Result<ContainerLogs> open(const yarn::HadoopConfiguration& configuration, const std::string& application_id);
  ~ContainerLogs();
  ContainerLogs(ContainerLogs&&) noexcept;
  ContainerLogs& operator=(ContainerLogs&&) noexcept;

  // Asks the ResourceManager again; a not_found error when it does not know the application.
  Result<LogPlace> place();
  // The master's containers, one per attempt, oldest first ("master", or "master#2" ...).
  Result<std::vector<LogContainer>> master_containers();
  // Files of one container: `files` by name, or every file the container
  // left when `files` is empty. While the NodeManagers are still collecting
  // the logs of an ended job, their own copies serve; only when they cannot
  // does the answer say that the logs are on their way. Each error names the
  // container and file.
  Result<std::vector<LogText>> read(const LogContainer& container, const std::vector<std::string>& files);
  // The sentence for a place that holds no logs now (aggregating, not kept).
  std::string place_sentence(LogPlace place) const;

 private:
  struct State;
  explicit ContainerLogs(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace spindle::client
