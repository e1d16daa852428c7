#pragma once

#include <string>

namespace spindle::container {

struct MasterOptions {
  std::string staged_files_json;  // SPINDLE_RESOURCES: what every task container gets
  std::string staging_location;   // SPINDLE_STAGING: removed once the job is over
};

// Runs the job as its application master: registers, asks for and launches
// containers, runs the job API and the life cycle, unregisters. Returns the
// process's exit code (0 once the job's end was reported to YARN).
int run_application_master(const MasterOptions& options);

}  // namespace spindle::container
