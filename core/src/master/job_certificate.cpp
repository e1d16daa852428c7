#include "spindle/core/job_certificate.h"

#include "spindle/core/sha256.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <array>
#include <memory>

namespace spindle {
namespace {

template <typename T, void (*Free)(T*)>
struct Freer {
  void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Freer<EVP_PKEY, EVP_PKEY_free>>;
using Certificate = std::unique_ptr<X509, Freer<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Freer<BIO, BIO_free_all>>;

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(length));
}

std::string der_sha256(X509* certificate) {
  unsigned char* der = nullptr;
  const int length = i2d_X509(certificate, &der);
  if (length <= 0) return {};
  std::string pin = certificate_der_sha256(std::string_view(reinterpret_cast<const char*>(der), length));
  OPENSSL_free(der);
  return pin;
}

// `alternative_names` in OpenSSL's configuration syntax ("IP:10.0.0.1,DNS:gw"), or empty.
Result<SelfSignedCertificate> make_self_signed(const std::string& common_name, const std::string& alternative_names,
                                               std::string_view purpose) {
  Key key(EVP_EC_gen("P-256"));
  Certificate certificate(X509_new());
  if (!key || !certificate) return make_error("OpenSSL could not make a key for " + std::string(purpose));
  X509_set_version(certificate.get(), 2);
  // Random, because browsers refuse a second certificate with the issuer and serial of one they saw.
  std::unique_ptr<BIGNUM, Freer<BIGNUM, BN_free>> serial(BN_new());
  if (!serial || BN_rand(serial.get(), 120, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 0 ||
      !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get()))) {
    return make_error("OpenSSL could not draw a serial number for " + std::string(purpose));
  }
  // The pin is what is trusted, not the dates; a year outlasts any job.
  X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 366L * 24 * 3600);
  X509_set_pubkey(certificate.get(), key.get());
  X509_NAME* name = X509_get_subject_name(certificate.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(certificate.get(), name);
  if (!alternative_names.empty()) {
    X509V3_CTX context;
    X509V3_set_ctx(&context, certificate.get(), certificate.get(), nullptr, nullptr, 0);
    X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, alternative_names.c_str());
    if (!extension)
      return make_error("OpenSSL refused the names " + alternative_names + " for " + std::string(purpose));
    X509_add_ext(certificate.get(), extension, -1);
    X509_EXTENSION_free(extension);
  }
  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) {
    return make_error("OpenSSL could not sign " + std::string(purpose));
  }
  SelfSignedCertificate made;
  Bio certificate_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(certificate_out.get(), certificate.get());
  made.certificate_pem = bio_text(certificate_out.get());
  Bio key_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  made.key_pem = bio_text(key_out.get());
  made.sha256 = der_sha256(certificate.get());
  return made;
}

bool is_ip_address(const std::string& name) {
  return name.find(':') != std::string::npos || name.find_first_not_of("0123456789.") == std::string::npos;
}

}  // namespace

Result<SelfSignedCertificate> make_job_certificate(const std::string& application_id) {
  return make_self_signed("spindle job API " + application_id.substr(0, 40), {}, "the job API's certificate");
}

Result<SelfSignedCertificate> make_task_certificate(const std::string& application_id, const std::string& task) {
  return make_self_signed("spindle " + task.substr(0, 20) + " of " + application_id.substr(0, 40), {},
                          "the certificate of " + task);
}

Result<SelfSignedCertificate> make_server_certificate(const std::vector<std::string>& names) {
  if (names.empty()) return make_error("a server certificate needs at least one name to be reached by");
  std::string alternative_names;
  for (const auto& each : names) {
    if (each.empty() || each.find_first_of(", \t") != std::string::npos) {
      return make_error("\"" + each + "\" cannot name a server in its certificate; give a host name or an address");
    }
    if (!alternative_names.empty()) alternative_names += ',';
    alternative_names += (is_ip_address(each) ? "IP:" : "DNS:") + each;
  }
  return make_self_signed("spindle serve " + names.front().substr(0, 40), alternative_names,
                          "the server's certificate");
}

std::string certificate_der_sha256(std::string_view der) {
  return sha256_hex(der);
}

std::string peer_certificate_sha256(SSL* connection) {
  Certificate certificate(SSL_get1_peer_certificate(connection));
  return certificate ? der_sha256(certificate.get()) : std::string();
}

bool certificate_serves(std::string_view certificate_pem, const std::string& name) {
  Bio in(BIO_new_mem_buf(certificate_pem.data(), static_cast<int>(certificate_pem.size())));
  Certificate certificate(PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr));
  if (!certificate) return false;
  if (X509_cmp_current_time(X509_get0_notBefore(certificate.get())) >= 0 ||
      X509_cmp_current_time(X509_get0_notAfter(certificate.get())) <= 0) {
    return false;
  }
  if (is_ip_address(name)) return X509_check_ip_asc(certificate.get(), name.c_str(), 0) == 1;
  return X509_check_host(certificate.get(), name.data(), name.size(), 0, nullptr) == 1;
}

Result<std::string> certificate_sha256(std::string_view certificate_pem) {
  Bio in(BIO_new_mem_buf(certificate_pem.data(), static_cast<int>(certificate_pem.size())));
  Certificate certificate(PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr));
  if (!certificate) return make_error("the job API's certificate is not a PEM certificate");
  return der_sha256(certificate.get());
}

}  // namespace spindle
