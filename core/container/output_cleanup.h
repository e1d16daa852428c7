#pragma once

#include <string>

#include "container/container_context.h"
#include "spindle/core/result.h"

namespace spindle::container {

// Once the job is over, removes from its output in HDFS the temporary copies
// that executors killed in the middle of a copy left there
// (".spindle-<task>-<n>.partial", docs/outputs-on-hdfs.md). Every executor
// has ended by then, so none of them is still being written. An output that
// is not in HDFS has none. Returns how many were removed.
Result<int> remove_stray_copies(const std::string& output, const ContainerContext& context);

}  // namespace spindle::container
