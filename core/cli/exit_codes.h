#pragma once

namespace spindle::cli {

// The exit codes DESIGN.md promises to scripts.
enum ExitCode : int {
  exit_done = 0,
  exit_job_failed = 1,
  exit_bad_input = 2,
  exit_cluster_unreachable = 3,
};

}  // namespace spindle::cli
