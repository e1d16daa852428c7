#include "client_session.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <limits>

#include "session_errors.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/text.h"

namespace spindle::tbproxy {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr std::size_t upstream_header_limit = 64 * 1024;
constexpr int most_attempts = 3;
constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

std::string seconds_text(std::chrono::milliseconds duration) {
  return std::to_string((duration.count() + 999) / 1000) + " s";
}

}  // namespace

ClientSession::ClientSession(Socket socket, ProxyContext& context, UpstreamPool& pool)
    : client_(std::move(socket), context.tls ? &*context.tls : nullptr),
      timer_(client_.get_executor()),
      context_(context),
      pool_(pool),
      body_buffer_(new char[body_buffer_bytes]) {
  // Request bodies are rare and small; room for a head and a bit is enough.
  client_buffer_.reserve(16 * 1024);
}

void ClientSession::start() {
  beast::error_code ignored;
  auto& socket = client_.plain();
  socket.set_option(tcp::no_delay(true), ignored);
  socket.non_blocking(true, ignored);
  const auto peer = socket.remote_endpoint(ignored);
  client_address_ = ignored ? "unknown" : peer.address().to_string();
  if (!client_.tls()) {
    read_request_head();
    return;
  }
  watch(Waiting::client, context_.options.idle_timeout);
  socket.async_wait(Socket::wait_read, [self = shared_from_this()](beast::error_code ec) { self->on_first_bytes(ec); });
}

void ClientSession::on_first_bytes(beast::error_code ec) {
  unsigned char first = 0;
  if (!ec) client_.plain().receive(net::buffer(&first, 1), Socket::message_peek, ec);
  if (ec) {
    close_now();
    return;
  }
  constexpr unsigned char tls_handshake_record = 0x16;
  if (first != tls_handshake_record) {
    client_.stop_tls();
    send_page(status::bad_request, "This address speaks HTTPS only; open it again with https:// in front.", false);
    return;
  }
  client_.secured().async_handshake(net::ssl::stream_base::server, [self = shared_from_this()](beast::error_code hs) {
    // A client that does not trust the certificate ends here, which its browser explains better than we could.
    if (hs) {
      self->close_now();
      return;
    }
    self->read_request_head();
  });
}

bool ClientSession::request_is_head() const {
  return request_parser_ && request_parser_->get().method() == http::verb::head;
}

void ClientSession::read_request_head() {
  request_parser_.emplace();
  request_parser_->header_limit(static_cast<std::uint32_t>(context_.options.max_header_bytes));
  request_parser_->body_limit(context_.options.max_request_body_bytes);
  request_out_.reset();
  response_out_.reset();
  response_parser_.reset();
  page_.reset();
  resolution_.reset();
  continue_sent_ = false;
  response_started_ = false;
  login_cookie_.clear();
  attempts_ = 0;
  watch(Waiting::client, context_.options.idle_timeout);
  http::async_read_header(
      client_, client_buffer_, *request_parser_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_request_head(ec); });
}

void ClientSession::on_request_head(beast::error_code ec) {
  if (ec) {
    if (is_quiet_end(ec)) {
      close_now();
      return;
    }
    const auto code = ec == http::error::header_limit ? status::request_header_fields_too_large
                      : ec == http::error::body_limit ? status::payload_too_large
                                                      : status::bad_request;
    send_page(code, request_error_sentence(ec, context_.options), false);
    return;
  }
  const auto& head = request_parser_->get();
  auto verdict = screen_request(head, context_.policy);
  if (auto* answer = std::get_if<Answer>(&verdict)) {
    send_answer(*answer, request_parser_->keep_alive() && request_parser_->is_done());
    return;
  }
  if (auto* to_site = std::get_if<ToSite>(&verdict)) {
    login_cookie_ = std::move(to_site->set_cookie);
    client_keep_alive_ = request_parser_->keep_alive();
    site_body_.clear();
    if (request_parser_->is_done()) {
      ask_site();
    } else {
      read_site_body();
    }
    return;
  }
  auto& forward = std::get<Forward>(verdict);
  route_ = std::move(forward.route);
  login_cookie_ = std::move(forward.set_cookie);
  client_keep_alive_ = request_parser_->keep_alive();
  request_has_body_ = !request_parser_->is_done();
  if (auto cached = context_.directory.cached(route_.application_id)) {
    on_resolved(cached);
    return;
  }
  context_.directory.look_up(route_.application_id, [self = shared_from_this()](ResolutionPtr resolution) {
    net::post(self->client_.get_executor(), [self, resolution] { self->on_resolved(resolution); });
  });
}

