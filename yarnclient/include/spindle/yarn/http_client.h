#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::yarn::http {

using spindle::yarn::WebTrust;

// The signed login cookies a server sets once SPNEGO succeeded (Hadoop's web
// servers: hadoop.auth), by origin (scheme://host:port). Sending one back
// spares a Kerberos exchange per request. Shared by copies of a client, so
// guarded. The values are credentials: never log them.
class AuthCookies {
 public:
  std::string for_url(const std::string& url) const;
  void keep(const std::string& url, const std::string& cookie);  // "name=" or "name=\"\"": forget

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> by_origin_;
};

struct Request {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  // A body held in memory, or one read in pieces (`read` fills up to `size`
  // bytes and returns how many; 0 ends it) of `body_size` bytes.
  std::optional<std::string> body;
  std::function<std::size_t(char* buffer, std::size_t size)> read;
  std::int64_t body_size = -1;
  // Where the response body goes; return false to stop. Unset: kept in memory.
  std::function<bool(std::string_view chunk)> write;
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  std::chrono::milliseconds connect_timeout{20'000};
  std::chrono::milliseconds timeout{0};  // whole transfer; 0: none
  // The longest wait for the next byte either way, whatever `timeout` is: a
  // server gone silent mid-transfer (its host cut off) is given up on then.
  std::chrono::milliseconds idle_timeout{120'000};
  bool follow_redirects = false;
  // Answer a server's "WWW-Authenticate: Negotiate" with SPNEGO from the
  // Kerberos ticket cache. Off for token-only requests (`delegation=`).
  bool negotiate = false;
  AuthCookies* cookies = nullptr;            // where login cookies are kept and sent from
  std::string login_cookie = "hadoop.auth";  // the name of the login cookie the server sets
  // For https:// URLs: whom to trust (ssl-client.xml); null: the system's
  // CAs. The server's name is always checked against its certificate.
  const WebTrust* trust = nullptr;
};

struct Response {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;                            // when the request had no `write`
  std::optional<std::string> auth_cookie;      // "<login cookie>=..." when the server set one

  std::string header(const std::string& name) const {
    auto found = headers.find(name);
    return found == headers.end() ? std::string() : found->second;
  }
};

// One HTTP exchange. Programs on the user's machine make it with libcurl,
// which speaks SPNEGO; what runs in YARN containers links statically and
// makes it with Beast, token-only, and so never needs libcurl. A transport failure (refused, timed
// out, reset) is an error naming the URL (secrets redacted); any HTTP status
// is a response, except a SPNEGO challenge that a `negotiate` request could
// not meet: that is an authentication error telling to run kinit.
Result<Response> perform(const Request& request);

// Whether this program can do SPNEGO (libcurl built with GSS-API; never in containers).
bool spnego_available();

// A 401 whose WWW-Authenticate asks for Negotiate (SPNEGO).
bool is_negotiate_challenge(const Response& response);

// "scheme://host:port" of a URL, for messages that must not show its query.
std::string origin(std::string_view url);

// The sentence for a refused or impossible Kerberos login to a web server.
Error no_kerberos_ticket(std::string_view url);

// The sentence for a server certificate that TLS verification refused:
// `verify` is OpenSSL's X509_V_ERR_* code, `detail` the library's words.
Error certificate_refusal(const std::string& endpoint, long verify, const std::string& detail, const WebTrust* trust);

// A server reached for TLS that does not speak it there.
Error no_tls_there(const std::string& endpoint, const std::string& detail);

// "a b/c" -> "a%20b%2Fc"
std::string escape(std::string_view text);

}  // namespace spindle::yarn::http
