#pragma once

#include <filesystem>

#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"

namespace spindle {

// Warnings, not errors, for a job's `output` and `input` when they are paths
// on each node's own disk: the nodes of a cluster share none, so tasks on
// different nodes would not see each other's files (some clusters do mount
// one path everywhere, over NFS). Each names the key and, when the spec
// came from `spec_file`, its line. Empty when both are in HDFS or unset.
Diagnostics location_warnings(const JobSpec& spec, const std::filesystem::path& spec_file = {});

}  // namespace spindle
