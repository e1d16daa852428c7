#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

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
  // Its server's certificate pin when it serves behind TLS, else empty.
  std::string certificate_sha256;
  std::optional<int> exit_code;
  std::string exit_description;
  // While a running task is stalled (stall_timeout), the sentence that says so; else empty.
  std::string stalled;
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

// One task type's tasks counted by phase: what a job of thousands of tasks
// shows first, whichever of its tasks are listed.
struct TaskTypeSummary {
  std::string type;
  int tasks = 0;
  std::map<std::string, int> phases;  // phase name to count, only phases some task is in
  int restarts = 0;
};

// Which tasks a status lists: by default all of them; or those of one type,
// and a page of those.
struct TaskSelection {
  std::string type;  // empty: every type
  std::size_t offset = 0;
  std::size_t limit = std::numeric_limits<std::size_t>::max();
};

// The selection a query string asks for (type=worker&offset=100&limit=50);
// an error names the parameter that is wrong.
Result<TaskSelection> parse_task_selection(std::string_view query);

// A job as its application master reports it (GET /v1/status).
struct JobStatus {
  std::string application_id;
  std::string name;
  std::string state;  // running, succeeded, failed, killed
  std::string diagnostics;
  std::string waiting_for;  // what a running job waits for (its containers), in a sentence; else empty
  std::uint64_t cluster_version = 0;
  std::int64_t started_ms = 0;
  std::vector<TaskTypeSummary> types;          // every type of the job, in the order of its tasks
  std::string tensorboard_address;             // host:port of a running TensorBoard task, listed or not
  std::string tensorboard_certificate_sha256;  // its certificate's pin behind TLS, else empty
  // When the first of the job's delegation tokens reaches its maximum
  // lifetime (ms since the epoch), and which kind it is; 0 without tokens.
  std::int64_t tokens_end_ms = 0;
  std::string tokens_end_kind;
  std::size_t tasks_selected = 0;  // tasks the selection matched, listed or not
  std::size_t tasks_offset = 0;    // of the first listed one among them
  std::vector<TaskStatus> tasks;   // the listed ones
};

JobStatus job_status(const JobLifecycle& lifecycle, const std::string& application_id, std::uint64_t cluster_version,
                     std::int64_t started_ms, const TaskSelection& selection = {});
nlohmann::ordered_json to_json(const JobStatus& status);
Result<JobStatus> parse_job_status(const std::string& json);
Result<JobStatus> job_status_from_json(const nlohmann::json& json);

}  // namespace spindle
