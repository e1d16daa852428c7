#include "ipc/digest_md5.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "spindle/core/text.h"
#include "spindle/core/text_encodings.h"

namespace spindle::yarn::ipc {
namespace {

void skip_spaces(std::string_view& text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == ',')) text.remove_prefix(1);
}

// One key=value pair of a challenge, the value quoted or not.
Result<std::pair<std::string, std::string>> take_pair(std::string_view& text) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) return make_error("a DIGEST-MD5 challenge item has no key=");
  std::string key(text.substr(0, equals));
  while (!key.empty() && key.back() == ' ') key.pop_back();
  text.remove_prefix(equals + 1);
  std::string value;
  if (!text.empty() && text.front() == '"') {
    text.remove_prefix(1);
    bool closed = false;
    while (!text.empty()) {
      const char c = text.front();
      text.remove_prefix(1);
      if (c == '\\' && !text.empty()) {
        value.push_back(text.front());
        text.remove_prefix(1);
      } else if (c == '"') {
        closed = true;
        break;
      } else {
        value.push_back(c);
      }
    }
    if (!closed) return make_error("a DIGEST-MD5 challenge has an unterminated quoted value for " + key);
  } else {
    const auto comma = text.find(',');
    value = std::string(text.substr(0, comma));
    text.remove_prefix(comma == std::string_view::npos ? text.size() : comma);
  }
  return std::pair{key, value};
}

// The largest sealed message this client takes, as it tells the server.
constexpr std::size_t client_max_buffer = 65536;

std::string quote(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

std::string md5_raw(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest.data()), length);
}

std::string md5_hex(std::string_view data) {
  return hex_encode(md5_raw(data));
}

std::string base64(std::string_view bytes) {
  return base64_encode(bytes);
}

