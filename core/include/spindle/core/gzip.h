#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle {

// gzip (RFC 1952), as HTTP's Content-Encoding names it. The job API
// compresses each cluster version once and its clients expand it.
std::string gzip_compress(std::string_view plain);
// `limit` guards against an answer that expands without end.
Result<std::string> gzip_decompress(std::string_view compressed, std::size_t limit = 256 * 1024 * 1024);

}  // namespace spindle
