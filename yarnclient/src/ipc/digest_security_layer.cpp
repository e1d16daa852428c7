#include "ipc/digest_security_layer.h"

#include "ipc/digest_md5.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <cstdint>

namespace spindle::yarn::ipc {
namespace {

constexpr std::size_t mac_bytes = 10;
constexpr std::size_t trailer_bytes = 6;  // message type (0x0001) and sequence number
constexpr std::size_t des_block = 8;

// The keys of RFC 2831: MD5 of H(A1) and a constant naming the key.
std::string md5(std::string_view session_key, std::string_view constant) {
  return md5_raw(std::string(session_key) + std::string(constant));
}

std::string big_endian(std::uint32_t value) {
  return std::string{static_cast<char>(value >> 24), static_cast<char>(value >> 16), static_cast<char>(value >> 8),
                     static_cast<char>(value)};
}

std::uint32_t read_big_endian(std::string_view bytes) {
  std::uint32_t value = 0;
  for (unsigned char c : bytes.substr(0, 4)) value = (value << 8) | c;
  return value;
}

// 56 key bits in 7 bytes spread over 8 bytes of 7 bits each, the low bit of
// each byte left for DES's parity (which the cipher ignores).
std::string des_key_from(std::string_view seven) {
  std::uint64_t bits = 0;
  for (unsigned char c : seven) bits = (bits << 8) | c;
  std::string key(8, '\0');
  for (int i = 7; i >= 0; --i) {
    key[static_cast<std::size_t>(i)] = static_cast<char>((bits & 0x7F) << 1);
    bits >>= 7;
  }
  return key;
}

struct CipherContext {
  EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
  ~CipherContext() { EVP_CIPHER_CTX_free(context); }
};

// HMAC-MD5 of the sequence number and the message, cut to its first 10 bytes.
class Sealer {
 public:
  explicit Sealer(std::string key) : key_(std::move(key)), mac_(EVP_MAC_fetch(nullptr, "HMAC", nullptr)) {}
  ~Sealer() { EVP_MAC_free(mac_); }
  Sealer(const Sealer&) = delete;
  Sealer& operator=(const Sealer&) = delete;

  bool ready() const { return mac_ != nullptr; }

  std::string mac(std::uint32_t sequence, std::string_view message) const {
    EVP_MAC_CTX* context = EVP_MAC_CTX_new(mac_);
    char digest_name[] = "MD5";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
                                 OSSL_PARAM_construct_end()};
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    std::size_t length = 0;
    const auto prefix = big_endian(sequence);
    EVP_MAC_init(context, reinterpret_cast<const unsigned char*>(key_.data()), key_.size(), params);
    EVP_MAC_update(context, reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size());
    EVP_MAC_update(context, reinterpret_cast<const unsigned char*>(message.data()), message.size());
    EVP_MAC_final(context, out.data(), &length, out.size());
    EVP_MAC_CTX_free(context);
    return std::string(reinterpret_cast<const char*>(out.data()), mac_bytes);
  }

 private:
  std::string key_;
  EVP_MAC* mac_;
};

class DigestLayer final : public SecurityLayer {
 public:
  DigestLayer(const std::string& ha1, RpcProtection protection, DigestRole role, std::size_t peer_max_buffer)
      : protection_(protection),
        peer_max_buffer_(peer_max_buffer),
        own_signing_(md5(ha1, role == DigestRole::client
                                  ? "Digest session key to client-to-server signing key magic constant"
                                  : "Digest session key to server-to-client signing key magic constant")),
        peer_signing_(md5(ha1, role == DigestRole::client
                                   ? "Digest session key to server-to-client signing key magic constant"
                                   : "Digest session key to client-to-server signing key magic constant")) {
    if (protection_ != RpcProtection::privacy) return;
    const auto client_key = md5(ha1, "Digest H(A1) to client-to-server sealing key magic constant");
    const auto server_key = md5(ha1, "Digest H(A1) to server-to-client sealing key magic constant");
    const auto& own = role == DigestRole::client ? client_key : server_key;
    const auto& peer = role == DigestRole::client ? server_key : client_key;
    ciphers_ready_ = start_cipher(encrypt_, own, 1) && start_cipher(decrypt_, peer, 0);
  }

  bool ready() const {
    return own_signing_.ready() && peer_signing_.ready() && (protection_ != RpcProtection::privacy || ciphers_ready_);
  }

  RpcProtection protection() const override { return protection_; }

  std::size_t max_plain_bytes() const override {
    // The MAC, the trailer and at most one block of padding ride along.
    constexpr std::size_t overhead = mac_bytes + trailer_bytes + des_block;
    return peer_max_buffer_ > overhead * 2 ? peer_max_buffer_ - overhead : overhead;
  }

