#pragma once

#include <cstdint>
#include <string_view>

namespace spindle::tfevents {

// CRC-32C (Castagnoli), the checksum of TFRecord framing. Uses the CPU's
// crc32 instruction where there is one.
std::uint32_t crc32c(std::string_view data);
// The same without the CPU instruction, so tests can hold one against the other.
std::uint32_t crc32c_portable(std::string_view data);

// TFRecord stores checksums rotated and offset: a CRC computed over bytes
// that hold a CRC would otherwise be weak.
constexpr std::uint32_t mask_crc(std::uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

inline std::uint32_t masked_crc32c(std::string_view data) {
  return mask_crc(crc32c(data));
}

}  // namespace spindle::tfevents
