#include "spindle/yarn/token_url_string.h"

#include <algorithm>
#include <array>
#include <optional>

#include "writable/writable_codec.h"

namespace spindle::yarn {
namespace {

constexpr std::string_view url_safe_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64_url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                                static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                                static_cast<unsigned char>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(url_safe_alphabet[(group >> shift) & 0x3F]);
  }
  const std::size_t left = bytes.size() - i;
  if (left > 0) {
    std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (left == 2) group |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(url_safe_alphabet[(group >> 18) & 0x3F]);
    out.push_back(url_safe_alphabet[(group >> 12) & 0x3F]);
    if (left == 2) out.push_back(url_safe_alphabet[(group >> 6) & 0x3F]);
  }
  return out;
}

// Both alphabets decode: Hadoop's decoder takes '+' '/' as well as '-' '_'.
constexpr std::array<std::int8_t, 256> decoding_table() {
  std::array<std::int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (std::size_t i = 0; i < url_safe_alphabet.size(); ++i) {
    table[static_cast<unsigned char>(url_safe_alphabet[i])] = static_cast<std::int8_t>(i);
  }
  table['+'] = 62;
  table['/'] = 63;
  return table;
}

std::optional<std::string> base64_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  // One character left over carries only six bits: never a whole byte.
  if (text.size() % 4 == 1) return std::nullopt;
  static constexpr auto table = decoding_table();
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int held = 0;
  for (const char c : text) {
    const auto value = table[static_cast<unsigned char>(c)];
    if (value < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(static_cast<char>((bits >> held) & 0xFF));
    }
  }
  return out;
}

Error not_a_token(const std::string& why) {
  return make_error("the delegation token received is not a Hadoop token url string (" + why +
                    "); the server may not be a Hadoop service or may have answered with an error page");
}

bool is_parameter_start(std::string_view text, std::size_t at) {
  return at == 0 || text[at - 1] == '?' || text[at - 1] == '&';
}

}  // namespace

std::string encode_token_url_string(const Token& token) {
  std::string bytes;
  writable::append_sized(bytes, token.identifier);
  writable::append_sized(bytes, token.password);
  writable::append_sized(bytes, token.kind);
  writable::append_sized(bytes, token.service);
  return base64_url_encode(bytes);
}

Result<Token> decode_token_url_string(std::string_view text) {
  if (text.empty()) return not_a_token("it is empty");
  auto bytes = base64_decode(text);
  if (!bytes) return not_a_token("it is not Base64");
  std::string_view rest = *bytes;
  Token token;
  for (auto [field, what] : {std::pair{&token.identifier, "identifier"}, std::pair{&token.password, "password"},
                             std::pair{&token.kind, "kind"}, std::pair{&token.service, "service"}}) {
    auto value = writable::take_sized(rest);
    if (!value) return not_a_token(std::string("it ends inside its ") + what);
    *field = std::move(*value);
  }
  if (!rest.empty()) return not_a_token("it has bytes after its service");
  return token;
}

std::string redact_token_parameters(std::string_view text) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    for (std::string_view name : {std::string_view("delegation="), std::string_view("token=")}) {
      if (text.compare(at, name.size(), name) != 0 || !is_parameter_start(text, at)) continue;
      const auto value_start = at + name.size();
      const auto value_end = std::min(text.find_first_of("&# \t\r\n\"'<>", value_start), text.size());
      out.append(text.substr(copied, value_start - copied));
      out.append("<redacted>");
      copied = value_end;
      at = value_end;
      break;
    }
  }
  out.append(text.substr(std::min(copied, text.size())));
  return out;
}

}  // namespace spindle::yarn
