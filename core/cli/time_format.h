#pragma once

#include <cstdint>
#include <string>

namespace spindle::cli {

// "14:03:27" in local time; "-" for 0.
std::string clock_time(std::int64_t ms_since_epoch);
// "2026-11-21 14:03:27" in local time; "-" for 0.
std::string local_time(std::int64_t ms_since_epoch);

}  // namespace spindle::cli
