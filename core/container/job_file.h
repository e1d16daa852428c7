#pragma once

#include "container/container_context.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle::container {

// The normalized spec the client put into the job's credentials (see
// container_contract::job_spec_alias), which every container of the job gets.
Result<JobSpec> read_job_spec(const ContainerContext& context);

}  // namespace spindle::container
