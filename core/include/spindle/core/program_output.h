#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "spindle/core/result.h"

namespace spindle {

// Runs PROGRAM with ARGUMENTS directly (no shell, so it works where there is
// none) and returns its standard output. A program that fails, or has not
// ended within `limit`, is an error naming it; one that hangs is killed.
Result<std::string> program_output(const std::string& program, const std::vector<std::string>& arguments,
                                   std::chrono::milliseconds limit);

}  // namespace spindle
