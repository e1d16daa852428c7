#pragma once

// What `spindle list`, `spindle kill` and the dashboard do the same way.

#include <set>
#include <string>

#include "spindle/client/history_store.h"
#include "spindle/client/job_connection.h"
#include "spindle/yarn/application_client.h"

namespace spindle::client {

// Puts what the ResourceManager knows of Spindle jobs into the history, so
// that jobs submitted elsewhere and jobs that ended since show up right.
// Answers the jobs the history thinks unfinished that the ResourceManager no
// longer knows (restarted without recovery, or it forgot old ones).
Result<std::set<std::string>> refresh_history_from_cluster(HistoryStore& history, yarn::ApplicationClient& client,
                                                           bool include_finished);

struct KilledJob {
  bool accepted = false;        // the ResourceManager took the kill within the minute
  std::string state;            // YARN's state after the kill
  bool finished = false;        // the ResourceManager reports it ended
  std::string removed_staging;  // the staging directory this call removed, if any
};

// Asks the ResourceManager to kill the job until it takes the request (up
// to a minute), keeps the tasks' last status with its record, and removes
// a staging directory nobody else will (a job killed before its master ran).
Result<KilledJob> kill_job(JobConnection& job, const yarn::HadoopConfiguration& configuration,
                           const std::string& reason);

}  // namespace spindle::client
