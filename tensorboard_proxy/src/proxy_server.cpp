#include "spindle/tbproxy/proxy_server.h"

#include <sys/random.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cerrno>
#include <exception>
#include <optional>
#include <thread>
#include <vector>

#include "client_session.h"
#include "proxy_context.h"
#include "spindle/core/text_encodings.h"
#include "upstream_pool.h"

namespace spindle::tbproxy {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// How long TensorBoard's idle connections are trusted to still be open.
constexpr auto longest_upstream_idle = std::chrono::seconds(30);

// One thread with its own event loop and its own idle upstream connections,
// so a connection never changes threads and nothing needs a lock.
struct Worker {
  explicit Worker(std::size_t idle_per_upstream) : pool(idle_per_upstream, longest_upstream_idle) {}

  net::io_context io{1};
  net::executor_work_guard<net::io_context::executor_type> busy = net::make_work_guard(io);
  UpstreamPool pool;
  std::thread thread;
};

class Server final : public ProxyServer {
 public:
  Server(ProxyOptions options, UpstreamResolver resolver) : context_(std::move(options), std::move(resolver)) {
    for (int i = 0; i < std::max(1, context_.options.threads); ++i) {
      workers_.push_back(std::make_unique<Worker>(context_.options.idle_connections_per_upstream));
    }
    acceptor_.emplace(workers_.front()->io);
    accept_pause_.emplace(workers_.front()->io);
  }
  ~Server() override { stop(); }

  Result<void> listen() {
    const auto& options = context_.options;
    boost::system::error_code ec;
    const auto address =
        net::ip::make_address(options.bind_address == "localhost" ? "127.0.0.1" : options.bind_address, ec);
    if (ec) return make_error("\"" + options.bind_address + "\" is not an address to listen on");
    if (!address.is_loopback() && options.access_token.empty()) {
      return make_error("listening on " + options.bind_address +
                        " lets other machines in, so the proxy needs an access token for it");
    }
    if (auto loaded = context_.load_tls(); !loaded) return loaded.error();
    if (context_.policy.kerberos && context_.policy.kerberos->cookie_secret.empty()) {
      auto secret = make_access_token();
      if (!secret) return secret.error();
      auto logins = std::make_shared<KerberosLogins>(*context_.policy.kerberos);
      logins->cookie_secret = std::move(*secret);
      context_.policy.kerberos = std::move(logins);
    }
    const tcp::endpoint endpoint(address, options.port);
    acceptor_->open(endpoint.protocol(), ec);
    if (!ec) acceptor_->set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_->bind(endpoint, ec);
    if (!ec) acceptor_->listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
      return make_error("the TensorBoard proxy cannot listen on " + options.bind_address + ":" +
                        std::to_string(options.port) + ": " + ec.message());
    }
    port_ = acceptor_->local_endpoint().port();
    accept();
    for (auto& worker : workers_) {
      worker->thread = std::thread([&io = worker->io] { io.run(); });
    }
    return {};
  }

  std::uint16_t port() const override { return port_; }

  void stop() override {
    if (stopped_.exchange(true)) return;
    net::post(workers_.front()->io, [this] {
      boost::system::error_code ignored;
      acceptor_->close(ignored);
      accept_pause_->cancel();
    });
    // Lookups under way answer into the event loops, so they end first.
    context_.directory.stop();
    for (auto& worker : workers_) {
      worker->busy.reset();
      worker->io.stop();
    }
    for (auto& worker : workers_) {
      if (worker->thread.joinable()) worker->thread.join();
    }
    boost::system::error_code ignored;
    acceptor_->close(ignored);
    for (auto& worker : workers_) worker->pool.clear();
  }

 private:
  void accept() {
    auto& worker = *workers_[next_worker_];
    next_worker_ = (next_worker_ + 1) % workers_.size();
    acceptor_->async_accept(worker.io, [this, &worker](boost::system::error_code ec, Socket socket) {
      if (ec == net::error::operation_aborted) return;
      if (!ec) {
        auto session = std::make_shared<ClientSession>(std::move(socket), context_, worker.pool);
        net::post(worker.io, [session] { session->start(); });
        accept();
        return;
      }
      // Out of descriptors or memory: accepting again at once would spin.
      accept_pause_->expires_after(std::chrono::milliseconds(50));
      accept_pause_->async_wait([this](boost::system::error_code wait_ec) {
        if (!wait_ec) accept();
      });
    });
  }

  // The workers go last, after everything that lives on their event loops.
  std::vector<std::unique_ptr<Worker>> workers_;
  ProxyContext context_;
  std::optional<tcp::acceptor> acceptor_;
  std::optional<net::steady_timer> accept_pause_;
  std::size_t next_worker_ = 0;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopped_ = false;
};

}  // namespace

Result<void> ProxyContext::load_tls() {
  if (options.tls_certificate_pem.empty() && options.tls_key_pem.empty()) return {};
  if (options.tls_certificate_pem.empty() || options.tls_key_pem.empty()) {
    return make_error("TLS needs both a certificate and its private key; one of them is missing");
  }
  namespace ssl = net::ssl;
  tls.emplace(ssl::context::tls_server);
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  // Idle keep-alive connections would otherwise hold OpenSSL's buffers.
  SSL_CTX_set_mode(tls->native_handle(), SSL_MODE_RELEASE_BUFFERS);
  boost::system::error_code ec;
  // The key first: OpenSSL then checks the certificate against it below, and our sentence says which is wrong.
  tls->use_private_key(net::buffer(options.tls_key_pem), ssl::context::pem, ec);
  if (ec) {
    return make_error("the TLS private key cannot be used: " + ec.message() +
                      "; give the unencrypted PEM key of the certificate");
  }
  tls->use_certificate_chain(net::buffer(options.tls_certificate_pem), ec);
  if (ec) return make_error("the TLS certificate cannot be used: " + ec.message() + "; give a PEM certificate");
  if (SSL_CTX_check_private_key(tls->native_handle()) != 1) {
    return make_error(
        "the TLS private key does not belong to the certificate; give the key the certificate was made for");
  }
  return {};
}

Result<std::unique_ptr<ProxyServer>> ProxyServer::start(ProxyOptions options, UpstreamResolver resolver) {
  if (!resolver) return make_error("the TensorBoard proxy needs a way to find each job's TensorBoard");
  try {
    auto server = std::make_unique<Server>(std::move(options), std::move(resolver));
    if (auto listening = server->listen(); !listening) return listening.error();
    return std::unique_ptr<ProxyServer>(std::move(server));
  } catch (const std::exception& e) {
    return make_error(std::string("the TensorBoard proxy could not start: ") + e.what());
  }
}

Result<std::string> make_access_token() {
  unsigned char bytes[32];
  std::size_t filled = 0;
  while (filled < sizeof(bytes)) {
    const auto got = ::getrandom(bytes + filled, sizeof(bytes) - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return make_error("the kernel gave no random bytes for an access token");
    }
    filled += static_cast<std::size_t>(got);
  }
  return hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

bool is_loopback_address(std::string_view address) {
  if (address == "localhost") return true;
  boost::system::error_code ec;
  const auto parsed = net::ip::make_address(std::string(address), ec);
  return !ec && parsed.is_loopback();
}

}  // namespace spindle::tbproxy
