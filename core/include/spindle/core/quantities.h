#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle {

// Parses a memory size into MiB, the unit YARN allocates in. A bare number is
// MiB; units are k/K/KiB, m/M/MiB, g/G/GiB, t/T/TiB (all binary), with or
// without a space, and fractions such as "1.5 GiB". Fractions of a MiB round up.
Result<std::uint64_t> parse_memory_mib(std::string_view text);

// "2048 MiB" style rendering that parse_memory_mib reads back.
std::string format_memory_mib(std::uint64_t mib);

// Parses a duration: a bare number is seconds; otherwise one or more
// number+unit parts with units d, h, m, s (e.g. "90s", "1h30m", "2d").
Result<std::chrono::seconds> parse_duration(std::string_view text);

// Shortest form parse_duration reads back, e.g. "1h30m".
std::string format_duration(std::chrono::seconds duration);

}  // namespace spindle
