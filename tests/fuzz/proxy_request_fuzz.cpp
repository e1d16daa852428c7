// Any bytes as a request to the TensorBoard proxy: parsed as the proxy
// parses them, screened, and when forwarded, the head sent upstream must
// carry no hop-by-hop field, exactly one framing, the proxy's Host and
// never the token nor the login cookie, and must parse back to the same
// request; with Kerberos logins, only the served user's Negotiate token or
// a cookie signed with the server's secret lets a request in without the
// token. The same bytes as an upstream response must give a head without
// hop-by-hop fields.

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "spindle/tbproxy/request_screen.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using spindle::tbproxy::Answer;
using spindle::tbproxy::Forward;

void require(bool condition) {
  if (!condition) std::abort();
}

std::string_view view(beast::string_view text) {
  return {text.data(), text.size()};
}

bool starts_with_ignoring_case(std::string_view text, std::string_view head) {
  if (text.size() < head.size()) return false;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != head[i]) return false;
  }
  return true;
}

void require_no_hop_by_hop(const http::fields& fields) {
  for (const auto& field : fields) {
    const auto name = field.name();
    require(name != http::field::connection && name != http::field::keep_alive && name != http::field::te &&
            name != http::field::trailer && name != http::field::upgrade);
    require(!starts_with_ignoring_case(view(field.name_string()), "proxy-"));
  }
}

// Feeds bytes to a parser as the proxy's reads would; false when the head
// never completes or is refused.
template <class Parser>
bool parse_head(Parser& parser, std::string_view bytes, std::size_t& used) {
  beast::error_code ec;
  used = 0;
  while (!parser.is_header_done() && used < bytes.size()) {
    const auto taken = parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
    if (ec == http::error::need_more) return false;
    if (ec) return false;
    used += taken;
    if (taken == 0) return false;
  }
  return parser.is_header_done();
}

constexpr std::string_view served_user_token = "Y2Fyb2w=";
constexpr std::string_view cookie_secret = "fuzz secret";

// The token, the served user's Negotiate token, or a login cookie (which
// only the secret can sign: the fuzzer finds the seed's, not new ones).
bool carries_credentials(const http::request_header<>& head, const spindle::tbproxy::ScreenPolicy& policy) {
  if (policy.access_token.empty() && !policy.kerberos) return true;
  for (const auto& field : head) {
    const auto value = view(field.value());
    if (field.name() == http::field::authorization || field.name() == http::field::cookie) {
      if (!policy.access_token.empty() && value.find(policy.access_token) != std::string_view::npos) return true;
      if (policy.kerberos && value.find(served_user_token) != std::string_view::npos) return true;
      if (policy.kerberos && value.find(spindle::tbproxy::login_cookie_name) != std::string_view::npos) return true;
    }
  }
  return !policy.access_token.empty() && view(head.target()).find(policy.access_token) != std::string_view::npos;
}

