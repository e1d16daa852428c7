#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "spindle/client/job_connection.h"

namespace spindle::cli {

// Follows a job to its end, printing its events to `progress` (one line
// each). Returns the exit code docs/cli.md promises: 0 succeeded, 1 failed or
// killed, 3 when the ResourceManager cannot be reached.
int follow_job(client::JobConnection& job, std::ostream& progress);

// The configuration of $HADOOP_CONF_DIR and a connection to the job a
// command names; on failure says why on stderr and sets `exit_code`.
struct OpenedJob {
  yarn::HadoopConfiguration configuration;
  client::JobConnection job;
};
std::optional<OpenedJob> open_job(const std::string& application_id, int& exit_code);

// One line per task, for people.
void print_status_table(const JobStatus& status, std::ostream& out);

// The application's final state and diagnostics, for people.
void print_outcome(const yarn::ApplicationReport& report, std::ostream& out);

}  // namespace spindle::cli
