#include "writable/writable_codec.h"

#include <limits>

namespace spindle::yarn::writable {

// One byte holds -112..127 itself. Otherwise the first byte says how many
// big-endian bytes follow (1..8) and whether they hold the one's complement
// of a negative number: -113..-120 positive, -121..-128 negative.
void append_vlong(std::string& out, std::int64_t value) {
  if (value >= -112 && value <= 127) {
    out.push_back(static_cast<char>(value));
    return;
  }
  int marker = -112;
  if (value < 0) {
    value = ~value;
    marker = -120;
  }
  int bytes = 0;
  for (std::int64_t rest = value; rest != 0; rest >>= 8) ++bytes;
  out.push_back(static_cast<char>(marker - bytes));
  for (int index = bytes; index != 0; --index) {
    out.push_back(static_cast<char>((value >> ((index - 1) * 8)) & 0xFF));
  }
}

void append_sized(std::string& out, std::string_view bytes) {
  append_vlong(out, static_cast<std::int64_t>(bytes.size()));
  out.append(bytes);
}

std::optional<std::int64_t> take_vlong(std::string_view& in) {
  if (in.empty()) return std::nullopt;
  const auto first = static_cast<std::int8_t>(in.front());
  if (first >= -112) {
    in.remove_prefix(1);
    return first;
  }
  const bool negative = first < -120;
  const auto count = static_cast<std::size_t>(negative ? -(first + 120) : -(first + 112));
  if (in.size() < 1 + count) return std::nullopt;
  std::uint64_t value = 0;
  for (std::size_t i = 1; i <= count; ++i) value = (value << 8) | static_cast<unsigned char>(in[i]);
  in.remove_prefix(1 + count);
  const auto signed_value = static_cast<std::int64_t>(value);
  return negative ? ~signed_value : signed_value;
}

std::optional<std::string> take_sized(std::string_view& in) {
  std::string_view rest = in;
  const auto length = take_vlong(rest);
  if (!length || *length < 0 || *length > std::numeric_limits<std::int32_t>::max() ||
      static_cast<std::uint64_t>(*length) > rest.size()) {
    return std::nullopt;
  }
  std::string bytes(rest.substr(0, static_cast<std::size_t>(*length)));
  rest.remove_prefix(static_cast<std::size_t>(*length));
  in = rest;
  return bytes;
}

}  // namespace spindle::yarn::writable
