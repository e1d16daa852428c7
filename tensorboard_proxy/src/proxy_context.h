#pragma once

#include <boost/asio/ssl/context.hpp>

#include <optional>

#include "spindle/tbproxy/proxy_server.h"
#include "spindle/tbproxy/request_screen.h"
#include "upstream_directory.h"

namespace spindle::tbproxy {

// What every connection of one proxy shares.
struct ProxyContext {
  ProxyContext(ProxyOptions proxy_options, UpstreamResolver resolver)
      : options(std::move(proxy_options)), directory(std::move(resolver), options.lookup_ttl, lookup_threads) {
    policy.access_token = options.access_token;
    policy.loopback_hosts_only = options.access_token.empty();
    policy.max_body_bytes = options.max_request_body_bytes;
    policy.has_site = options.site != nullptr;
    policy.secure_cookie = !options.tls_certificate_pem.empty();
    policy.kerberos = options.kerberos;
  }

  // Set from the options' certificate and key before the first connection.
  Result<void> load_tls();

  static constexpr int lookup_threads = 2;
  ProxyOptions options;
  ScreenPolicy policy;
  UpstreamDirectory directory;
  std::optional<boost::asio::ssl::context> tls;
  // For TensorBoards behind TLS: their certificates are self-signed, so a
  // pin, checked after the handshake, says which one is the job's.
  boost::asio::ssl::context upstream_tls{boost::asio::ssl::context::tls_client};
};

}  // namespace spindle::tbproxy
