#pragma once

#include <cstdint>

namespace spindle {

// Milliseconds since the Unix epoch, for times that are stored, shown or
// compared with another machine's (job records, events, the history).
std::int64_t wall_clock_ms();

// Milliseconds on the monotonic clock, for deadlines and durations, which a
// change of the system time must not stretch or cut short. Only
// clock_gettime() is called, so a process forked from a threaded one may use
// it before exec.
std::int64_t steady_clock_ms();

}  // namespace spindle
