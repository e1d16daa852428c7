#pragma once

#include <string>

#include "spindle/core/job_status.h"

namespace spindle {

// The job's web page, served by the application master at its tracking URL:
// plain HTML that works through the ResourceManager's proxy (relative links,
// no scripts) and reloads itself while the job runs.
std::string render_job_page(const JobStatus& status);

}  // namespace spindle
