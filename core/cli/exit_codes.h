#pragma once

#include "spindle/core/result.h"

namespace spindle::cli {

// The exit codes promised to scripts (docs/cli.md, Exit codes; man spindle).
enum ExitCode : int {
  exit_done = 0,
  exit_job_failed = 1,
  exit_bad_input = 2,
  exit_cluster_unreachable = 3,
};

// A cluster's refusal: an unknown name is the caller's mistake, the rest is the cluster's.
inline int exit_code_for_cluster_error(const Error& error) {
  return error.kind == Error::Kind::not_found ? exit_bad_input : exit_cluster_unreachable;
}

}  // namespace spindle::cli
