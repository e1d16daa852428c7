#include "spindle/core/text_encodings.h"

#include <openssl/evp.h>

namespace spindle {

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::string hex_encode(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char byte : bytes) {
    out += digits[byte >> 4];
    out += digits[byte & 0xf];
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.empty()) return std::string();
  if (text.size() % 4 != 0) return std::nullopt;
  // OpenSSL skips leading and trailing white space, which is not base64.
  if (text.find_first_of(" \t\r\n\f\v") != std::string_view::npos) return std::nullopt;
  const auto padding_at = text.find('=');
  const std::size_t padding = padding_at == std::string_view::npos ? 0 : text.size() - padding_at;
  if (padding > 2 || (padding > 0 && text.find_first_not_of('=', padding_at) != std::string_view::npos)) {
    return std::nullopt;
  }
  std::string out(text.size() / 4 * 3, '\0');
  const int written =
      EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                      static_cast<int>(text.size()));
  if (written < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(written) - padding);
  return out;
}

}  // namespace spindle
