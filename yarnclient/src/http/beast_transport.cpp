// HTTP for what runs in YARN containers. The container binary links every
// library statically, and libcurl cannot be linked so. Beast over Asio and
// OpenSSL does plain and TLS connections, bodies streamed both ways,
// redirects and bounded waits. Tasks hold tokens only; an application
// master given the job's keytab answers SPNEGO through the initiator the
// Kerberos library installs (http/negotiate_initiator.h).
#include <utility>  // before Asio, whose awaitable.hpp uses std::exchange without it

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <limits>
#include <optional>

#include "http/negotiate_initiator.h"
#include "spindle/core/asio_endpoints.h"
#include "spindle/core/host_names.h"
#include "spindle/core/text.h"
#include "spindle/core/text_encodings.h"
#include "spindle/yarn/http_client.h"
#include "spindle/yarn/token_url_string.h"

namespace spindle::yarn::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
namespace ssl = boost::asio::ssl;

constexpr std::size_t piece_size = 256 * 1024;
constexpr int redirect_limit = 5;

struct Target {
  bool https = false;
  std::string authority;  // host:port as written
  std::string host;
  std::uint16_t port = 0;
  std::string path_and_query;
};

Result<Target> parse_target(const std::string& url) {
  Target target;
  std::string_view rest(url);
  if (rest.starts_with("https://")) {
    target.https = true;
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return make_error("\"" + redact_token_parameters(url) + "\" is not an http:// or https:// URL");
  }
  const auto path_start = rest.find_first_of("/?");
  target.authority = std::string(rest.substr(0, path_start));
  target.path_and_query = path_start == std::string_view::npos ? "/" : std::string(rest.substr(path_start));
  if (target.path_and_query.front() == '?') target.path_and_query.insert(0, "/");
  const auto colon = target.authority.rfind(':');
  const bool bracketed = target.authority.starts_with('[');
  const bool has_port = colon != std::string::npos && (!bracketed || colon > target.authority.find(']'));
  target.host = has_port ? target.authority.substr(0, colon) : target.authority;
  if (bracketed) target.host = target.host.substr(1, target.host.find(']') - 1);
  target.port = target.https ? 443 : 80;
  if (has_port) {
    const auto digits = target.authority.substr(colon + 1);
    if (digits.empty() || digits.size() > 5 || !std::all_of(digits.begin(), digits.end(), ::isdigit) ||
        std::stoi(digits) > 65535) {
      return make_error("the port of " + origin(url) + " is not a number from 0 to 65535");
    }
    target.port = static_cast<std::uint16_t>(std::stoi(digits));
  }
  if (target.host.empty()) return make_error("the URL " + origin(url) + " names no host");
  return target;
}

// A Location header, relative or absolute, as an absolute URL.
std::string absolute_location(const Target& from, const std::string& location) {
  if (location.find("://") != std::string::npos) return location;
  const std::string base = std::string(from.https ? "https://" : "http://") + from.authority;
  if (location.starts_with('/')) return base + location;
  const auto path = from.path_and_query.substr(0, from.path_and_query.find('?'));
  return base + path.substr(0, path.rfind('/') + 1) + location;
}

class Exchange {
 public:
  Exchange(const Request& request, Target target) : request_(request), target_(std::move(target)) {}

  Result<Response> run(const std::string& url) {
    net::io_context io;
    beast::tcp_stream tcp(io);
    auto addresses = resolve_host(target_.host, target_.port);
    if (!addresses) return addresses.error();
    tcp.expires_after(request_.connect_timeout);
    beast::error_code ec;
    tcp.connect(endpoints_of(*addresses), ec);
    if (ec) return failure(url, ec);
    if (!target_.https) {
      auto answer = talk(tcp, tcp, url);
      tcp.socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
      return answer;
    }
    ssl::context context(ssl::context::tls_client);
    context.set_verify_mode(ssl::verify_peer);
    if (request_.trust && !request_.trust->ca_pem.empty()) {
      context.add_certificate_authority(net::buffer(request_.trust->ca_pem), ec);
      if (ec)
        return make_error("the CA certificates of " + request_.trust->source + " cannot be read: " + ec.message());
    } else {
      context.set_default_verify_paths(ec);
    }
    beast::ssl_stream<beast::tcp_stream&> stream(tcp, context);
    SSL_set_tlsext_host_name(stream.native_handle(), target_.host.c_str());
    stream.set_verify_callback(ssl::host_name_verification(target_.host));
    tcp.expires_after(request_.connect_timeout);
    stream.handshake(ssl::stream_base::client, ec);
    if (ec) {
      const long verify = SSL_get_verify_result(stream.native_handle());
      if (verify != X509_V_OK) return certificate_refusal(origin(url), verify, ec.message(), request_.trust);
      return no_tls_there(origin(url), ec.message());
    }
    auto answer = talk(stream, tcp, url);
    tcp.expires_after(std::chrono::seconds(5));
    stream.shutdown(ec);
    return answer;
  }

