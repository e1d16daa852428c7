#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Hadoop's Writable encodings that tokens and credentials files use:
// WritableUtils variable-length integers and length-prefixed byte strings
// (a Text is the same: a vint length, then its UTF-8 bytes).
namespace spindle::yarn::writable {

void append_vlong(std::string& out, std::int64_t value);
// A vint length, then the bytes.
void append_sized(std::string& out, std::string_view bytes);

// Reads one variable-length integer off the front of `in`; nullopt when
// `in` ends inside it (then `in` is left as it was).
std::optional<std::int64_t> take_vlong(std::string_view& in);
// Reads a length-prefixed byte string; nullopt when the length is negative,
// above what an int holds (Java arrays cannot be larger), or past the end.
std::optional<std::string> take_sized(std::string_view& in);

}  // namespace spindle::yarn::writable
