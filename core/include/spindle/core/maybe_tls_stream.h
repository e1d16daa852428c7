#pragma once

// One connection in clear or in TLS over it, as a single stream for Beast's
// reads and writes (synchronous and asynchronous), so that code that speaks
// HTTP over it does not care which. Used by the job API's server and client
// over Beast's tcp_stream, and by the TensorBoard proxy over a bare socket.

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

#include <optional>
#include <utility>

namespace spindle {

template <typename Plain>
class MaybeTlsStream {
 public:
  using executor_type = typename Plain::executor_type;

  // Clear unless `tls` is given; the context must outlive the stream.
  MaybeTlsStream(Plain plain, boost::asio::ssl::context* tls) : plain_(std::move(plain)) {
    if (tls) tls_.emplace(plain_, *tls);
  }
  MaybeTlsStream(const MaybeTlsStream&) = delete;
  MaybeTlsStream& operator=(const MaybeTlsStream&) = delete;

  executor_type get_executor() { return plain_.get_executor(); }
  bool tls() const { return tls_.has_value(); }
  Plain& plain() { return plain_; }
  // The TLS layer, for its handshake and peer; only when tls().
  boost::beast::ssl_stream<Plain&>& secured() { return *tls_; }
  // Speaks clear from now on: to tell a client that sent clear HTTP to a
  // TLS port what went wrong, in words it can read.
  void stop_tls() { tls_.reset(); }

  template <typename Buffers, typename Handler>
  void async_read_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      tls_->async_read_some(buffers, std::forward<Handler>(handler));
    } else {
      plain_.async_read_some(buffers, std::forward<Handler>(handler));
    }
  }
  template <typename Buffers, typename Handler>
  void async_write_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      tls_->async_write_some(buffers, std::forward<Handler>(handler));
    } else {
      plain_.async_write_some(buffers, std::forward<Handler>(handler));
    }
  }
  template <typename Buffers>
  std::size_t read_some(const Buffers& buffers, boost::beast::error_code& ec) {
    return tls_ ? tls_->read_some(buffers, ec) : plain_.read_some(buffers, ec);
  }
  template <typename Buffers>
  std::size_t read_some(const Buffers& buffers) {
    return tls_ ? tls_->read_some(buffers) : plain_.read_some(buffers);
  }
  template <typename Buffers>
  std::size_t write_some(const Buffers& buffers, boost::beast::error_code& ec) {
    return tls_ ? tls_->write_some(buffers, ec) : plain_.write_some(buffers, ec);
  }
  template <typename Buffers>
  std::size_t write_some(const Buffers& buffers) {
    return tls_ ? tls_->write_some(buffers) : plain_.write_some(buffers);
  }

  void close() {
    boost::beast::error_code ignored;
    socket_of(plain_).shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  }

 private:
  static auto& socket_of(boost::beast::tcp_stream& stream) { return stream.socket(); }
  template <typename Socket>
  static Socket& socket_of(Socket& socket) {
    return socket;
  }

  Plain plain_;
  std::optional<boost::beast::ssl_stream<Plain&>> tls_;
};

}  // namespace spindle
