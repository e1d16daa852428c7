#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "spindle/core/job_status.h"

namespace spindle {

// The job's web page, served by the application master at its tracking URL:
// plain HTML that works through the ResourceManager's proxy (relative links,
// no scripts) and reloads itself while the job runs.
// It lists this many tasks at a time, after a count of every type's tasks by phase.
constexpr std::size_t job_page_tasks = 100;
// `type` is the one task type the page lists, or empty for every type.
std::string render_job_page(const JobStatus& status, const std::string& type = "");

// The tasks a page's query asks for (type=worker&page=2); what it cannot
// read leaves the first page of every type.
TaskSelection job_page_selection(std::string_view query);

}  // namespace spindle
