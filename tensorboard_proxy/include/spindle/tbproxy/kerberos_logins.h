#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle::tbproxy {

// Who a Kerberos login (SPNEGO, RFC 4559) proved to be.
struct KerberosUser {
  std::string principal;   // "alice@EXAMPLE.COM"
  std::string short_name;  // "alice"; empty for a principal of another realm
  // How much longer the ticket that made the login is good for.
  std::chrono::seconds lifetime{0};
};

// Kerberos logins beside the access token. A browser or program with a
// ticket answers the 401's "WWW-Authenticate: Negotiate"; once a login
// succeeds the proxy sets a signed cookie, so the requests after it need no
// Kerberos exchange. Checking a Negotiate token is given from outside: the
// proxy has no Kerberos of its own.
struct KerberosLogins {
  // The base64 token of an "Authorization: Negotiate" field: who sent it, or
  // why it is refused.
  std::function<Result<KerberosUser>(std::string_view negotiate_token)> accept;
  // The one user let in; anyone else is refused with a sentence, never
  // served with this user's powers.
  std::string served_user;
  // Signs the login cookie; empty: a random one is made at start, so a
  // restart asks for a new login.
  std::string cookie_secret;
  std::chrono::seconds longest_login{std::chrono::hours(10)};
};

// The cookie a login sets. Not Hadoop's hadoop.auth: cookies are kept by
// host name, not port, so a Hadoop web server tunnelled to the same
// localhost would take ours for a forged one of its own, and the other way
// round.
inline constexpr std::string_view login_cookie_name = "spindle_login";

}  // namespace spindle::tbproxy
