#pragma once

// Builds TensorFlow event records field by field, so tests can say exactly
// which bytes a reader meets, including ones TensorFlow never writes.

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "metrics/record_framing.h"

namespace spindle::testing {

inline std::string varint(std::uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}

inline std::string little_endian(std::uint64_t value, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}

inline std::string key(std::uint32_t number, int wire_type) {
  return varint((std::uint64_t{number} << 3) | wire_type);
}
inline std::string varint_field(std::uint32_t number, std::uint64_t value) {
  return key(number, 0) + varint(value);
}
inline std::string fixed64_field(std::uint32_t number, std::uint64_t bits) {
  return key(number, 1) + little_endian(bits, 8);
}
inline std::string fixed32_field(std::uint32_t number, std::uint32_t bits) {
  return key(number, 5) + little_endian(bits, 4);
}
inline std::string bytes_field(std::uint32_t number, std::string_view bytes) {
  return key(number, 2) + varint(bytes.size()) + std::string(bytes);
}

inline std::string concat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& part : parts) out += part;
  return out;
}

enum Dtype : std::uint64_t { dt_float = 1, dt_double = 2, dt_int32 = 3, dt_string = 7, dt_int64 = 9, dt_half = 19 };

inline std::string shape(std::initializer_list<std::int64_t> dims) {
  std::string out;
  for (auto size : dims) out += bytes_field(2, varint_field(1, static_cast<std::uint64_t>(size)));
  return out;
}

// TensorProto: dtype, shape and whatever value fields `values` holds.
inline std::string tensor(std::uint64_t dtype, std::initializer_list<std::int64_t> dims, std::string values) {
  return varint_field(1, dtype) + bytes_field(2, shape(dims)) + values;
}

inline std::string plugin_metadata(std::string_view plugin) {
  return bytes_field(1, bytes_field(1, plugin));
}

inline std::string simple_value(std::string_view tag, float value) {
  return bytes_field(1, tag) + fixed32_field(2, std::bit_cast<std::uint32_t>(value));
}

inline std::string tensor_value(std::string_view tag, std::string tensor_proto, std::string_view plugin = "scalars") {
  std::string value = bytes_field(1, tag) + bytes_field(8, tensor_proto);
  if (!plugin.empty()) value += bytes_field(9, plugin_metadata(plugin));
  return value;
}

inline std::string event(std::int64_t step, double wall_time, std::initializer_list<std::string> values) {
  std::string summary;
  for (const auto& value : values) summary += bytes_field(1, value);
  return fixed64_field(1, std::bit_cast<std::uint64_t>(wall_time)) + varint_field(2, static_cast<std::uint64_t>(step)) +
         bytes_field(5, summary);
}

inline std::string file_version_event(double wall_time) {
  return fixed64_field(1, std::bit_cast<std::uint64_t>(wall_time)) + bytes_field(3, "brain.Event:2");
}

inline std::string record(std::string_view event_bytes) {
  return tfevents::frame_record(event_bytes);
}

}  // namespace spindle::testing
