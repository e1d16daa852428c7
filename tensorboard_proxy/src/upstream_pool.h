#pragma once

#include <boost/beast/core/flat_buffer.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "io_types.h"
#include "spindle/core/maybe_tls_stream.h"

namespace spindle::tbproxy {

// One keep-alive connection to a TensorBoard, in clear or behind TLS.
struct UpstreamConnection {
  // `tls`: for a TensorBoard behind TLS, else null.
  UpstreamConnection(Executor executor, std::string upstream_authority, std::string key, boost::asio::ssl::context* tls,
                     std::size_t buffer_limit)
      : stream(Socket(std::move(executor)), tls),
        buffer(buffer_limit),
        authority(std::move(upstream_authority)),
        pool_key(std::move(key)) {}

  Socket& socket() { return stream.plain(); }

  MaybeTlsStream<Socket> stream;
  boost::beast::flat_buffer buffer;
  std::string authority;
  std::string pool_key;  // the upstream's authority, and its certificate's pin behind TLS
  std::chrono::steady_clock::time_point idle_since;
  bool reused = false;  // it served a request before, so it may have been closed under us
};

// The idle connections of one thread, per upstream address. Used from its
// own thread only, so it needs no lock.
class UpstreamPool {
 public:
  UpstreamPool(std::size_t per_upstream, std::chrono::milliseconds longest_idle)
      : per_upstream_(per_upstream), longest_idle_(longest_idle) {}

  // An idle connection the upstream has not closed, or null. A connection
  // idle for less than a second is checked only when `for_a_body`: a
  // request without one can go again on a new connection if it was closed.
  std::unique_ptr<UpstreamConnection> take(const std::string& pool_key, bool for_a_body);
  // Keeps a connection whose last response ended cleanly.
  void give_back(std::unique_ptr<UpstreamConnection> connection);
  void clear() { idle_.clear(); }

 private:
  std::size_t per_upstream_;
  std::chrono::milliseconds longest_idle_;
  std::unordered_map<std::string, std::vector<std::unique_ptr<UpstreamConnection>>> idle_;
};

}  // namespace spindle::tbproxy
