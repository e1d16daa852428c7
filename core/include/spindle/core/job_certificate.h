#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

struct ssl_st;

namespace spindle {

// The job API's own TLS identity on an encrypted cluster: a key and a
// self-signed certificate made at submit for one job. The key travels only
// in the application master's credentials; executors and clients trust the
// certificate by pinning its SHA-256, which the job record and the tasks'
// credentials carry.
struct SelfSignedCertificate {
  std::string certificate_pem;
  std::string key_pem;
  std::string sha256;  // of the certificate's DER bytes, lower-case hex
};

// A fresh P-256 key and a certificate naming the application.
Result<SelfSignedCertificate> make_job_certificate(const std::string& application_id);

// A fresh P-256 key and a certificate for one task's server (TensorBoard)
// on an encrypted cluster, made by its executor; the key never leaves the
// container, and the proxy pins the certificate the master passes on.
Result<SelfSignedCertificate> make_task_certificate(const std::string& application_id, const std::string& task);

// A fresh P-256 key and a certificate for `spindle serve` on a non-loopback
// address, valid for the names it is reached by (IP addresses or host
// names), which browsers check; users trust it by its printed fingerprint.
Result<SelfSignedCertificate> make_server_certificate(const std::vector<std::string>& names);
// Whether a PEM certificate is valid now and for `name` (an address or a host name).
bool certificate_serves(std::string_view certificate_pem, const std::string& name);

// The pin of a PEM certificate; an error for text that holds none.
Result<std::string> certificate_sha256(std::string_view certificate_pem);
// The pin of a certificate's DER bytes, as a TLS peer presents it.
std::string certificate_der_sha256(std::string_view der);
// The pin of the certificate a TLS peer presented on this connection; empty without one.
std::string peer_certificate_sha256(ssl_st* connection);

}  // namespace spindle
