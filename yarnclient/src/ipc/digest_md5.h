#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ipc/digest_security_layer.h"
#include "ipc/security_layer.h"
#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// The fields of a DIGEST-MD5 challenge (RFC 2831, 2.1.1) Spindle uses.
struct DigestChallenge {
  std::vector<std::string> realms;
  std::string nonce;
  std::vector<std::string> qop;  // "auth" when the server names none
  bool utf8 = false;
  std::string algorithm;
  std::vector<std::string> ciphers;  // for "auth-conf"
  std::size_t max_buffer = 65536;    // the largest sealed message the server takes
};

// Parses a challenge; a malformed one is an error naming what is wrong.
Result<DigestChallenge> parse_digest_challenge(std::string_view text);

// The client side of DIGEST-MD5: quality of protection "auth", "auth-int" or
// "auth-conf", the strongest that both the server's offer and `allowed`
// (hadoop.rpc.protection) name.
class DigestMd5Client {
 public:
  // `service` and `host` make the digest-uri "service/host"; Hadoop's token
  // authentication uses an empty service and the host "default".
  DigestMd5Client(std::string username, std::string password, std::string service, std::string host,
                  std::function<std::string()> make_cnonce,
                  std::vector<RpcProtection> allowed = {RpcProtection::authentication});

  // The response to the server's challenge.
  Result<std::string> respond(std::string_view challenge);
  // Checks the server's "rspauth=..." proof that it knew the password too.
  Result<void> verify_server(std::string_view final_message) const;
  // What the exchange agreed on; known once respond() succeeded.
  RpcProtection protection() const { return protection_; }
  // The layer that seals the connection from now on; null for "auth". A
  // server's end of the same exchange (for scripted servers in tests) takes
  // DigestRole::server.
  Result<std::unique_ptr<SecurityLayer>> security_layer(DigestRole role = DigestRole::client) const;
  // The rspauth the server must send for this exchange.
  const std::string& expected_server_proof() const { return expected_rspauth_; }

 private:
  std::string username_;
  std::string password_;
  std::string digest_uri_;
  std::function<std::string()> make_cnonce_;
  std::string realm_;
  std::string nonce_;
  std::string cnonce_;
  std::string expected_rspauth_;
  std::vector<RpcProtection> allowed_;
  RpcProtection protection_ = RpcProtection::authentication;
  std::string session_key_;  // H(A1), raw
  std::size_t server_max_buffer_ = 65536;
};

// MD5(data): its 16 bytes, and their lower-case hex.
std::string md5_raw(std::string_view data);
std::string md5_hex(std::string_view data);

// Standard Base64 with padding, as Hadoop encodes token identifiers and passwords.
std::string base64(std::string_view bytes);

// A fresh random client nonce.
std::string random_cnonce();

}  // namespace spindle::yarn::ipc
