#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "io_types.h"
#include "outgoing_message.h"
#include "proxy_context.h"
#include "spindle/core/maybe_tls_stream.h"
#include "upstream_pool.h"

namespace spindle::tbproxy {

// One client connection: reads its requests one after another and relays
// each to the job's TensorBoard over a pooled connection, bodies passing
// through one fixed buffer in both directions. Lives on one thread.
class ClientSession : public std::enable_shared_from_this<ClientSession> {
 public:
  ClientSession(Socket socket, ProxyContext& context, UpstreamPool& pool);
  void start();

 private:
  // The one buffer a body passes through, whatever its size.
  static constexpr std::size_t body_buffer_bytes = 64 * 1024;
  using error_code = boost::beast::error_code;
  using status = boost::beast::http::status;

  // On a TLS port: a clear HTTP request is answered in clear, anything else must be a handshake.
  void on_first_bytes(error_code ec);
  void read_request_head();
  void on_request_head(error_code ec);
  void on_resolved(const ResolutionPtr& resolution);
  void open_upstream();
  void on_upstream_connected(error_code ec);
  void on_upstream_handshake(error_code ec);
  // A request for the local site: its body is read whole, then the site answers.
  void read_site_body();
  void on_site_body(error_code ec);
  void ask_site();
  void send_site_response(tbproxy::SiteResponse response, bool keep_alive);
  void send_request_head();
  void write_upstream_request();
  void on_upstream_request_written(error_code ec);
  // Sends "100 Continue" and goes on with `then` when the client waits for
  // it before its body; false when it does not.
  bool continue_first(void (ClientSession::*then)());
  void read_request_body();
  void on_request_body(error_code ec);
  void read_response_head();
  void on_response_head(error_code ec);
  void start_response();
  void read_response_body();
  void on_response_body(error_code ec);
  void write_client_response();
  void on_client_response_written(error_code ec);
  template <typename Stream>
  void send(Stream& stream, OutgoingMessage& message, void (ClientSession::*done)(error_code));
  void finish_exchange();

  // The request failed at the upstream: a page while the client has seen
  // nothing of the response, else the cut connection tells it.
  void upstream_failed(status code, std::string sentence, bool retries = false);
  bool may_retry() const;
  void send_answer(const Answer& answer, bool keep_alive);
  void send_page(status code, std::string sentence, bool keep_alive, bool retries = false);
  void write_page(status code, std::string_view sentence, bool keep_alive);
  // Writes page_ as it stands, then reads the next request or closes.
  void send_whole_page(bool keep_alive);
  // Stops sending and reads what the client still sends for a moment, so
  // the kernel does not reset the connection under the last answer.
  void linger_then_close();
  void drain_then_close();
  void close_now();
  bool request_is_head() const;

  // Timeouts cost one stored time per operation: the single timer is set
  // again only when it fires early or must fire sooner, not for every read
  // and write.
  enum class Waiting { client, upstream };
  void watch(Waiting on, std::chrono::milliseconds timeout);
  void arm_timer();
  void on_timer(std::uint64_t generation);

  MaybeTlsStream<Socket> client_;
  Timer timer_;
  std::chrono::steady_clock::time_point deadline_;
  std::chrono::steady_clock::time_point timer_expiry_ = std::chrono::steady_clock::time_point::max();
  std::uint64_t timer_generation_ = 0;
  Waiting waiting_ = Waiting::client;
  bool timed_out_ = false;
  bool closed_ = false;
  boost::beast::flat_buffer client_buffer_;
  ProxyContext& context_;
  UpstreamPool& pool_;
  std::string client_address_;
  std::unique_ptr<char[]> body_buffer_;

  // The exchange under way.
  std::optional<boost::beast::http::request_parser<boost::beast::http::buffer_body>> request_parser_;
  ProxyRoute route_;
  std::string login_cookie_;  // set on this request's response: a Kerberos login just made
  ResolutionPtr resolution_;
  std::unique_ptr<UpstreamConnection> upstream_;
  std::optional<OutgoingMessage> request_out_;
  std::optional<boost::beast::http::response_parser<boost::beast::http::buffer_body>> response_parser_;
  std::optional<OutgoingMessage> response_out_;
  std::optional<boost::beast::http::response<boost::beast::http::string_body>> page_;
  std::string site_body_;
  bool client_keep_alive_ = false;
  bool request_has_body_ = false;
  bool continue_sent_ = false;
  bool response_started_ = false;
  int attempts_ = 0;
};

}  // namespace spindle::tbproxy
