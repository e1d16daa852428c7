#pragma once

#include <optional>
#include <string>

#include "spindle/core/result.h"

namespace spindle::cli {

// The certificate and key `spindle serve` speaks TLS with.
struct ServeIdentity {
  std::string certificate_pem;
  std::string key_pem;
  std::string fingerprint;  // SHA-256 of the certificate, as browsers show it (AB:CD:...)
  std::string made_in;      // the directory of a certificate made here; empty when given
};

// From the files given; else, for an address other machines reach, the
// certificate made here before for that address, or a new one kept beside
// the job records so that browsers that trusted it keep doing so. Nothing
// for loopback without files: the dashboard then speaks clear HTTP.
Result<std::optional<ServeIdentity>> serve_identity(const std::string& bind_address,
                                                    const std::string& certificate_file, const std::string& key_file);

// This machine's name ("localhost" when it has none).
std::string this_host_name();

// The name the printed address uses: the bound address, or this machine's
// name when every address is bound.
std::string serve_host_name(const std::string& bind_address);

}  // namespace spindle::cli
