#include <algorithm>
#include <atomic>
#include <cctype>

#include <openssl/x509_vfy.h>

#include "spindle/yarn/http_client.h"

#include "http/negotiate_initiator.h"
#include "spindle/core/text.h"

namespace spindle::yarn::http {
namespace {
// Set once by a static initializer; constant-initialized, so no order matters.
constinit std::atomic<NegotiateInitiator> installed_initiator{nullptr};
}  // namespace

void install_negotiate_initiator(NegotiateInitiator initiator) {
  installed_initiator.store(initiator);
}

NegotiateInitiator negotiate_initiator() {
  return installed_initiator.load();
}

std::string AuthCookies::for_url(const std::string& url) const {
  std::lock_guard lock(mutex_);
  const auto found = by_origin_.find(origin(url));
  return found == by_origin_.end() ? std::string() : found->second;
}

void AuthCookies::keep(const std::string& url, const std::string& cookie) {
  std::lock_guard lock(mutex_);
  // "name=" or "name=\"\"" is how a server says to forget it.
  const auto value = std::string_view(cookie).substr(std::min(cookie.size(), cookie.find('=') + 1));
  if (value.empty() || value == "\"\"") {
    by_origin_.erase(origin(url));
  } else {
    by_origin_[origin(url)] = cookie;
  }
}

bool is_negotiate_challenge(const Response& response) {
  if (response.status != 401) return false;
  return istarts_with(response.header("www-authenticate"), "negotiate");
}

std::string origin(std::string_view url) {
  const auto scheme_end = url.find("://");
  const auto authority_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const auto authority_end = url.find_first_of("/?#", authority_start);
  return std::string(url.substr(0, authority_end));
}

std::string escape(std::string_view text) {
  constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0x0F]);
    }
  }
  return out;
}

// One sentence for a server whose certificate this client will not accept:
// which endpoint, what is wrong, what to do.
Error no_tls_there(const std::string& endpoint, const std::string& detail) {
  return make_error("no TLS connection could be made to " + endpoint + " (" + detail +
                    "); check that it serves HTTPS there (yarn.http.policy, dfs.http.policy and the "
                    "*.https.address ports)");
}

Error certificate_refusal(const std::string& endpoint, long verify, const std::string& detail, const WebTrust* trust) {
  const std::string trusted = trust ? trust->source : "the system's CA certificates";
  if (verify == X509_V_ERR_CERT_HAS_EXPIRED) {
    return make_error("the certificate of " + endpoint +
                      " has expired; whoever runs that server must renew it (or this machine's clock is wrong)");
  }
  if (verify == X509_V_ERR_CERT_NOT_YET_VALID) {
    return make_error("the certificate of " + endpoint +
                      " is not valid yet; check this machine's clock, or whoever runs that server must fix the "
                      "certificate's dates");
  }
  if (detail.find("host name") != std::string::npos || detail.find("hostname") != std::string::npos ||
      verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
    const auto authority = endpoint.substr(endpoint.find("://") + 3);
    const auto host = authority.substr(0, authority.rfind(':'));
    return make_error("the certificate of " + endpoint + " is not made out to " + host +
                      "; reach the server by a name its certificate holds, or have the certificate reissued for " +
                      host);
  }
  return make_error("the certificate of " + endpoint + " is not signed by a CA in " + trusted +
                    "; add the cluster's CA certificate to the truststore that ssl.client.truststore.location in "
                    "ssl-client.xml names (" +
                    detail + ")");
}

}  // namespace spindle::yarn::http