 private:
  Error failure(const std::string& url, const beast::error_code& ec) const {
    const std::string why = ec == beast::error::timeout ? "no answer in time" : ec.message();
    return make_error(request_.method + " " + redact_token_parameters(url) + " failed: " + why);
  }

  void arm(beast::tcp_stream& tcp) const {
    // Without a whole-transfer timeout a request may take as long as it needs,
    // but never waits longer than its idle timeout for the next byte.
    auto limit = std::chrono::steady_clock::duration(request_.idle_timeout);
    if (deadline_) limit = std::min(limit, *deadline_ - std::chrono::steady_clock::now());
    tcp.expires_after(std::max(limit, std::chrono::steady_clock::duration(std::chrono::milliseconds(1))));
  }

  bhttp::request<bhttp::buffer_body> header() const {
    bhttp::request<bhttp::buffer_body> message;
    message.version(11);
    message.method_string(request_.method);
    message.target(target_.path_and_query);
    message.set(bhttp::field::host, target_.authority);
    message.set(bhttp::field::user_agent, "spindle");
    for (const auto& [name, value] : request_.headers) message.set(name, value);
    if (request_.cookies) {
      if (auto cookie = request_.cookies->for_url(request_.url); !cookie.empty())
        message.set(bhttp::field::cookie, cookie);
    }
    if (request_.body) {
      message.content_length(request_.body->size());
    } else if (request_.read) {
      if (request_.body_size >= 0) {
        message.content_length(static_cast<std::uint64_t>(request_.body_size));
      } else {
        message.chunked(true);
      }
    } else if (request_.method == "PUT" || request_.method == "POST") {
      message.content_length(0);
    }
    return message;
  }

  // The next piece of the request's body into `buffer`; 0 at its end.
  std::size_t next_piece(char* buffer, std::size_t room) {
    if (request_.read) return request_.read(buffer, room);
    if (!request_.body) return 0;
    const std::size_t n = std::min(room, request_.body->size() - body_offset_);
    std::copy_n(request_.body->data() + body_offset_, n, buffer);
    body_offset_ += n;
    return n;
  }

