#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle::yarn::logs {

// The bytes of one block or log as TFile's compression algorithms wrote
// them ("none", or "gz": zlib), expanded to exactly `expected_size` bytes.
// `where` names the file and the block's offset for errors.
Result<std::string> decompress(std::string_view stored, const std::string& algorithm, std::uint64_t expected_size,
                               const std::string& where);

}  // namespace spindle::yarn::logs
