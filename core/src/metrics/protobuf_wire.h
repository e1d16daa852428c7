#pragma once

#include <cstdint>
#include <string_view>

namespace spindle::tfevents {

// Just enough of the protobuf wire format to pull a few fields out of
// TensorFlow's event messages without generated code or copies.

enum class WireType : std::uint8_t {
  varint = 0,
  fixed64 = 1,
  length_delimited = 2,
  start_group = 3,
  end_group = 4,
  fixed32 = 5,
};

struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::varint;
  std::uint64_t bits = 0;  // varint, fixed64 and fixed32 fields
  std::string_view bytes;  // length-delimited fields
};

// Takes a varint off the front of `bytes`; false when it is cut short or
// longer than ten bytes.
inline bool take_varint(std::string_view& bytes, std::uint64_t& value) {
  value = 0;
  for (std::size_t i = 0; i < bytes.size() && i < 10; ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    value |= std::uint64_t{byte & 0x7fu} << (7 * i);
    if ((byte & 0x80u) == 0) {
      bytes.remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

inline bool take_fixed(std::string_view& bytes, int size, std::uint64_t& value) {
  if (bytes.size() < static_cast<std::size_t>(size)) return false;
  value = 0;
  for (int i = size - 1; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  bytes.remove_prefix(static_cast<std::size_t>(size));
  return true;
}

// The fields of one serialized message, in order. Groups, which none of the
// messages we read use, are stepped over whole.
class WireReader {
 public:
  explicit WireReader(std::string_view message) : rest_(message) {}

  // The next field; false at the end of the message or when it is malformed.
  bool next(WireField& field) {
    while (!rest_.empty()) {
      if (!take_field(rest_, field)) return false;
      if (field.type == WireType::start_group) {
        if (!skip_group(field.number)) return false;
        continue;
      }
      if (field.type == WireType::end_group) return fail("a group ends that never began");
      return true;
    }
    return false;
  }

  // Why the message is malformed; nullptr when it is well formed so far.
  const char* error() const { return error_; }

 private:
  bool fail(const char* why) {
    error_ = why;
    rest_ = {};
    return false;
  }

  bool take_field(std::string_view& bytes, WireField& field) {
    std::uint64_t key = 0;
    if (!take_varint(bytes, key)) return fail("a field key is cut short");
    field.number = static_cast<std::uint32_t>(key >> 3);
    if (field.number == 0 || (key >> 3) > 0x1fffffff) return fail("a field has number 0 or one above 2^29");
    switch (key & 7) {
      case 0:
        field.type = WireType::varint;
        if (!take_varint(bytes, field.bits)) return fail("a varint field is cut short");
        return true;
      case 1:
        field.type = WireType::fixed64;
        if (!take_fixed(bytes, 8, field.bits)) return fail("a 64-bit field is cut short");
        return true;
      case 2: {
        field.type = WireType::length_delimited;
        std::uint64_t length = 0;
        if (!take_varint(bytes, length) || length > bytes.size()) return fail("a length-delimited field is cut short");
        field.bytes = bytes.substr(0, static_cast<std::size_t>(length));
        bytes.remove_prefix(static_cast<std::size_t>(length));
        return true;
      }
      case 3: field.type = WireType::start_group; return true;
      case 4: field.type = WireType::end_group; return true;
      case 5:
        field.type = WireType::fixed32;
        if (!take_fixed(bytes, 4, field.bits)) return fail("a 32-bit field is cut short");
        return true;
      default: return fail("a field has wire type 6 or 7, which protobuf does not define");
    }
  }

  bool skip_group(std::uint32_t number);

  std::string_view rest_;
  const char* error_ = nullptr;
};

}  // namespace spindle::tfevents
