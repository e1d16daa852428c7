#include "spindle/yarn/web_tls.h"
#include "spindle/core/text.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "java_keystore.h"

namespace spindle::yarn {
namespace {

std::string certificate_pem(X509* certificate) {
  BIO* out = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(out, certificate);
  char* data = nullptr;
  const long length = BIO_get_mem_data(out, &data);
  std::string pem(data, static_cast<std::size_t>(length));
  BIO_free(out);
  return pem;
}

// Every certificate of a PKCS12 truststore: Java keeps trusted CAs as
// certificates without keys, which OpenSSL hands back as the "CA" list.
Result<std::string> pkcs12_certificates(const std::string& bytes, const std::string& password,
                                        const std::string& where) {
  const auto* cursor = reinterpret_cast<const unsigned char*>(bytes.data());
  PKCS12* store = d2i_PKCS12(nullptr, &cursor, static_cast<long>(bytes.size()));
  if (!store) {
    return make_error(where + " is not a PKCS12 file; check ssl.client.truststore.type in ssl-client.xml");
  }
  if (!PKCS12_verify_mac(store, password.c_str(), static_cast<int>(password.size()))) {
    PKCS12_free(store);
    return make_error(where +
                      " does not open with its password; check ssl.client.truststore.password in ssl-client.xml");
  }
  EVP_PKEY* key = nullptr;
  X509* own = nullptr;
  STACK_OF(X509)* others = nullptr;
  const int parsed = PKCS12_parse(store, password.c_str(), &key, &own, &others);
  PKCS12_free(store);
  if (!parsed) {
    ERR_clear_error();
    return make_error(where +
                      " could not be read (its certificates may be sealed with a cipher this build lacks, such as "
                      "RC2); export it again: openssl pkcs12 -export -nokeys -in ca.pem -out truststore.p12");
  }
  std::string pem;
  if (own) pem += certificate_pem(own);
  for (int i = 0; others && i < sk_X509_num(others); ++i) pem += certificate_pem(sk_X509_value(others, i));
  EVP_PKEY_free(key);
  X509_free(own);
  sk_X509_pop_free(others, X509_free);
  if (pem.empty()) return make_error(where + " holds no certificates; add the cluster's CA certificate to it");
  return pem;
}

Result<std::string> pem_certificates(const std::string& text, const std::string& where) {
  BIO* in = BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
  std::string pem;
  while (X509* certificate = PEM_read_bio_X509(in, nullptr, nullptr, nullptr)) {
    pem += certificate_pem(certificate);
    X509_free(certificate);
  }
  BIO_free(in);
  ERR_clear_error();
  if (pem.empty()) return make_error(where + " holds no PEM certificates; check ssl.client.truststore.type");
  return pem;
}

}  // namespace

bool https_only(const HadoopConfiguration& configuration, WebService service) {
  const auto key = service == WebService::yarn ? "yarn.http.policy" : "dfs.http.policy";
  return iequals(configuration.get_or(key, "HTTP_ONLY"), "HTTPS_ONLY");
}

std::string web_scheme(const HadoopConfiguration& configuration, WebService service) {
  return https_only(configuration, service) ? "https" : "http";
}

Result<std::shared_ptr<const WebTrust>> web_trust(const HadoopConfiguration& configuration) {
  auto trust = std::make_shared<WebTrust>();
  const auto location = configuration.get_or("ssl.client.truststore.location", "");
  if (location.empty()) {
    trust->source = "the system's CA certificates (ssl-client.xml names no ssl.client.truststore.location)";
    return std::shared_ptr<const WebTrust>(std::move(trust));
  }
  const std::string where = "the truststore " + location + " (ssl.client.truststore.location in ssl-client.xml)";
  std::ifstream in(location, std::ios::binary);
  if (!in) return make_error(where + " cannot be read; check the path and its permissions");
  std::ostringstream content;
  content << in.rdbuf();
  const std::string bytes = content.str();
  // Hadoop's default type is jks, but Java reads PKCS12 under that name too:
  // the file's first bytes tell what it is.
  if (is_java_keystore(bytes)) {
    auto certificates =
        java_keystore_certificates(bytes, configuration.get_or("ssl.client.truststore.password", ""), where);
    if (!certificates) return certificates.error();
    std::string pem;
    for (const auto& der : *certificates) {
      const auto* cursor = reinterpret_cast<const unsigned char*>(der.data());
      X509* certificate = d2i_X509(nullptr, &cursor, static_cast<long>(der.size()));
      if (!certificate) {
        ERR_clear_error();
        return make_error(where + " holds a certificate that is not X.509 DER; export the store again");
      }
      pem += certificate_pem(certificate);
      X509_free(certificate);
    }
    trust->ca_pem = std::move(pem);
    trust->source = where;
    return std::shared_ptr<const WebTrust>(std::move(trust));
  }
  Result<std::string> pem =
      bytes.find("-----BEGIN") != std::string::npos
          ? pem_certificates(bytes, where)
          : pkcs12_certificates(bytes, configuration.get_or("ssl.client.truststore.password", ""), where);
  if (!pem) return pem.error();
  trust->ca_pem = std::move(*pem);
  trust->source = where;
  return std::shared_ptr<const WebTrust>(std::move(trust));
}

}  // namespace spindle::yarn
