#pragma once

#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// Before a job starts: its output, when in HDFS, exists as a directory
// this user may write (the permission, a quota on names, a path that is a
// file). A local output is the nodes' business and is not looked at.
Result<void> check_output_writable(const std::string& output, const yarn::HadoopConfiguration& configuration);

}  // namespace spindle::client
