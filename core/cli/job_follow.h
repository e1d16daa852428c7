#pragma once

#include <iosfwd>
#include <string>

#include "spindle/client/job_connection.h"

namespace spindle::cli {

// Follows a job to its end, printing its events to `progress` (one line
// each). Returns the exit code DESIGN.md promises: 0 succeeded, 1 failed or
// killed, 3 when the ResourceManager cannot be reached.
int follow_job(client::JobConnection& job, std::ostream& progress);

// One line per task, for people.
void print_status_table(const JobStatus& status, std::ostream& out);

// The application's final state and diagnostics, for people.
void print_outcome(const yarn::ApplicationReport& report, std::ostream& out);

}  // namespace spindle::cli
