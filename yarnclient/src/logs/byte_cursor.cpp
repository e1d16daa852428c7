#include "logs/byte_cursor.h"

namespace spindle::yarn::logs {

std::optional<std::uint8_t> ByteCursor::u8() {
  if (remaining() < 1) return std::nullopt;
  return static_cast<std::uint8_t>(bytes_[position_++]);
}

std::optional<std::uint16_t> ByteCursor::u16() {
  if (remaining() < 2) return std::nullopt;
  std::uint16_t value = 0;
  for (int i = 0; i < 2; ++i)
    value = static_cast<std::uint16_t>(value << 8 | static_cast<std::uint8_t>(bytes_[position_++]));
  return value;
}

std::optional<std::int32_t> ByteCursor::i32() {
  if (remaining() < 4) return std::nullopt;
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value = value << 8 | static_cast<std::uint8_t>(bytes_[position_++]);
  return static_cast<std::int32_t>(value);
}

std::optional<std::int64_t> ByteCursor::i64() {
  if (remaining() < 8) return std::nullopt;
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = value << 8 | static_cast<std::uint8_t>(bytes_[position_++]);
  return static_cast<std::int64_t>(value);
}

std::optional<std::string_view> ByteCursor::bytes(std::size_t count) {
  if (remaining() < count) return std::nullopt;
  auto piece = bytes_.substr(position_, count);
  position_ += count;
  return piece;
}

std::optional<std::int64_t> ByteCursor::tfile_vlong() {
  const auto start = position_;
  auto first_byte = u8();
  if (!first_byte) return std::nullopt;
  const std::int64_t first = static_cast<std::int8_t>(*first_byte);
  if (first >= -32) return first;
  // The first byte says how many bytes follow and carries the top bits.
  auto tail = [&](int count) -> std::optional<std::uint64_t> {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
      auto next = u8();
      if (!next) return std::nullopt;
      value = value << 8 | *next;
    }
    return value;
  };
  std::optional<std::uint64_t> rest;
  std::int64_t value = 0;
  if (first >= -72) {
    if ((rest = tail(1))) value = (first + 52) * 256 + static_cast<std::int64_t>(*rest);
  } else if (first >= -104) {
    if ((rest = tail(2))) value = (first + 88) * 65536 + static_cast<std::int64_t>(*rest);
  } else if (first >= -120) {
    if ((rest = tail(3))) value = (first + 112) * 16777216 + static_cast<std::int64_t>(*rest);
  } else {
    const int length = static_cast<int>(first + 129);
    if (length < 4 || length > 8) {
      position_ = start;
      return std::nullopt;
    }
    if ((rest = tail(length))) {
      // Sign-extend the big-endian two's complement of `length` bytes.
      const int unused = 64 - 8 * length;
      value = static_cast<std::int64_t>(*rest << unused) >> unused;
    }
  }
  if (!rest) {
    position_ = start;
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> ByteCursor::tfile_string() {
  const auto start = position_;
  auto length = tfile_vlong();
  if (!length) return std::nullopt;
  if (*length == -1) return std::string();
  if (*length < 0 || static_cast<std::uint64_t>(*length) > remaining()) {
    position_ = start;
    return std::nullopt;
  }
  return std::string(*bytes(static_cast<std::size_t>(*length)));
}

std::optional<std::string> ByteCursor::java_utf() {
  const auto start = position_;
  auto length = u16();
  if (!length) return std::nullopt;
  auto text = bytes(*length);
  if (!text) {
    position_ = start;
    return std::nullopt;
  }
  return std::string(*text);
}

}  // namespace spindle::yarn::logs
