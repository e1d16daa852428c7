#include "login_cookie.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <charconv>

#include "spindle/core/text.h"
#include "spindle/core/text_encodings.h"

namespace spindle::tbproxy {
namespace {

std::string signature(std::string_view payload, std::string_view secret) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), digest.data(), &length);
  return hex_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), length));
}

}  // namespace

std::string make_login_cookie(std::string_view principal, std::chrono::system_clock::time_point expires,
                              std::string_view secret) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(expires.time_since_epoch()).count();
  const auto payload = base64_encode(std::string(principal) + "\n" + std::to_string(seconds));
  return payload + "." + signature(payload, secret);
}

std::optional<std::string> verified_login(std::string_view cookie, std::string_view secret,
                                          std::chrono::system_clock::time_point now) {
  const auto dot = cookie.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto payload = cookie.substr(0, dot);
  if (!same_secret(cookie.substr(dot + 1), signature(payload, secret))) return std::nullopt;
  const auto text = base64_decode(payload);
  if (!text) return std::nullopt;
  const auto newline = text->rfind('\n');
  if (newline == std::string::npos) return std::nullopt;
  long long expiry = 0;
  const auto* first = text->data() + newline + 1;
  const auto* last = text->data() + text->size();
  const auto [end, error] = std::from_chars(first, last, expiry);
  if (error != std::errc() || end != last) return std::nullopt;
  if (std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count() >= expiry) return std::nullopt;
  return text->substr(0, newline);
}

}  // namespace spindle::tbproxy
