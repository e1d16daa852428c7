#include "spindle/core/sha256.h"

#include <openssl/evp.h>

#include "spindle/core/text_encodings.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace spindle {

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  EVP_DigestInit_ex(context_, EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(context_);
}

void Sha256::add(std::string_view bytes) {
  EVP_DigestUpdate(context_, bytes.data(), bytes.size());
}

std::string Sha256::hex_digest() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_DigestFinal_ex(context_, digest.data(), &length);
  return hex_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), length));
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.add(bytes);
  return hash.hex_digest();
}

Result<std::string> file_sha256(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path.string() + ": " + std::strerror(errno));
  Sha256 hash;
  std::array<char, 1 << 16> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    hash.add(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) return make_error("cannot read " + path.string() + " to the end");
  return hash.hex_digest();
}

}  // namespace spindle