void ClientSession::on_resolved(const ResolutionPtr& resolution) {
  const auto& app = route_.application_id;
  const bool keep_alive = client_keep_alive_ && !request_has_body_;
  if (!resolution->ok()) {
    const auto& why = resolution->error();
    switch (why.state) {
      case UpstreamState::unknown:
        send_page(status::not_found, why.message.empty() ? "No job " + app + " is known on this machine." : why.message,
                  keep_alive);
        return;
      case UpstreamState::starting:
        send_page(status::bad_gateway, why.message.empty() ? "TensorBoard of " + app + " is starting." : why.message,
                  keep_alive, true);
        return;
      case UpstreamState::ended:
        send_page(status::gone,
                  why.message.empty() ? "The job " + app + " has ended, and its TensorBoard with it." : why.message,
                  keep_alive);
        return;
      case UpstreamState::forbidden:
        send_page(status::forbidden, why.message.empty() ? "The job " + app + " is not yours." : why.message,
                  keep_alive);
        return;
      case UpstreamState::unreachable:
        send_page(status::bad_gateway,
                  why.message.empty() ? "TensorBoard of " + app + " cannot be found now." : why.message, keep_alive,
                  true);
        return;
    }
  }
  resolution_ = resolution;
  open_upstream();
}

void ClientSession::open_upstream() {
  ++attempts_;
  const auto& upstream = resolution_->value();
  upstream_ = pool_.take(upstream.pool_key(), request_has_body_);
  if (upstream_) {
    send_request_head();
    return;
  }
  // Room for TensorBoard's largest head and one read beyond it.
  upstream_ = std::make_unique<UpstreamConnection>(
      client_.get_executor(), upstream.authority, upstream.pool_key(),
      upstream.certificate_sha256.empty() ? nullptr : &context_.upstream_tls, 2 * upstream_header_limit);
  // Beast reads no more than the buffer's free capacity, at least 512 bytes:
  // without room reserved, a large body would arrive 512 bytes per read.
  upstream_->buffer.reserve(body_buffer_bytes);
  watch(Waiting::upstream, context_.options.connect_timeout);
  net::async_connect(
      upstream_->socket(), upstream.endpoints,
      [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) { self->on_upstream_connected(ec); });
}

void ClientSession::on_upstream_connected(beast::error_code ec) {
  const auto& app = route_.application_id;
  if (ec) {
    const auto authority = upstream_->authority;
    upstream_.reset();
    // The job may have moved its TensorBoard; ask again next time.
    context_.directory.forget(app);
    if (timed_out_) {
      upstream_failed(status::gateway_timeout, "TensorBoard of " + app + " at " + authority +
                                                   " accepted no connection within " +
                                                   seconds_text(context_.options.connect_timeout) + ".");
    } else {
      upstream_failed(status::bad_gateway,
                      "TensorBoard of " + app + " does not answer at " + authority + " (" + ec.message() +
                          "), perhaps because it is still starting.",
                      true);
    }
    return;
  }
  beast::error_code ignored;
  upstream_->socket().set_option(tcp::no_delay(true), ignored);
  upstream_->socket().non_blocking(true, ignored);
  if (!upstream_->stream.tls()) {
    send_request_head();
    return;
  }
  upstream_->stream.secured().async_handshake(
      net::ssl::stream_base::client,
      [self = shared_from_this()](beast::error_code handshake_ec) { self->on_upstream_handshake(handshake_ec); });
}

void ClientSession::on_upstream_handshake(beast::error_code ec) {
  const auto& app = route_.application_id;
  const auto& pinned = resolution_->value().certificate_sha256;
  const auto authority = upstream_->authority;
  if (ec) {
    upstream_.reset();
    context_.directory.forget(app);
    upstream_failed(status::bad_gateway,
                    "TensorBoard of " + app + " at " + authority + " did not complete a TLS handshake (" +
                        ec.message() + "), perhaps because it is still starting.",
                    true);
    return;
  }
  if (const auto presented = peer_certificate_sha256(upstream_->stream.secured().native_handle());
      presented != pinned) {
    upstream_.reset();
    context_.directory.forget(app);
    upstream_failed(status::bad_gateway, "TensorBoard of " + app + " at " + authority +
                                             " presented a certificate (sha256 " + presented.substr(0, 16) +
                                             "...) other than the one its job registered (" + pinned.substr(0, 16) +
                                             "...); nothing was sent to it.");
    return;
  }
  send_request_head();
}

void ClientSession::send_request_head() {
  const auto head = upstream_request_head(request_parser_->get(), route_, upstream_->authority, client_address_,
                                          client_.tls() ? "https" : "http", request_parser_->chunked(),
                                          request_parser_->content_length().value_or(0));
  request_out_.emplace(serialize_head(head), request_parser_->chunked());
  request_out_->frame(nullptr, 0, !request_has_body_);
  write_upstream_request();
}

