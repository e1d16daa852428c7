#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

// OpenSSL's digest context, kept out of this header.
struct evp_md_ctx_st;

namespace spindle {

// SHA-256 over pieces given one after another, read out as lower-case hex.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void add(std::string_view bytes);
  // Ends the digest; add() must not follow.
  std::string hex_digest();

 private:
  evp_md_ctx_st* context_;
};

std::string sha256_hex(std::string_view bytes);
// The digest of a file's content, read in pieces; an error names the file.
Result<std::string> file_sha256(const std::filesystem::path& path);

}  // namespace spindle
