// Requests for the local site: the body is gathered whole (the proxy's body
// limit bounds it), the site is asked, and its answer is written when it
// comes, which for a long poll is much later and from another thread.

#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>

#include "client_session.h"
#include "session_errors.h"

namespace spindle::tbproxy {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

}  // namespace

void ClientSession::read_site_body() {
  if (continue_first(&ClientSession::read_site_body)) return;
  auto& body = request_parser_->get().body();
  body.data = body_buffer_.get();
  body.size = body_buffer_bytes;
  watch(Waiting::client, context_.options.idle_timeout);
  http::async_read_some(client_, client_buffer_, *request_parser_,
                        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_site_body(ec); });
}

void ClientSession::on_site_body(beast::error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  if (ec) {
    if (is_quiet_end(ec)) {
      close_now();
    } else {
      const auto code = ec == http::error::body_limit ? status::payload_too_large : status::bad_request;
      send_page(code, request_error_sentence(ec, context_.options), false);
    }
    return;
  }
  const auto produced = body_buffer_bytes - request_parser_->get().body().size;
  site_body_.append(body_buffer_.get(), produced);
  if (request_parser_->is_done()) {
    ask_site();
  } else {
    read_site_body();
  }
}

void ClientSession::ask_site() {
  const auto& head = request_parser_->get();
  SiteRequest request;
  request.method = head.method();
  request.target = std::string(head.target());
  request.version = head.version();
  for (const auto& field : head) request.fields.insert(field.name_string(), field.value());
  request.body = std::move(site_body_);
  request.client_address = client_address_;
  const bool keep_alive = client_keep_alive_;
  // The site may take its time: the connection is idle, not stuck, meanwhile.
  watch(Waiting::client, std::chrono::hours(1));
  auto self = shared_from_this();
  context_.options.site->handle(std::move(request), [self, keep_alive](SiteResponse response) {
    auto executor = self->client_.get_executor();
    net::post(executor, [self, keep_alive, response = std::move(response)]() mutable {
      self->send_site_response(std::move(response), keep_alive);
    });
  });
}

void ClientSession::send_site_response(SiteResponse response, bool keep_alive) {
  if (closed_) return;
  page_.emplace(std::move(response));
  page_->version(request_parser_->get().version());
  if (!login_cookie_.empty()) page_->insert(http::field::set_cookie, login_cookie_);
  send_whole_page(keep_alive);
}

}  // namespace spindle::tbproxy
