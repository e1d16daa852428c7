#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle {

// The job API's own TLS identity on an encrypted cluster: a key and a
// self-signed certificate made at submit for one job. The key travels only
// in the application master's credentials; executors and clients trust the
// certificate by pinning its SHA-256, which the job record and the tasks'
// credentials carry.
struct JobCertificate {
  std::string certificate_pem;
  std::string key_pem;
  std::string sha256;  // of the certificate's DER bytes, lower-case hex
};

// A fresh P-256 key and a certificate naming the application.
Result<JobCertificate> make_job_certificate(const std::string& application_id);

// The pin of a PEM certificate; an error for text that holds none.
Result<std::string> certificate_sha256(std::string_view certificate_pem);
// The pin of a certificate's DER bytes, as a TLS peer presents it.
std::string certificate_der_sha256(std::string_view der);

}  // namespace spindle