void check_request(std::string_view bytes, const spindle::tbproxy::ScreenPolicy& policy) {
  http::request_parser<http::buffer_body> parser;
  parser.header_limit(16 * 1024);
  parser.body_limit(policy.max_body_bytes);
  parser.eager(false);
  std::size_t used = 0;
  if (!parse_head(parser, bytes, used)) return;
  const auto& head = parser.get();
  const auto verdict = spindle::tbproxy::screen_request(head, policy);
  if (const auto* answer = std::get_if<Answer>(&verdict)) {
    require(!answer->sentence.empty());
    return;
  }
  if (std::holds_alternative<spindle::tbproxy::ToSite>(verdict)) {
    // Only what no job's TensorBoard owns goes to the site, and only past the token or a login.
    require(policy.has_site);
    require(!view(head.target()).starts_with("/tb/"));
    require(carries_credentials(head, policy));
    return;
  }
  require(carries_credentials(head, policy));
  const auto& route = std::get<Forward>(verdict).route;
  require(head.method() == http::verb::get || head.method() == http::verb::head || head.method() == http::verb::post);
  require(view(head.target()).starts_with("/tb/" + route.application_id));
  require(spindle::tbproxy::is_application_id(route.application_id));
  require(head.count(http::field::content_length) == 0 || head.count(http::field::transfer_encoding) == 0);

  const bool chunked = parser.chunked();
  const std::uint64_t length = parser.content_length().value_or(0);
  const auto upstream =
      spindle::tbproxy::upstream_request_head(head, route, "127.0.0.1:6006", "10.0.0.1", "https", chunked, length);
  require_no_hop_by_hop(upstream);
  require(upstream.count(http::field::host) == 1 && upstream[http::field::host] == "127.0.0.1:6006");
  require(upstream.count(http::field::content_length) + upstream.count(http::field::transfer_encoding) <= 1);
  require(view(upstream.target()) == route.upstream_target);
  require(view(upstream[http::field::cookie]).find(spindle::tbproxy::token_cookie_name) == std::string_view::npos);
  require(view(upstream[http::field::cookie]).find(spindle::tbproxy::login_cookie_name) == std::string_view::npos);

  // What TensorBoard receives must read back as the same request.
  const auto text = spindle::tbproxy::serialize_head(upstream);
  http::request_parser<http::empty_body> again;
  again.header_limit(64 * 1024);
  again.body_limit(std::numeric_limits<std::uint64_t>::max());
  std::size_t again_used = 0;
  require(parse_head(again, text, again_used));
  require(again_used == text.size());
  require(view(again.get().target()) == route.upstream_target);
  require(again.chunked() == chunked);
  require(again.content_length().value_or(0) == length);
  require(again.get().method() == head.method());

  // The body goes through a small buffer, as the proxy relays it.
  char piece[512];
  beast::error_code ec;
  std::size_t at = used;
  while (!parser.is_done() && at < bytes.size()) {
    parser.get().body().data = piece;
    parser.get().body().size = sizeof(piece);
    const auto taken = parser.put(boost::asio::buffer(bytes.data() + at, bytes.size() - at), ec);
    if (ec == http::error::need_buffer) ec = {};
    if (ec) return;
    at += taken;
    if (taken == 0 && parser.get().body().size == sizeof(piece)) return;
  }
}

void check_response(std::string_view bytes) {
  http::response_parser<http::empty_body> parser;
  parser.header_limit(64 * 1024);
  std::size_t used = 0;
  if (!parse_head(parser, bytes, used)) return;
  const auto head = spindle::tbproxy::client_response_head(parser.get(), "application_1_0001", "127.0.0.1:6006");
  require_no_hop_by_hop(head);
  require(head.count(http::field::content_length) == 0 && head.count(http::field::transfer_encoding) == 0);
  require(head.result_int() == parser.get().result_int());
  // The head the client receives must read back as a response too.
  const auto text = spindle::tbproxy::serialize_head(head);
  http::response_parser<http::empty_body> again;
  again.header_limit(64 * 1024);
  again.skip(true);
  std::size_t again_used = 0;
  require(parse_head(again, text, again_used));
  require(again_used == text.size());
  require(again.get().result_int() == head.result_int());
  for (const auto& field : head) {
    if (field.name() != http::field::location) continue;
    const auto location = view(field.value());
    // A path on TensorBoard's server stays under the job's prefix.
    if (location.starts_with("/") && !location.starts_with("//"))
      require(location.starts_with("/tb/application_1_0001/"));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  spindle::tbproxy::ScreenPolicy policy;
  // The first byte picks the policy, so every kind of proxy is covered.
  if (data[0] & 1) {
    policy.access_token = "t0ken";
    policy.loopback_hosts_only = false;
  }
  policy.has_site = (data[0] & 2) != 0;
  if (data[0] & 4) {
    static const auto logins = [] {
      auto made = std::make_shared<spindle::tbproxy::KerberosLogins>();
      made->served_user = "carol";
      made->cookie_secret = std::string(cookie_secret);
      made->accept = [](std::string_view token) -> spindle::Result<spindle::tbproxy::KerberosUser> {
        if (token == served_user_token)
          return spindle::tbproxy::KerberosUser{"carol@EXAMPLE.COM", "carol", std::chrono::seconds(3600)};
        if (token == "ZGF2ZQ==")
          return spindle::tbproxy::KerberosUser{"dave@EXAMPLE.COM", "dave", std::chrono::seconds(3600)};
        return spindle::make_error("the token is not one of the fuzzer's");
      };
      return std::shared_ptr<const spindle::tbproxy::KerberosLogins>(std::move(made));
    }();
    policy.kerberos = logins;
    policy.loopback_hosts_only = false;
  }
  policy.max_body_bytes = 64 * 1024;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  check_request(bytes, policy);
  check_response(bytes);
  return 0;
}
