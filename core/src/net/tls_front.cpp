#include "spindle/core/tls_front.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <atomic>
#include <thread>

namespace spindle {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// A client that connects and says nothing must not hold a relay for ever.
constexpr auto handshake_timeout = std::chrono::seconds(15);
constexpr std::size_t piece_bytes = 16 * 1024;

// One client's connection and its connection to the server behind.
class Relay : public std::enable_shared_from_this<Relay> {
 public:
  Relay(tcp::socket client, ssl::context& tls, std::uint16_t loopback_port)
      : outside_(std::move(client), tls),
        inside_(outside_.get_executor()),
        timer_(outside_.get_executor()),
        loopback_port_(loopback_port) {}

  void start() {
    timer_.expires_after(handshake_timeout);
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (!ec) self->close();
    });
    outside_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](error_code ec) {
      if (ec) return self->close();
      self->connect_inside();
    });
  }

 private:
  void connect_inside() {
    const tcp::endpoint behind(net::ip::address_v4::loopback(), loopback_port_);
    inside_.async_connect(behind, [self = shared_from_this()](error_code ec) {
      self->timer_.cancel();
      if (ec) return self->close();
      error_code ignored;
      self->inside_.set_option(tcp::no_delay(true), ignored);
      self->outside_.next_layer().set_option(tcp::no_delay(true), ignored);
      self->pump(self->outside_, self->inside_, self->from_outside_, &Relay::outside_ended);
      self->pump(self->inside_, self->outside_, self->from_inside_, &Relay::inside_ended);
    });
  }

  // Copies what `from` sends to `to`, a piece at a time through `buffer`,
  // until `from` ends (then `ended`) or a write fails (then the relay closes).
  template <typename From, typename To>
  void pump(From& from, To& to, std::array<char, piece_bytes>& buffer, void (Relay::*ended)()) {
    from.async_read_some(net::buffer(buffer),
                         [self = shared_from_this(), &from, &to, &buffer, ended](error_code ec, std::size_t n) {
                           if (ec) return ((*self).*ended)();
                           net::async_write(to, net::buffer(buffer, n),
                                            [self, &from, &to, &buffer, ended](error_code write_ec, std::size_t) {
                                              if (write_ec) return self->close();
                                              self->pump(from, to, buffer, ended);
                                            });
                         });
  }

  // The client is done sending (or gone): the server behind gets its end of
  // stream, answers what it still owes, and then closes, which ends the relay.
  void outside_ended() {
    error_code ignored;
    inside_.shutdown(tcp::socket::shutdown_send, ignored);
  }

  // The server closed: the client gets TLS's end of stream, then the socket
  // closes, whether or not the client acknowledges it in time.
  void inside_ended() {
    timer_.expires_after(std::chrono::seconds(5));
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (!ec) self->close();
    });
    outside_.async_shutdown([self = shared_from_this()](error_code) { self->close(); });
  }

  void close() {
    error_code ignored;
    timer_.cancel();
    outside_.next_layer().close(ignored);
    inside_.close(ignored);
  }

  ssl::stream<tcp::socket> outside_;
  tcp::socket inside_;
  net::steady_timer timer_;
  std::uint16_t loopback_port_;
  std::array<char, piece_bytes> from_outside_{};
  std::array<char, piece_bytes> from_inside_{};
};

class RunningTlsFront final : public TlsFront {
 public:
  RunningTlsFront() : tls_(ssl::context::tls_server), acceptor_(io_) {}
  ~RunningTlsFront() override {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  Result<void> listen(std::uint16_t public_port, std::uint16_t loopback_port, const std::string& certificate_pem,
                      const std::string& key_pem) {
    error_code ec;
    tls_.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                     ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    tls_.use_certificate_chain(net::buffer(certificate_pem), ec);
    if (!ec) tls_.use_private_key(net::buffer(key_pem), ssl::context::pem, ec);
    if (ec) return make_error("the task's certificate or key cannot be used for TLS: " + ec.message());
    const tcp::endpoint everywhere(tcp::v4(), public_port);
    acceptor_.open(everywhere.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(everywhere, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return make_error("cannot serve TLS on port " + std::to_string(public_port) + ": " + ec.message());
    loopback_port_ = loopback_port;
    accept();
    thread_ = std::thread([this] { io_.run(); });
    return {};
  }

  std::uint64_t connections() const override { return connections_; }

 private:
  void accept() {
    acceptor_.async_accept([this](error_code ec, tcp::socket client) {
      if (ec == net::error::operation_aborted) return;
      if (!ec) {
        ++connections_;
        std::make_shared<Relay>(std::move(client), tls_, loopback_port_)->start();
      }
      accept();
    });
  }

  // Before the event loop, whose pending handlers hold relays that use it.
  ssl::context tls_;
  net::io_context io_;
  tcp::acceptor acceptor_;
  std::uint16_t loopback_port_ = 0;
  std::atomic<std::uint64_t> connections_{0};
  std::thread thread_;
};

}  // namespace

Result<std::unique_ptr<TlsFront>> TlsFront::start(std::uint16_t public_port, std::uint16_t loopback_port,
                                                  const std::string& certificate_pem, const std::string& key_pem) {
  auto front = std::make_unique<RunningTlsFront>();
  if (auto listening = front->listen(public_port, loopback_port, certificate_pem, key_pem); !listening) {
    return listening.error();
  }
  return std::unique_ptr<TlsFront>(std::move(front));
}

}  // namespace spindle
