#include "spindle/tbproxy/request_screen.h"

#include <boost/beast/core/string.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "login_cookie.h"
#include "spindle/core/text.h"

namespace spindle::tbproxy {
namespace {

namespace beast = boost::beast;

std::string_view view(beast::string_view text) {
  return {text.data(), text.size()};
}

Answer refuse(http::status status, std::string sentence) {
  Answer answer;
  answer.status = status;
  answer.sentence = std::move(sentence);
  return answer;
}

std::size_t count_fields(const http::fields& fields, http::field name) {
  const auto [first, last] = fields.equal_range(name);
  return static_cast<std::size_t>(std::distance(first, last));
}

// "12", or "12, 12" as some clients repeat it; anything else is no length.
std::optional<std::uint64_t> declared_length(std::string_view value) {
  std::optional<std::uint64_t> length;
  for (const auto item : split_list(value, ',', http_whitespace)) {
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), number);
    if (error != std::errc() || end != item.data() + item.size()) return std::nullopt;
    if (length && *length != number) return std::nullopt;
    length = number;
  }
  return length;
}

bool is_loopback_host(std::string_view host_field) {
  std::string_view host = host_field;
  if (host.starts_with("[")) {
    host = host.substr(0, host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  if (iequals(host, "localhost") || host == "[::1]") return true;
  // Any 127.0.0.0/8 address in dotted form.
  if (!host.starts_with("127.")) return false;
  int dots = 0;
  for (const char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

std::optional<std::string_view> cookie_value(const http::fields& fields, std::string_view name) {
  for (const auto& field : fields) {
    if (field.name() != http::field::cookie) continue;
    for (const auto pair : split_list(view(field.value()), ';', http_whitespace)) {
      const auto equals = pair.find('=');
      if (equals != std::string_view::npos && trim(pair.substr(0, equals), http_whitespace) == name) {
        return trim(pair.substr(equals + 1), http_whitespace);
      }
    }
  }
  return std::nullopt;
}

// What lets a request in (perhaps with a login's cookie to set), or why not.
struct Admission {
  std::optional<Answer> refusal;
  std::string set_cookie;
};

std::string cookie_attributes(const ScreenPolicy& policy) {
  return std::string("; Path=/; HttpOnly; SameSite=Strict") + (policy.secure_cookie ? "; Secure" : "");
}

// The token given once in the address: traded for its cookie.
Admission token_in_address(std::string_view target, std::size_t question, std::string_view given,
                           const ScreenPolicy& policy) {
  if (!same_secret(given, policy.access_token)) {
    return {refuse(http::status::forbidden,
                   "The token in this address is not this server's; open the URL that spindle tensorboard or "
                   "spindle serve printed."),
            {}};
  }
  std::string kept;
  for (const auto parameter : split_list(target.substr(question + 1), '&', http_whitespace)) {
    if (parameter.empty() || parameter.starts_with("token=")) continue;
    kept += kept.empty() ? "" : "&";
    kept += parameter;
  }
  // The cookie carries the token from now on, so it leaves the address bar and the history.
  Answer answer = refuse(http::status::found, "The token is accepted; the page continues without it.");
  answer.location = std::string(target.substr(0, question)) + (kept.empty() ? "" : "?" + kept);
  answer.set_cookie = std::string(token_cookie_name) + "=" + policy.access_token + cookie_attributes(policy);
  return {answer, {}};
}

Admission kerberos_login(std::string_view negotiate_token, const ScreenPolicy& policy) {
  const auto& logins = *policy.kerberos;
  auto user = logins.accept(negotiate_token);
  if (!user) {
    return {refuse(http::status::forbidden, "The Kerberos login was refused: " + user.error().message + "."), {}};
  }
  if (user->short_name.empty() || user->short_name != logins.served_user) {
    return {refuse(http::status::forbidden,
                   "You signed in with Kerberos as " + user->principal + ", but this server acts for " +
                       logins.served_user + " alone, with " + logins.served_user +
                       "'s own ticket, and never for anyone else; run spindle serve as yourself to reach your jobs."),
            {}};
  }
  const auto lifetime = std::min(user->lifetime, logins.longest_login);
  // A ticket about to expire lets this request in, and the next ones log in again.
  if (lifetime.count() < 60) return {};
  const auto expires = std::chrono::system_clock::now() + lifetime;
  return {std::nullopt, std::string(login_cookie_name) + "=" +
                            make_login_cookie(user->principal, expires, logins.cookie_secret) +
                            "; Max-Age=" + std::to_string(lifetime.count()) + cookie_attributes(policy)};
}

Admission refuse_without_credentials(const ScreenPolicy& policy) {
  if (!policy.kerberos) {
    return {refuse(http::status::unauthorized,
                   "This server needs its access token: open the URL that spindle tensorboard or spindle serve "
                   "printed, with its ?token=."),
            {}};
  }
  Answer answer = refuse(
      http::status::unauthorized,
      "This server needs a Kerberos login or its access token: get a ticket (kinit) and reload in a browser that may "
      "sign in to this host (Chrome's AuthServerAllowlist, Firefox's network.negotiate-auth.trusted-uris), or open "
      "the URL that spindle serve printed, with its ?token=.");
  answer.negotiate = true;
  return {answer, {}};
}

// The token (in the address, as a bearer or in its cookie) or a Kerberos
// login (a Negotiate exchange, or the cookie an earlier one set).
Admission admit(const http::request_header<>& head, const ScreenPolicy& policy) {
  const std::string& token = policy.access_token;
  const std::string_view target = view(head.target());
  if (const auto question = target.find('?'); !token.empty() && question != std::string_view::npos) {
    for (const auto parameter : split_list(target.substr(question + 1), '&', http_whitespace)) {
      if (parameter.starts_with("token=")) return token_in_address(target, question, parameter.substr(6), policy);
    }
  }
  const auto authorization = view(head[http::field::authorization]);
  if (!token.empty() && istarts_with(authorization, "bearer ")) {
    if (!same_secret(trim(authorization.substr(7), http_whitespace), token)) {
      return {
          refuse(http::status::forbidden,
                 "The bearer token of this request is not this server's; send the one that spindle serve or spindle "
                 "tensorboard printed."),
          {}};
    }
    return {};
  }
  if (policy.kerberos && istarts_with(authorization, "negotiate ")) {
    return kerberos_login(trim(authorization.substr(10), http_whitespace), policy);
  }
  if (const auto cookie = cookie_value(head, token_cookie_name); !token.empty() && cookie) {
    if (!same_secret(*cookie, token)) {
      return {refuse(http::status::forbidden,
                     "The access token this browser holds is not this server's; open the URL that spindle "
                     "tensorboard or spindle serve printed."),
              {}};
    }
    return {};
  }
  if (policy.kerberos) {
    // An expired or foreign login cookie asks for a new login, which a browser with a ticket does unseen.
    const auto login = cookie_value(head, login_cookie_name);
    if (login && verified_login(*login, policy.kerberos->cookie_secret, std::chrono::system_clock::now())) return {};
  }
  return refuse_without_credentials(policy);
}

std::optional<Answer> check_framing(const http::request_header<>& head, const ScreenPolicy& policy) {
  const auto encodings = count_fields(head, http::field::transfer_encoding);
  const auto lengths = count_fields(head, http::field::content_length);
  if (encodings > 0 && lengths > 0) {
    return refuse(http::status::bad_request,
                  "A request may not carry both Content-Length and Transfer-Encoding; send one of them.");
  }
  if (encodings > 1 ||
      (encodings == 1 && !iequals(trim(view(head[http::field::transfer_encoding]), http_whitespace), "chunked"))) {
    return refuse(http::status::bad_request, "The only Transfer-Encoding a request may use is a single \"chunked\".");
  }
  if (lengths > 0) {
    std::optional<std::uint64_t> length;
    for (const auto& field : head) {
      if (field.name() != http::field::content_length) continue;
      const auto this_one = declared_length(view(field.value()));
      if (!this_one || (length && *length != *this_one)) {
        return refuse(http::status::bad_request, "The request's Content-Length is not one number.");
      }
      length = this_one;
    }
    if (*length > policy.max_body_bytes) {
      return refuse(
          http::status::payload_too_large,
          "The request body is larger than the " + std::to_string(policy.max_body_bytes) + " bytes this proxy takes.");
    }
  }
  return std::nullopt;
}

std::optional<Answer> check_host(const http::request_header<>& head, const ScreenPolicy& policy) {
  const auto hosts = count_fields(head, http::field::host);
  if (hosts > 1) return refuse(http::status::bad_request, "A request may carry only one Host field.");
  if (hosts == 0) {
    if (head.version() >= 11) return refuse(http::status::bad_request, "An HTTP/1.1 request needs a Host field.");
    return std::nullopt;
  }
  if (policy.loopback_hosts_only && !is_loopback_host(view(head[http::field::host]))) {
    return refuse(http::status::forbidden,
                  "This proxy answers only to localhost and 127.0.0.1; to reach it from elsewhere, start it with "
                  "--bind and use the URL with its token.");
  }
  return std::nullopt;
}

}  // namespace

Verdict screen_request(const http::request_header<>& head, const ScreenPolicy& policy) {
  const auto method = head.method();
  if (method == http::verb::connect) {
    Answer answer = refuse(http::status::method_not_allowed, "CONNECT is refused: this proxy opens no tunnels.");
    answer.allow = "GET, HEAD, POST";
    return answer;
  }
  if (method != http::verb::get && method != http::verb::head && method != http::verb::post) {
    Answer answer = refuse(http::status::method_not_allowed, "This proxy passes on GET, HEAD and POST only.");
    answer.allow = "GET, HEAD, POST";
    return answer;
  }
  const std::string_view target = view(head.target());
  if (!target.starts_with("/")) {
    return refuse(http::status::bad_request,
                  "This proxy takes only paths as request targets; it never forwards to a host a request names.");
  }
  if (auto refused = check_framing(head, policy)) return *refused;
  if (auto refused = check_host(head, policy)) return *refused;
  std::string set_cookie;
  if (!policy.access_token.empty() || policy.kerberos) {
    auto admission = admit(head, policy);
    if (admission.refusal) return *admission.refusal;
    set_cookie = std::move(admission.set_cookie);
  }
  auto route = route_request_target(target);
  if (!route && policy.has_site && !target.starts_with("/tb/")) return ToSite{std::move(set_cookie)};
  if (!route) {
    return refuse(http::status::not_found,
                  "This proxy serves only /tb/<application id>/, the TensorBoard of each of your jobs.");
  }
  // TensorBoard's page loads its parts by relative paths, which need the slash.
  const auto after_id = target.substr(4 + route->application_id.size());
  if ((method == http::verb::get || method == http::verb::head) && !after_id.starts_with("/")) {
    Answer answer = refuse(http::status::moved_permanently, "The TensorBoard of a job lives under a trailing slash.");
    answer.location = "/tb/" + route->application_id + "/" + std::string(after_id);
    return answer;
  }
  return Forward{std::move(*route), std::move(set_cookie)};
}

namespace {

// The hop-by-hop fields of one message: those of RFC 9110 section 7.6.1,
// Proxy-*, and any its Connection field names.
class HopByHop {
 public:
  explicit HopByHop(const http::fields& fields) {
    for (const auto& field : fields) {
      if (field.name() != http::field::connection) continue;
      for (const auto name : split_list(view(field.value()), ',', http_whitespace)) named_.push_back(name);
    }
  }

  bool contains(const http::fields::value_type& field) const {
    switch (field.name()) {
      case http::field::connection:
      case http::field::keep_alive:
      case http::field::te:
      case http::field::trailer:
      case http::field::upgrade: return true;
      default: break;
    }
    const auto name = view(field.name_string());
    if (istarts_with(name, "proxy-")) return true;
    return std::any_of(named_.begin(), named_.end(), [name](std::string_view named) { return iequals(named, name); });
  }

 private:
  std::vector<std::string_view> named_;  // views into the fields, which outlive this
};

// Fields the proxy sets itself, whatever the client sent.
bool replaced_upstream(const http::fields::value_type& field) {
  switch (field.name()) {
    case http::field::host:
    case http::field::content_length:
    case http::field::transfer_encoding:
    case http::field::expect:
    case http::field::forwarded:
    case http::field::cookie: return true;
    default: return istarts_with(view(field.name_string()), "x-forwarded-");
  }
}

}  // namespace

http::request_header<> upstream_request_head(const http::request_header<>& client_head, const ProxyRoute& route,
                                             const std::string& upstream_authority, const std::string& client_address,
                                             std::string_view client_scheme, bool body_chunked,
                                             std::uint64_t body_length) {
  const HopByHop hop_by_hop(client_head);
  http::request_header<> head;
  head.method(client_head.method());
  head.target(route.upstream_target);
  head.version(11);
  for (const auto& field : client_head) {
    if (!replaced_upstream(field) && !hop_by_hop.contains(field)) head.insert(field.name_string(), field.value());
  }
  head.set(http::field::host, upstream_authority);
  // TensorBoard has no use for the proxy's token, and must never see it.
  std::string cookies;
  for (const auto& field : client_head) {
    if (field.name() != http::field::cookie || hop_by_hop.contains(field)) continue;
    for (const auto pair : split_list(view(field.value()), ';', http_whitespace)) {
      // Any pair that mentions the token's or the login's cookie goes, however malformed.
      if (pair.find(token_cookie_name) != std::string_view::npos) continue;
      if (pair.find(login_cookie_name) != std::string_view::npos) continue;
      cookies += cookies.empty() ? "" : "; ";
      cookies += pair;
    }
  }
  if (!cookies.empty()) head.set(http::field::cookie, cookies);
  head.set("X-Forwarded-For", client_address);
  head.set("X-Forwarded-Proto", beast::string_view(client_scheme.data(), client_scheme.size()));
  if (const auto host = client_head[http::field::host]; !host.empty()) head.set("X-Forwarded-Host", host);
  head.set("X-Forwarded-Prefix", "/tb/" + route.application_id);
  if (body_chunked) {
    head.set(http::field::transfer_encoding, "chunked");
  } else if (body_length > 0 || client_head.method() == http::verb::post) {
    head.set(http::field::content_length, std::to_string(body_length));
  }
  return head;
}

http::response_header<> client_response_head(const http::response_header<>& upstream_head,
                                             std::string_view application_id, std::string_view upstream_authority) {
  const HopByHop hop_by_hop(upstream_head);
  http::response_header<> head;
  head.result(upstream_head.result_int());
  head.reason(upstream_head.reason());
  for (const auto& field : upstream_head) {
    if (hop_by_hop.contains(field)) continue;
    switch (field.name()) {
      case http::field::content_length:
      case http::field::transfer_encoding: break;
      case http::field::location:
        head.insert(http::field::location, rewrite_location(view(field.value()), application_id, upstream_authority));
        break;
      default: head.insert(field.name_string(), field.value());
    }
  }
  return head;
}

namespace {

void append_fields(std::string& text, const http::fields& fields) {
  for (const auto& field : fields) {
    text += view(field.name_string());
    text += ": ";
    text += view(field.value());
    text += "\r\n";
  }
  text += "\r\n";
}

}  // namespace

std::string serialize_head(const http::request_header<>& head) {
  std::string text;
  text.reserve(512);
  text += view(head.method_string());
  text += ' ';
  text += view(head.target());
  text += head.version() == 10 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n";
  append_fields(text, head);
  return text;
}

std::string serialize_head(const http::response_header<>& head) {
  std::string text;
  text.reserve(512);
  text += head.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  // Always three digits, as the status line demands.
  const auto code = head.result_int() % 1000;
  text += static_cast<char>('0' + code / 100);
  text += static_cast<char>('0' + code / 10 % 10);
  text += static_cast<char>('0' + code % 10);
  text += ' ';
  text += view(head.reason());
  text += "\r\n";
  append_fields(text, head);
  return text;
}

}  // namespace spindle::tbproxy
