#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace spindle {

// Bytes as text: standard base64 (RFC 4648 section 4, with padding) and hex.

// Standard base64, with padding.
std::string base64_encode(std::string_view bytes);

// Lower-case hexadecimal, two digits a byte.
std::string hex_encode(std::string_view bytes);

// Nothing unless the text is whole base64: its length a multiple of four,
// only the alphabet, padding only at the end.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace spindle
