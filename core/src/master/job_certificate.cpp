#include "spindle/core/job_certificate.h"

#include "spindle/core/sha256.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

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

}  // namespace

Result<JobCertificate> make_job_certificate(const std::string& application_id) {
  Key key(EVP_EC_gen("P-256"));
  Certificate certificate(X509_new());
  if (!key || !certificate) return make_error("OpenSSL could not make a key for the job API's certificate");
  X509_set_version(certificate.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(certificate.get()), 1);
  // The pin is what is trusted, not the dates; a year outlasts any job.
  X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 366L * 24 * 3600);
  X509_set_pubkey(certificate.get(), key.get());
  X509_NAME* name = X509_get_subject_name(certificate.get());
  const std::string common_name = "spindle job API " + application_id.substr(0, 40);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(certificate.get(), name);
  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) {
    return make_error("OpenSSL could not sign the job API's certificate");
  }
  JobCertificate made;
  Bio certificate_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(certificate_out.get(), certificate.get());
  made.certificate_pem = bio_text(certificate_out.get());
  Bio key_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  made.key_pem = bio_text(key_out.get());
  made.sha256 = der_sha256(certificate.get());
  return made;
}

std::string certificate_der_sha256(std::string_view der) {
  return sha256_hex(der);
}

Result<std::string> certificate_sha256(std::string_view certificate_pem) {
  Bio in(BIO_new_mem_buf(certificate_pem.data(), static_cast<int>(certificate_pem.size())));
  Certificate certificate(PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr));
  if (!certificate) return make_error("the job API's certificate is not a PEM certificate");
  return der_sha256(certificate.get());
}

}  // namespace spindle
