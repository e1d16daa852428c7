#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle {

// Zstandard frames (RFC 8878), HTTP's Content-Encoding "zstd". The job API
// offers each cluster version in it too: a list of addresses compresses to
// about a third of gzip's size, which counts when 10,000 executors each
// receive it.
std::string zstd_compress(std::string_view plain);
// `limit` guards against an answer that expands without end.
Result<std::string> zstd_decompress(std::string_view compressed, std::size_t limit = 256 * 1024 * 1024);

}  // namespace spindle
