#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/tbproxy/kerberos_logins.h"
#include "spindle/tbproxy/local_site.h"
#include "spindle/tbproxy/upstream.h"

namespace spindle::tbproxy {

struct ProxyOptions {
  std::string bind_address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port
  // Required when bind_address is not a loopback address; see ScreenPolicy.
  std::string access_token;
  // PEM texts, both or neither: with them every connection must speak TLS,
  // and one that sends clear HTTP is told so in a clear answer.
  std::string tls_certificate_pem;
  std::string tls_key_pem;
  int threads = 1;
  std::size_t max_header_bytes = 16 * 1024;
  std::uint64_t max_request_body_bytes = 8 * 1024 * 1024;
  std::chrono::milliseconds connect_timeout{5'000};
  // TensorBoard's first answer over a large log directory can take a while.
  std::chrono::milliseconds first_byte_timeout{120'000};
  // A client's idle keep-alive connection, and any one read or write.
  std::chrono::milliseconds idle_timeout{60'000};
  // How long one answer of the resolver is used before asking again.
  std::chrono::milliseconds lookup_ttl{3'000};
  std::size_t idle_connections_per_upstream = 16;
  // Kerberos logins beside the token (see kerberos_logins.h); null: none.
  std::shared_ptr<const KerberosLogins> kerberos;
  // Serves what is not under /tb/ (with the same token); none: 404.
  std::shared_ptr<LocalSite> site;
};

// Serves /tb/<application id>/... from that job's TensorBoard, which the
// resolver names: HTTP/1.1 keep-alive on both sides, bodies streamed through
// a fixed buffer in both directions, encodings passed through untouched.
class ProxyServer {
 public:
  // Listens before it returns, so port() is ready to print.
  static Result<std::unique_ptr<ProxyServer>> start(ProxyOptions options, UpstreamResolver resolver);
  virtual ~ProxyServer() = default;
  virtual std::uint16_t port() const = 0;
  // Stops accepting, waits for lookups under way, closes every connection
  // and joins the threads.
  virtual void stop() = 0;
};

// 32 random bytes from the kernel, as 64 hex digits.
Result<std::string> make_access_token();

// Whether an address to listen on keeps the proxy to this machine.
bool is_loopback_address(std::string_view address);

}  // namespace spindle::tbproxy
