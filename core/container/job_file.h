#pragma once

#include <filesystem>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle::container {

// The normalized spec the client staged as job.json, which YARN links into
// every container's working directory.
Result<JobSpec> read_job_file(const std::filesystem::path& file);

}  // namespace spindle::container