std::string random_cnonce() {
  std::array<unsigned char, 24> bytes{};
  RAND_bytes(bytes.data(), static_cast<int>(bytes.size()));
  return base64(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<DigestChallenge> parse_digest_challenge(std::string_view text) {
  DigestChallenge challenge;
  bool has_algorithm = false;
  skip_spaces(text);
  while (!text.empty()) {
    auto pair = take_pair(text);
    if (!pair) return pair.error();
    auto& [key, value] = *pair;
    if (key == "realm") {
      challenge.realms.push_back(value);
    } else if (key == "nonce") {
      if (!challenge.nonce.empty()) return make_error("a DIGEST-MD5 challenge names two nonces");
      challenge.nonce = value;
    } else if (key == "qop") {
      for (const auto item : split_list(value)) challenge.qop.emplace_back(item);
    } else if (key == "charset") {
      challenge.utf8 = value == "utf-8";
    } else if (key == "algorithm") {
      has_algorithm = true;
      challenge.algorithm = value;
    } else if (key == "cipher") {
      for (const auto item : split_list(value)) challenge.ciphers.emplace_back(item);
    } else if (key == "maxbuf") {
      std::size_t parsed = 0;
      const auto [end, problem] = std::from_chars(value.data(), value.data() + value.size(), parsed);
      // RFC 2831 bounds it: more than 16 MiB or too little for a seal is no buffer size.
      if (problem != std::errc() || end != value.data() + value.size() || parsed < 64 || parsed > 16777215) {
        return make_error("the DIGEST-MD5 challenge names maxbuf=" + value +
                          ", which is no buffer size between 64 and 16777215");
      }
      challenge.max_buffer = parsed;
    }
    skip_spaces(text);
  }
  if (challenge.nonce.empty()) return make_error("the DIGEST-MD5 challenge has no nonce");
  if (!has_algorithm || challenge.algorithm != "md5-sess") {
    return make_error("the DIGEST-MD5 challenge does not offer algorithm=md5-sess");
  }
  if (challenge.qop.empty()) challenge.qop.push_back("auth");
  return challenge;
}

DigestMd5Client::DigestMd5Client(std::string username, std::string password, std::string service, std::string host,
                                 std::function<std::string()> make_cnonce, std::vector<RpcProtection> allowed)
    : username_(std::move(username)),
      password_(std::move(password)),
      digest_uri_(service + "/" + host),
      make_cnonce_(std::move(make_cnonce)),
      allowed_(std::move(allowed)) {}

Result<std::string> DigestMd5Client::respond(std::string_view text) {
  auto challenge = parse_digest_challenge(text);
  if (!challenge) return challenge.error();
  std::vector<RpcProtection> offered;
  for (const auto& qop : challenge->qop) {
    if (qop == "auth") offered.push_back(RpcProtection::authentication);
    if (qop == "auth-int") offered.push_back(RpcProtection::integrity);
    // Privacy needs a cipher both ends know; Spindle's is "3des".
    if (qop == "auth-conf" &&
        std::find(challenge->ciphers.begin(), challenge->ciphers.end(), "3des") != challenge->ciphers.end()) {
      offered.push_back(RpcProtection::privacy);
    }
  }
  const auto chosen = strongest_common(allowed_, offered);
  if (!chosen) {
    const bool conf_without_3des =
        offered.empty() && std::find(challenge->qop.begin(), challenge->qop.end(), "auth-conf") != challenge->qop.end();
    if (conf_without_3des) {
      std::string ciphers;
      for (const auto& cipher : challenge->ciphers) ciphers += (ciphers.empty() ? "" : ", ") + cipher;
      return make_error("the server requires RPC privacy with the ciphers " +
                        (ciphers.empty() ? std::string("(none named)") : ciphers) +
                        ", none of which is 3des, the one Spindle speaks");
    }
    return no_common_protection("the server", offered, allowed_);
  }
  protection_ = *chosen;
  server_max_buffer_ = challenge->max_buffer;
  const std::string qop = protection_ == RpcProtection::privacy     ? "auth-conf"
                          : protection_ == RpcProtection::integrity ? "auth-int"
                                                                    : "auth";
  // With a security layer, A2 ends in 32 zeros (RFC 2831, 2.1.2.1).
  const std::string a2_suffix = protection_ == RpcProtection::authentication ? "" : ":00000000000000000000000000000000";
  realm_ = challenge->realms.empty() ? "" : challenge->realms.front();
  nonce_ = challenge->nonce;
  cnonce_ = make_cnonce_();
  const std::string nc = "00000001";
  const std::string a1 = md5_raw(username_ + ":" + realm_ + ":" + password_) + ":" + nonce_ + ":" + cnonce_;
  session_key_ = md5_raw(a1);
  const std::string ha1 = hex_encode(session_key_);
  const std::string response = md5_hex(ha1 + ":" + nonce_ + ":" + nc + ":" + cnonce_ + ":" + qop + ":" +
                                       md5_hex("AUTHENTICATE:" + digest_uri_ + a2_suffix));
  expected_rspauth_ =
      md5_hex(ha1 + ":" + nonce_ + ":" + nc + ":" + cnonce_ + ":" + qop + ":" + md5_hex(":" + digest_uri_ + a2_suffix));
  std::string out;
  if (challenge->utf8) out += "charset=utf-8,";
  out += "username=" + quote(username_);
  if (!challenge->realms.empty()) out += ",realm=" + quote(realm_);
  out += ",nonce=" + quote(nonce_) + ",nc=" + nc + ",cnonce=" + quote(cnonce_) + ",digest-uri=" + quote(digest_uri_) +
         ",maxbuf=" + std::to_string(client_max_buffer) + ",response=" + response + ",qop=" + qop;
  if (protection_ == RpcProtection::privacy) out += ",cipher=3des";
  return out;
}

Result<std::unique_ptr<SecurityLayer>> DigestMd5Client::security_layer(DigestRole role) const {
  if (protection_ == RpcProtection::authentication) return std::unique_ptr<SecurityLayer>();
  return digest_security_layer(session_key_, protection_, role,
                               role == DigestRole::client ? server_max_buffer_ : client_max_buffer);
}

Result<void> DigestMd5Client::verify_server(std::string_view final_message) const {
  std::string_view text = final_message;
  skip_spaces(text);
  while (!text.empty()) {
    auto pair = take_pair(text);
    if (!pair) return pair.error();
    if (pair->first == "rspauth") {
      if (pair->second == expected_rspauth_) return {};
      return make_error("the server's DIGEST-MD5 proof does not match; it does not know the token's password");
    }
    skip_spaces(text);
  }
  return make_error("the server's last DIGEST-MD5 message has no rspauth");
}

}  // namespace spindle::yarn::ipc
