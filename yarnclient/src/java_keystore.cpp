#include "java_keystore.h"

#include <openssl/evp.h>

#include <cstdint>
#include <cstring>
#include <optional>

namespace spindle::yarn {
namespace {

constexpr std::uint32_t jks_magic = 0xFEEDFEED;
constexpr std::uint32_t jceks_magic = 0xCECECECE;
constexpr std::uint32_t private_key_entry = 1;
constexpr std::uint32_t trusted_certificate_entry = 2;
constexpr std::size_t seal_bytes = 20;  // SHA-1

// Big-endian reads that never pass the end; a read past it leaves `ok` false.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  std::size_t offset() const { return offset_; }
  std::size_t left() const { return bytes_.size() - offset_; }

  std::uint64_t number(std::size_t width) {
    if (!ok_ || left() < width) return fail();
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i) value = value << 8 | static_cast<unsigned char>(bytes_[offset_ + i]);
    offset_ += width;
    return value;
  }
  std::string_view piece(std::uint64_t length) {
    if (!ok_ || left() < length) {
      fail();
      return {};
    }
    const auto part = bytes_.substr(offset_, static_cast<std::size_t>(length));
    offset_ += static_cast<std::size_t>(length);
    return part;
  }
  // Java's writeUTF: a 16-bit length, then that many bytes.
  std::string_view text() { return piece(number(2)); }

 private:
  std::uint64_t fail() {
    ok_ = false;
    return 0;
  }
  std::string_view bytes_;
  std::size_t offset_ = 0;
  bool ok_ = true;
};

// UTF-8 to the UTF-16 code units Java's char[] holds, big-endian; nothing
// when the password is not UTF-8.
std::optional<std::string> utf16_big_endian(std::string_view text) {
  std::string out;
  auto put = [&out](std::uint32_t unit) {
    out += static_cast<char>(unit >> 8 & 0xFF);
    out += static_cast<char>(unit & 0xFF);
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80           ? 1
                               : (lead >> 5) == 0x6  ? 2
                               : (lead >> 4) == 0xE  ? 3
                               : (lead >> 3) == 0x1E ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return std::nullopt;
    std::uint32_t point = length == 1 ? lead : lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return std::nullopt;
      point = point << 6 | (next & 0x3F);
    }
    if (point >= 0x10000) {
      point -= 0x10000;
      put(0xD800 + (point >> 10));
      put(0xDC00 + (point & 0x3FF));
    } else {
      put(point);
    }
    i += length;
  }
  return out;
}

bool seal_matches(std::string_view sealed, std::string_view seal, const std::string& password_utf16) {
  static constexpr std::string_view whitener = "Mighty Aphrodite";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  const bool done = context && EVP_DigestInit_ex(context, EVP_sha1(), nullptr) == 1 &&
                    EVP_DigestUpdate(context, password_utf16.data(), password_utf16.size()) == 1 &&
                    EVP_DigestUpdate(context, whitener.data(), whitener.size()) == 1 &&
                    EVP_DigestUpdate(context, sealed.data(), sealed.size()) == 1 &&
                    EVP_DigestFinal_ex(context, digest, &length) == 1;
  EVP_MD_CTX_free(context);
  return done && length == seal.size() && std::memcmp(digest, seal.data(), length) == 0;
}

}  // namespace

bool is_java_keystore(std::string_view bytes) {
  Reader reader(bytes);
  const auto magic = reader.number(4);
  return reader.ok() && (magic == jks_magic || magic == jceks_magic);
}

Result<std::vector<std::string>> java_keystore_certificates(std::string_view bytes, std::string_view password,
                                                            const std::string& where) {
  const auto damaged = [&where](const std::string& what) {
    return make_error(where + " is a Java KeyStore that cannot be read (" + what +
                      "); check the file, or convert it with keytool -importkeystore -deststoretype PKCS12");
  };
  Reader reader(bytes);
  const auto magic = reader.number(4);
  if (magic == jceks_magic) {
    return make_error(where +
                      " is a JCEKS keystore, which Spindle does not read; convert it with keytool -importkeystore "
                      "-deststoretype PKCS12 and set ssl.client.truststore.type=pkcs12");
  }
  if (!reader.ok() || magic != jks_magic) return damaged("it does not begin with 0xFEEDFEED");
  const auto version = reader.number(4);
  if (version != 1 && version != 2) return damaged("version " + std::to_string(version) + ", not 1 or 2");
  const auto entries = reader.number(4);
  std::vector<std::string> certificates;
  auto certificate = [&reader, version]() {
    if (version == 2) (void)reader.text();  // its type, "X.509"
    return reader.piece(reader.number(4));
  };
  for (std::uint64_t i = 0; i < entries && reader.ok(); ++i) {
    const auto tag = reader.number(4);
    (void)reader.text();     // alias
    (void)reader.number(8);  // creation time
    if (tag == trusted_certificate_entry) {
      const auto der = certificate();
      if (reader.ok()) certificates.emplace_back(der);
    } else if (tag == private_key_entry) {
      (void)reader.piece(reader.number(4));  // the sealed key
      const auto chain = reader.number(4);
      for (std::uint64_t k = 0; k < chain && reader.ok(); ++k) {
        const auto der = certificate();
        if (k == 0 && reader.ok()) certificates.emplace_back(der);
      }
    } else if (reader.ok()) {
      return damaged("entry " + std::to_string(i + 1) + " has the unknown kind " + std::to_string(tag));
    }
  }
  if (!reader.ok()) return damaged("it ends inside its entries");
  if (reader.left() != seal_bytes) return damaged("its integrity seal is not the 20 bytes after the entries");
  if (!password.empty()) {
    const auto units = utf16_big_endian(password);
    const auto sealed = bytes.substr(0, reader.offset());
    if (!units || !seal_matches(sealed, bytes.substr(reader.offset()), *units)) {
      return make_error(where +
                        " does not open with its password; check ssl.client.truststore.password in ssl-client.xml");
    }
  }
  if (certificates.empty()) return make_error(where + " holds no certificates; add the cluster's CA certificate to it");
  return certificates;
}

}  // namespace spindle::yarn
