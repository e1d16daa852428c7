// The ends of an exchange: the proxy's own pages, timeouts and closing.

#include <boost/asio/write.hpp>

#include "client_session.h"
#include "error_page.h"

namespace spindle::tbproxy {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr int retry_seconds = 5;
constexpr auto linger_time = std::chrono::seconds(2);

}  // namespace

void ClientSession::send_answer(const Answer& answer, bool keep_alive) {
  page_.emplace(answer.status, request_parser_ ? request_parser_->get().version() : 11);
  if (!answer.location.empty()) page_->set(http::field::location, answer.location);
  if (!answer.set_cookie.empty()) page_->set(http::field::set_cookie, answer.set_cookie);
  if (!answer.allow.empty()) page_->set(http::field::allow, answer.allow);
  if (answer.negotiate) page_->set(http::field::www_authenticate, "Negotiate");
  write_page(answer.status, answer.sentence, keep_alive);
}

void ClientSession::send_page(status code, std::string sentence, bool keep_alive, bool retries) {
  page_.emplace(code, request_parser_ && request_parser_->get().version() == 10 ? 10 : 11);
  if (retries) {
    page_->set("Refresh", std::to_string(retry_seconds));
    if (sentence.ends_with('.')) sentence.pop_back();
    sentence += "; this page retries every " + std::to_string(retry_seconds) + " s.";
  }
  write_page(code, sentence, keep_alive);
}

void ClientSession::write_page(status code, std::string_view sentence, bool keep_alive) {
  // Programs that ask for JSON (the API's clients) get the sentence as JSON, as the API's own refusals are.
  const auto accept = request_parser_ ? request_parser_->get()[http::field::accept] : beast::string_view();
  if (std::string_view(accept.data(), accept.size()).find("application/json") != std::string_view::npos) {
    page_->set(http::field::content_type, "application/json; charset=utf-8");
    page_->body() = error_json(sentence);
  } else {
    page_->set(http::field::content_type, "text/html; charset=utf-8");
    page_->body() = error_page(code, sentence);
  }
  page_->set(http::field::cache_control, "no-store");
  send_whole_page(keep_alive);
}

void ClientSession::send_whole_page(bool keep_alive) {
  auto& page = *page_;
  page.keep_alive(keep_alive);
  page.prepare_payload();
  if (request_is_head()) page.body().clear();
  watch(Waiting::client, context_.options.idle_timeout);
  http::async_write(client_, page, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
    if (ec) {
      self->close_now();
    } else if (keep_alive) {
      self->read_request_head();
    } else {
      self->linger_then_close();
    }
  });
}

void ClientSession::linger_then_close() {
  beast::error_code ignored;
  client_.plain().shutdown(tcp::socket::shutdown_send, ignored);
  watch(Waiting::client, linger_time);
  drain_then_close();
}

void ClientSession::drain_then_close() {
  client_.async_read_some(net::buffer(body_buffer_.get(), body_buffer_bytes),
                          [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) {
                              self->close_now();
                            } else {
                              self->drain_then_close();
                            }
                          });
}

void ClientSession::watch(Waiting on, std::chrono::milliseconds timeout) {
  waiting_ = on;
  timed_out_ = false;
  deadline_ = std::chrono::steady_clock::now() + timeout;
  if (deadline_ < timer_expiry_) arm_timer();
}

void ClientSession::arm_timer() {
  timer_expiry_ = deadline_;
  // Moving the expiry cancels the wait under way; its handler sees an old generation.
  timer_.expires_at(deadline_);
  timer_.async_wait(
      [self = shared_from_this(), generation = ++timer_generation_](beast::error_code) { self->on_timer(generation); });
}

void ClientSession::on_timer(std::uint64_t generation) {
  if (generation != timer_generation_ || closed_) return;
  timer_expiry_ = std::chrono::steady_clock::time_point::max();
  if (std::chrono::steady_clock::now() < deadline_) {
    arm_timer();
    return;
  }
  // The operation under way ends with operation_aborted; its handler reads timed_out_.
  timed_out_ = true;
  beast::error_code ignored;
  if (waiting_ == Waiting::upstream && upstream_) {
    upstream_->socket().close(ignored);
  } else {
    client_.plain().cancel(ignored);
  }
}

void ClientSession::close_now() {
  beast::error_code ignored;
  closed_ = true;
  timer_.cancel();
  client_.plain().shutdown(tcp::socket::shutdown_both, ignored);
  client_.plain().close(ignored);
}

}  // namespace spindle::tbproxy