void ClientSession::write_upstream_request() {
  watch(Waiting::upstream, context_.options.idle_timeout);
  send(upstream_->stream, *request_out_, &ClientSession::on_upstream_request_written);
}

void ClientSession::on_upstream_request_written(beast::error_code ec) {
  if (ec) {
    if (may_retry()) {
      upstream_.reset();
      open_upstream();
      return;
    }
    upstream_failed(status::bad_gateway, "TensorBoard of " + route_.application_id +
                                             " closed the connection while taking the request (" + ec.message() + ").");
    return;
  }
  if (request_out_->ended()) {
    read_response_head();
    return;
  }
  read_request_body();
}

bool ClientSession::continue_first(void (ClientSession::*then)()) {
  const auto expect = request_parser_->get()[http::field::expect];
  if (continue_sent_ || !iequals(trim({expect.data(), expect.size()}, http_whitespace), "100-continue")) return false;
  // The client waits for this before it sends the body.
  continue_sent_ = true;
  watch(Waiting::client, context_.options.idle_timeout);
  net::async_write(client_, net::buffer(continue_line.data(), continue_line.size()),
                   [self = shared_from_this(), then](beast::error_code ec, std::size_t) {
                     if (ec) {
                       self->upstream_.reset();
                       self->close_now();
                       return;
                     }
                     ((*self).*then)();
                   });
  return true;
}

void ClientSession::read_request_body() {
  if (continue_first(&ClientSession::read_request_body)) return;
  auto& body = request_parser_->get().body();
  body.data = body_buffer_.get();
  body.size = body_buffer_bytes;
  watch(Waiting::client, context_.options.idle_timeout);
  http::async_read_some(client_, client_buffer_, *request_parser_,
                        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_request_body(ec); });
}

void ClientSession::on_request_body(beast::error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  if (ec) {
    // Half a request must not stay on a connection another request may use.
    upstream_.reset();
    if (ec == http::error::body_limit) {
      send_page(status::payload_too_large, request_error_sentence(ec, context_.options), false);
    } else if (is_quiet_end(ec)) {
      close_now();
    } else {
      send_page(status::bad_request, request_error_sentence(ec, context_.options), false);
    }
    return;
  }
  const auto produced = body_buffer_bytes - request_parser_->get().body().size;
  if (produced == 0 && !request_parser_->is_done()) {
    read_request_body();
    return;
  }
  request_out_->frame(body_buffer_.get(), produced, request_parser_->is_done());
  write_upstream_request();
}

void ClientSession::read_response_head() {
  response_parser_.emplace();
  response_parser_->header_limit(static_cast<std::uint32_t>(upstream_header_limit));
  // The body is streamed, never held, so its size is no concern here. (Not
  // boost::none: Boost 1.74 then refuses every body with a Content-Length.)
  response_parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
  if (request_is_head()) response_parser_->skip(true);
  watch(Waiting::upstream, context_.options.first_byte_timeout);
  http::async_read_header(
      upstream_->stream, upstream_->buffer, *response_parser_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_response_head(ec); });
}

void ClientSession::on_response_head(beast::error_code ec) {
  const auto& app = route_.application_id;
  if (ec) {
    if (timed_out_) {
      upstream_failed(status::gateway_timeout, "TensorBoard of " + app + " sent no answer within " +
                                                   seconds_text(context_.options.first_byte_timeout) + ".");
      return;
    }
    if (!response_parser_->got_some() && may_retry()) {
      upstream_.reset();
      open_upstream();
      return;
    }
    upstream_failed(status::bad_gateway,
                    "TensorBoard of " + app + " closed the connection without an answer (" + ec.message() + ").");
    return;
  }
  const auto code = response_parser_->get().result_int();
  if (code < 100) {
    upstream_failed(status::bad_gateway,
                    "TensorBoard of " + app + " answered with status " + std::to_string(code) + ", which HTTP lacks.");
    return;
  }
  if (code == 101) {
    upstream_failed(status::bad_gateway, "TensorBoard of " + app + " switched protocols, which this proxy refuses.");
    return;
  }
  if (code >= 100 && code < 200) {
    // Interim answers are the proxy's own business with TensorBoard.
    read_response_head();
    return;
  }
  start_response();
}

