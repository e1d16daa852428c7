#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"

namespace spindle {

class JobLifecycle;

// A container a task ran in before it was restarted.
struct EarlierAttempt {
  std::string container;
  std::string node;
  std::string address;
  std::optional<int> exit_code;
  std::string exit_description;
  std::string log_url;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
};

// One task as `spindle status` and the GUI show it.
struct TaskStatus {
  std::string task;   // "worker:1"
  std::string phase;  // requested, launching, registered, running, succeeded, failed, stopped
  std::string container;
  std::string node;
  std::string node_http_address;
  std::string address;  // host:port it registered, empty before
  std::optional<int> exit_code;
  std::string exit_description;
  int restarts = 0;
  int lost = 0;
  std::string log_url;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
  std::uint64_t rss_bytes = 0;
  double cpu_seconds = 0;
  std::uint64_t cluster_version = 0;             // the newest cluster spec the task has seen
  std::vector<EarlierAttempt> earlier_attempts;  // oldest first; the current one is above
};

// A job as its application master reports it (GET /v1/status).
struct JobStatus {
  std::string application_id;
  std::string name;
  std::string state;  // running, succeeded, failed, killed
  std::string diagnostics;
  std::uint64_t cluster_version = 0;
  std::int64_t started_ms = 0;
  std::vector<TaskStatus> tasks;
};

JobStatus job_status(const JobLifecycle& lifecycle, const std::string& application_id, std::uint64_t cluster_version,
                     std::int64_t started_ms);
std::string to_json(const JobStatus& status);
Result<JobStatus> parse_job_status(const std::string& json);

}  // namespace spindle
