#pragma once

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
  }

  static constexpr int lookup_threads = 2;
  ProxyOptions options;
  ScreenPolicy policy;
  UpstreamDirectory directory;
};

}  // namespace spindle::tbproxy