  template <typename Stream>
  Result<Response> talk(Stream& stream, beast::tcp_stream& tcp, const std::string& url) {
    if (request_.timeout.count() > 0) deadline_ = std::chrono::steady_clock::now() + request_.timeout;
    beast::error_code ec;
    auto message = header();
    const bool has_body = request_.body || request_.read;
    message.body().data = nullptr;
    message.body().more = has_body;
    bhttp::request_serializer<bhttp::buffer_body> serializer(message);
    arm(tcp);
    bhttp::write_header(stream, serializer, ec);
    if (ec) return failure(url, ec);
    std::vector<char> piece(has_body ? piece_size : 0);
    const std::int64_t total = request_.body ? static_cast<std::int64_t>(request_.body->size()) : request_.body_size;
    std::int64_t sent = 0;
    while (has_body) {
      const std::size_t n = next_piece(piece.data(), piece.size());
      message.body().data = n ? piece.data() : nullptr;
      message.body().size = n;
      message.body().more = n > 0;
      arm(tcp);
      bhttp::write(stream, serializer, ec);
      if (ec == bhttp::error::need_buffer) ec = {};
      if (ec) return failure(url, ec);
      sent += static_cast<std::int64_t>(n);
      if (request_.progress && n) request_.progress(sent, total);
      if (n == 0) break;
    }

    Response response;
    beast::flat_buffer buffer;
    // A server may send "100 Continue" (or another 1xx) before its answer.
    std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
    for (int interim = 0; interim < 5; ++interim) {
      parser.emplace();
      // No limit; Boost 1.74 takes boost::none for one but then refuses every body.
      parser->body_limit(std::numeric_limits<std::uint64_t>::max());
      if (request_.method == "HEAD") parser->skip(true);
      arm(tcp);
      bhttp::read_header(stream, buffer, *parser, ec);
      if (ec) return failure(url, ec);
      if (parser->get().result_int() / 100 != 1) break;
    }
    response.status = parser->get().result_int();
    for (const auto& field : parser->get()) {
      const std::string name = to_lower(std::string(field.name_string()));
      std::string value(field.value());
      if (name == "set-cookie" && value.starts_with(request_.login_cookie + "=")) {
        response.auth_cookie = value.substr(0, value.find(';'));
      }
      response.headers[name] = std::move(value);
    }
    const std::int64_t expected =
        parser->content_length() ? static_cast<std::int64_t>(*parser->content_length()) : std::int64_t{0};
    // Error bodies (Hadoop's JSON exceptions) are kept for the message, not streamed.
    const bool streamed = request_.write && response.status < 300;
    std::vector<char> incoming(piece_size);
    std::int64_t received = 0;
    while (!parser->is_done()) {
      parser->get().body().data = incoming.data();
      parser->get().body().size = incoming.size();
      arm(tcp);
      bhttp::read(stream, buffer, *parser, ec);
      if (ec == bhttp::error::need_buffer) ec = {};
      if (ec) return failure(url, ec);
      const std::size_t n = incoming.size() - parser->get().body().size;
      const std::string_view chunk(incoming.data(), n);
      received += static_cast<std::int64_t>(n);
      if (streamed) {
        if (n && !request_.write(chunk)) return response;  // the sink asked to stop
      } else {
        response.body.append(chunk);
      }
      if (request_.progress && n) request_.progress(received, expected);
    }
    return response;
  }

  const Request& request_;
  Target target_;
  std::size_t body_offset_ = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

bool spnego_available() {
  return negotiate_initiator() != nullptr;
}

Error no_kerberos_ticket(std::string_view url) {
  if (spnego_available()) {
    return authentication_error(origin(url) +
                                " refused the job's Kerberos login (SPNEGO); check the job's principal and keytab");
  }
  return authentication_error(origin(url) +
                              " asks for a Kerberos login (SPNEGO), which a YARN container cannot make: it holds "
                              "delegation tokens only; the request must carry the job's delegation token");
}

Result<Response> perform(const Request& original) {
  Request request = original;
  std::string url = request.url;
  bool negotiated = false;
  for (int hop = 0;; ++hop) {
    auto target = parse_target(url);
    if (!target) return target.error();
    Exchange exchange(request, *target);
    Result<Response> response = make_error("");
    try {
      response = exchange.run(url);
    } catch (const std::exception& e) {
      return make_error(request.method + " " + redact_token_parameters(url) + " failed: " + e.what());
    }
    if (!response) return response;
    if (request.cookies && response->auth_cookie) request.cookies->keep(url, *response->auth_cookie);
    const auto location = response->header("location");
    // A streamed body cannot be sent twice, so only requests without one follow.
    if (request.follow_redirects && is_redirect(response->status) && !location.empty() && !request.read &&
        hop < redirect_limit) {
      url = absolute_location(*target, location);
      // A Negotiate token is for one server: the next one challenges anew.
      if (negotiated) {
        std::erase_if(request.headers, [](const auto& header) { return header.first == "Authorization"; });
        negotiated = false;
      }
      continue;
    }
    if (request.negotiate && is_negotiate_challenge(*response)) {
      if (request.cookies) request.cookies->keep(url, "");
      // One answer per server: a second challenge means the login was refused.
      const auto initiator = negotiate_initiator();
      if (initiator && !negotiated && !request.read) {
        auto token = initiator(target->host);
        if (!token) return token.error();
        request.headers.emplace_back("Authorization", "Negotiate " + base64_encode(*token));
        negotiated = true;
        continue;
      }
      return no_kerberos_ticket(url);
    }
    return response;
  }
}

}  // namespace spindle::yarn::http
