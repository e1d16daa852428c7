#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace spindle::detail {

// Offset of the first byte that does not belong to well-formed UTF-8
// (no overlong forms, no surrogates, nothing above U+10FFFF), if any.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

}  // namespace spindle::detail