  Result<std::string> wrap(std::string_view plain) override {
    const auto sequence = own_sequence_++;
    const auto mac = own_signing_.mac(sequence, plain);
    std::string out;
    if (protection_ == RpcProtection::privacy) {
      const std::size_t pad = des_block - (plain.size() + mac_bytes) % des_block;
      std::string sealed(plain);
      sealed.append(pad, static_cast<char>(pad));
      sealed += mac;
      out.resize(sealed.size());
      int written = 0;
      if (EVP_EncryptUpdate(encrypt_.context, reinterpret_cast<unsigned char*>(out.data()), &written,
                            reinterpret_cast<const unsigned char*>(sealed.data()),
                            static_cast<int>(sealed.size())) != 1 ||
          static_cast<std::size_t>(written) != sealed.size()) {
        return make_error("triple DES would not encrypt a message for the SASL privacy layer");
      }
    } else {
      out.reserve(plain.size() + mac_bytes + trailer_bytes);
      out.append(plain);
      out += mac;
    }
    out += std::string{'\0', '\1'};
    out += big_endian(sequence);
    return out;
  }

  Result<std::string> unwrap(std::string_view sealed) override {
    const std::size_t least =
        protection_ == RpcProtection::privacy ? 2 * des_block + trailer_bytes : mac_bytes + trailer_bytes;
    if (sealed.size() < least) {
      return make_error("a SASL-sealed message of " + std::to_string(sealed.size()) +
                        " bytes is too short to carry its seal");
    }
    const auto trailer = sealed.substr(sealed.size() - trailer_bytes);
    if (trailer[0] != '\0' || trailer[1] != '\1') return make_error("a SASL-sealed message has an unknown type");
    const auto sequence = read_big_endian(trailer.substr(2));
    if (sequence != peer_sequence_) {
      return make_error("a SASL-sealed message came with sequence number " + std::to_string(sequence) + " where " +
                        std::to_string(peer_sequence_) + " was due: a message was lost, replayed or reordered");
    }
    const auto body = sealed.substr(0, sealed.size() - trailer_bytes);
    std::string message;
    std::string mac;
    if (protection_ == RpcProtection::privacy) {
      if (body.size() % des_block != 0) {
        return make_error("a SASL-encrypted message is not a whole number of cipher blocks");
      }
      std::string clear(body.size(), '\0');
      int written = 0;
      if (EVP_DecryptUpdate(decrypt_.context, reinterpret_cast<unsigned char*>(clear.data()), &written,
                            reinterpret_cast<const unsigned char*>(body.data()), static_cast<int>(body.size())) != 1 ||
          static_cast<std::size_t>(written) != body.size()) {
        return make_error("triple DES would not decrypt a message of the SASL privacy layer");
      }
      mac = clear.substr(clear.size() - mac_bytes);
      clear.resize(clear.size() - mac_bytes);
      const auto pad = static_cast<unsigned char>(clear.back());
      bool padded = pad >= 1 && pad <= des_block && pad <= clear.size();
      for (std::size_t i = 0; padded && i < pad; ++i)
        padded = static_cast<unsigned char>(clear[clear.size() - 1 - i]) == pad;
      if (!padded) return make_error("a SASL-encrypted message failed its integrity check (bad padding)");
      clear.resize(clear.size() - pad);
      message = std::move(clear);
    } else {
      message.assign(body.substr(0, body.size() - mac_bytes));
      mac.assign(body.substr(body.size() - mac_bytes));
    }
    const auto expected = peer_signing_.mac(sequence, message);
    if (CRYPTO_memcmp(expected.data(), mac.data(), mac_bytes) != 0) {
      return make_error("a SASL-sealed message failed its integrity check: it was changed on the way");
    }
    ++peer_sequence_;
    return message;
  }

 private:
  static bool start_cipher(CipherContext& cipher, const std::string& sealing_key, int encrypt) {
    // "3des": the first 14 bytes are two DES keys, the last 8 the first IV.
    const std::string key = des_key_from(std::string_view(sealing_key).substr(0, 7)) +
                            des_key_from(std::string_view(sealing_key).substr(7, 7));
    const std::string iv = sealing_key.substr(8, 8);
    if (EVP_CipherInit_ex(cipher.context, EVP_des_ede_cbc(), nullptr,
                          reinterpret_cast<const unsigned char*>(key.data()),
                          reinterpret_cast<const unsigned char*>(iv.data()), encrypt) != 1) {
      return false;
    }
    return EVP_CIPHER_CTX_set_padding(cipher.context, 0) == 1;
  }

  RpcProtection protection_;
  std::size_t peer_max_buffer_;
  Sealer own_signing_;
  Sealer peer_signing_;
  CipherContext encrypt_;
  CipherContext decrypt_;
  bool ciphers_ready_ = false;
  std::uint32_t own_sequence_ = 0;
  std::uint32_t peer_sequence_ = 0;
};

}  // namespace

Result<std::unique_ptr<SecurityLayer>> digest_security_layer(const std::string& ha1, RpcProtection protection,
                                                             DigestRole role, std::size_t peer_max_buffer) {
  auto layer = std::make_unique<DigestLayer>(ha1, protection, role, peer_max_buffer);
  if (!layer->ready()) {
    return make_error("this build's OpenSSL offers no HMAC-MD5 or triple DES, which SASL " +
                      std::string(to_string(protection)) + " needs");
  }
  return std::unique_ptr<SecurityLayer>(std::move(layer));
}

}  // namespace spindle::yarn::ipc
