#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "spindle/core/job_spec.h"

namespace spindle {

// The normalized spec as YAML that parse_job_spec reads back to an equal spec.
std::string to_yaml(const JobSpec& spec);

// The same as a JSON object with the same keys (memory as MiB, timeout as
// seconds), so it is itself a valid spec.
nlohmann::ordered_json to_json(const JobSpec& spec);

}  // namespace spindle
