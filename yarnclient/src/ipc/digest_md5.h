#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// The fields of a DIGEST-MD5 challenge (RFC 2831, 2.1.1) Spindle uses.
struct DigestChallenge {
  std::vector<std::string> realms;
  std::string nonce;
  std::vector<std::string> qop;  // "auth" when the server names none
  bool utf8 = false;
  std::string algorithm;
};

// Parses a challenge; a malformed one is an error naming what is wrong.
Result<DigestChallenge> parse_digest_challenge(std::string_view text);

// The client side of DIGEST-MD5 with quality of protection "auth", the only
// one Hadoop uses unless hadoop.rpc.protection asks for more.
class DigestMd5Client {
 public:
  // `service` and `host` make the digest-uri "service/host"; Hadoop's token
  // authentication uses an empty service and the host "default".
  DigestMd5Client(std::string username, std::string password, std::string service, std::string host,
                  std::function<std::string()> make_cnonce);

  // The response to the server's challenge.
  Result<std::string> respond(std::string_view challenge);
  // Checks the server's "rspauth=..." proof that it knew the password too.
  Result<void> verify_server(std::string_view final_message) const;

 private:
  std::string username_;
  std::string password_;
  std::string digest_uri_;
  std::function<std::string()> make_cnonce_;
  std::string realm_;
  std::string nonce_;
  std::string cnonce_;
  std::string expected_rspauth_;
};

// Lower-case hex of MD5(data).
std::string md5_hex(std::string_view data);

// Standard Base64 with padding, as Hadoop encodes token identifiers and passwords.
std::string base64(std::string_view bytes);

// A fresh random client nonce.
std::string random_cnonce();

}  // namespace spindle::yarn::ipc