void ClientSession::start_response() {
  const auto& upstream_head = response_parser_->get();
  auto response = client_response_head(upstream_head, route_.application_id, upstream_->authority);
  response.version(request_parser_->get().version());
  if (!login_cookie_.empty()) response.insert(http::field::set_cookie, login_cookie_);
  const auto code = upstream_head.result_int();
  bool chunked = false;
  if (request_is_head() || code == 204 || code == 304) {
    if (const auto length = upstream_head[http::field::content_length]; !length.empty() && code != 204) {
      response.set(http::field::content_length, length);
    }
  } else if (const auto length = response_parser_->content_length()) {
    response.set(http::field::content_length, std::to_string(*length));
  } else if (response.version() >= 11) {
    // Chunked upstream, or one that ends its body by closing.
    response.set(http::field::transfer_encoding, "chunked");
    chunked = true;
  } else {
    // An HTTP/1.0 client learns the end of the body from the closed connection.
    client_keep_alive_ = false;
  }
  // Connection went with the hop-by-hop fields; only a change from the version's default is said.
  if (response.version() >= 11 && !client_keep_alive_) response.set(http::field::connection, "close");
  if (response.version() == 10 && client_keep_alive_) response.set(http::field::connection, "keep-alive");
  response_out_.emplace(serialize_head(response), chunked);
  if (response_parser_->is_done()) {
    response_out_->frame(nullptr, 0, true);
    write_client_response();
  } else {
    read_response_body();
  }
}

void ClientSession::read_response_body() {
  auto& in = response_parser_->get().body();
  in.data = body_buffer_.get();
  in.size = body_buffer_bytes;
  if (upstream_->buffer.size() > 0) {
    // What came with the head, or after the last piece, needs no read.
    beast::error_code ec;
    const auto used = response_parser_->put(upstream_->buffer.data(), ec);
    upstream_->buffer.consume(used);
    if (ec == http::error::need_buffer || ec == http::error::need_more) ec = {};
    if (ec || in.size < body_buffer_bytes || response_parser_->is_done()) {
      on_response_body(ec);
      return;
    }
    if (used > 0) {
      read_response_body();
      return;
    }
  }
  watch(Waiting::upstream, context_.options.first_byte_timeout);
  http::async_read_some(upstream_->stream, upstream_->buffer, *response_parser_,
                        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_response_body(ec); });
}

void ClientSession::on_response_body(beast::error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  if (ec) {
    upstream_failed(status::bad_gateway,
                    "TensorBoard of " + route_.application_id + " broke off its answer (" + ec.message() + ").");
    return;
  }
  const auto produced = body_buffer_bytes - response_parser_->get().body().size;
  if (produced == 0 && !response_parser_->is_done()) {
    read_response_body();
    return;
  }
  response_out_->frame(body_buffer_.get(), produced, response_parser_->is_done());
  write_client_response();
}

void ClientSession::write_client_response() {
  watch(Waiting::client, context_.options.idle_timeout);
  send(client_, *response_out_, &ClientSession::on_client_response_written);
}

namespace {

Socket* clear_socket(Socket& socket) {
  return &socket;
}
// OpenSSL keeps its own state of a write that a full socket cut short, so
// TLS always writes through the event loop.
Socket* clear_socket(MaybeTlsStream<Socket>& stream) {
  return stream.tls() ? nullptr : &stream.plain();
}

}  // namespace

template <typename Stream>
void ClientSession::send(Stream& stream, OutgoingMessage& message, void (ClientSession::*done)(error_code)) {
  // At once when the socket takes it all, which spares a trip through the
  // event loop; what it does not take goes asynchronously.
  if (Socket* socket = clear_socket(stream)) {
    beast::error_code ec;
    const auto written = net::write(*socket, message.pieces(), ec);
    if (ec != net::error::would_block && ec != net::error::try_again) {
      (this->*done)(ec);
      return;
    }
    message.consume(written);
  }
  net::async_write(
      stream, message.pieces(),
      [self = shared_from_this(), done](beast::error_code write_ec, std::size_t) { ((*self).*done)(write_ec); });
}

void ClientSession::on_client_response_written(beast::error_code ec) {
  response_started_ = true;
  if (ec) {
    // The client left; the rest of the answer would corrupt the upstream connection.
    upstream_.reset();
    close_now();
    return;
  }
  if (response_out_->ended()) {
    finish_exchange();
  } else {
    read_response_body();
  }
}

void ClientSession::finish_exchange() {
  if (upstream_ && response_parser_->is_done() && response_parser_->keep_alive() && upstream_->buffer.size() == 0) {
    pool_.give_back(std::move(upstream_));
  }
  upstream_.reset();
  if (!client_keep_alive_) {
    linger_then_close();
    return;
  }
  read_request_head();
}

bool ClientSession::may_retry() const {
  // A connection taken from the pool may have been closed by TensorBoard
  // just as it was taken; a request without a body can go again on a new one.
  return upstream_ && upstream_->reused && !request_has_body_ && !response_started_ && attempts_ < most_attempts;
}

void ClientSession::upstream_failed(status code, std::string sentence, bool retries) {
  upstream_.reset();
  if (response_started_) {
    close_now();
    return;
  }
  send_page(code, std::move(sentence), client_keep_alive_ && request_parser_->is_done(), retries);
}

}  // namespace spindle::tbproxy
