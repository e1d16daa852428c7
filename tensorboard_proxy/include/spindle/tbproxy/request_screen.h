#pragma once

#include <boost/beast/http/message.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "spindle/tbproxy/kerberos_logins.h"
#include "spindle/tbproxy/route.h"

namespace spindle::tbproxy {

namespace http = boost::beast::http;

// What the proxy demands of a request's head before anything reaches a job.
struct ScreenPolicy {
  // When set, requests need it as ?token=... (answered with a cookie and a
  // redirect that drops it from the address) or as the cookie.
  std::string access_token;
  // Without a token only Host names of this machine's loopback are served,
  // so a web page cannot reach the proxy by rebinding its own domain to it.
  bool loopback_hosts_only = true;
  // Targets outside /tb/ go to the local site (see local_site.h) instead of
  // being answered 404.
  bool has_site = false;
  // Kerberos logins beside the token (see kerberos_logins.h); null: none.
  std::shared_ptr<const KerberosLogins> kerberos;
  // The token's and the login's cookies are only ever sent back over TLS.
  bool secure_cookie = false;
  std::uint64_t max_body_bytes = 8 * 1024 * 1024;
};

// The proxy forwards the request along this route.
struct Forward {
  ProxyRoute route;
  std::string set_cookie;  // a Kerberos login's cookie, for the response
};

// The local site answers the request.
struct ToSite {
  std::string set_cookie;
};

// The proxy answers the request itself.
struct Answer {
  http::status status = http::status::bad_request;
  std::string sentence;    // why, for the page
  std::string location;    // for redirects
  std::string set_cookie;  // for the redirect that takes the token
  std::string allow;       // for 405
  bool negotiate = false;  // a 401 that asks for a Kerberos login
};

using Verdict = std::variant<Forward, Answer, ToSite>;

// Decides from the head alone: the method, the target, framing, Host, the
// token or Kerberos login, and the body's declared size. Programs (not
// browsers) may give the token as "Authorization: Bearer <token>" instead of
// the cookie.
Verdict screen_request(const http::request_header<>& head, const ScreenPolicy& policy);

// The name of the cookie that carries the access token.
inline constexpr std::string_view token_cookie_name = "spindle_tb_token";

// The head sent to TensorBoard: the client's fields without the hop-by-hop
// ones, framing and the proxy's own cookie, with the upstream target, Host
// and X-Forwarded-* (`client_scheme`: "http" or "https"). `body_chunked` and
// `body_length` give the framing of the body that follows (neither: none).
http::request_header<> upstream_request_head(const http::request_header<>& client_head, const ProxyRoute& route,
                                             const std::string& upstream_authority, const std::string& client_address,
                                             std::string_view client_scheme, bool body_chunked,
                                             std::uint64_t body_length);

// The head sent back to the client from TensorBoard's: hop-by-hop fields
// (RFC 9110 section 7.6.1, Proxy-*, those Connection names) and framing
// dropped, Location kept under the job's prefix.
http::response_header<> client_response_head(const http::response_header<>& upstream_head,
                                             std::string_view application_id, std::string_view upstream_authority);

// A head as it goes on the wire: start line, fields, empty line.
std::string serialize_head(const http::request_header<>& head);
std::string serialize_head(const http::response_header<>& head);

}  // namespace spindle::tbproxy
