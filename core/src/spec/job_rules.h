#pragma once

#include <functional>
#include <string>

#include "spec/yaml_fields.h"
#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"

namespace spindle::detail {

// Finds where a field was written, for specs read from text; rules built from
// other sources (the shorthand, the GUI) pass a locator that knows nothing.
using FieldLocator = std::function<YamlFields::Place(const std::string& field)>;

// The rules that span fields: task combinations, counts, what needs what.
Diagnostics check_job_rules(const JobSpec& spec, const FieldLocator& locate, const std::string& source_name);

}  // namespace spindle::detail
