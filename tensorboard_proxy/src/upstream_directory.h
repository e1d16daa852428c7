#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "spindle/tbproxy/upstream.h"

namespace spindle::tbproxy {

// A job's TensorBoard with its address already resolved, so requests need
// no name lookup.
struct ResolvedUpstream {
  std::string authority;  // host:port, as Host and Location name it
  std::vector<boost::asio::ip::tcp::endpoint> endpoints;
  std::string certificate_sha256;  // TLS with this pinned certificate; empty: clear

  // Idle connections are kept per upstream and per certificate.
  std::string pool_key() const { return certificate_sha256.empty() ? authority : authority + "#" + certificate_sha256; }
};

using Resolution = Result<ResolvedUpstream, UpstreamUnavailable>;
using ResolutionPtr = std::shared_ptr<const Resolution>;

// The resolver's answers, kept for a few seconds; concurrent requests for
// one job share one call. Lookups run on their own threads because the
// resolver may block on the network.
class UpstreamDirectory {
 public:
  UpstreamDirectory(UpstreamResolver resolver, std::chrono::milliseconds ttl, int threads);
  ~UpstreamDirectory();

  // The answer still fresh for this job, if there is one.
  ResolutionPtr cached(const std::string& application_id);
  // Calls `done` from a lookup thread with a new answer.
  void look_up(const std::string& application_id, std::function<void(ResolutionPtr)> done);
  // Drops the answer for a job whose TensorBoard did not answer at its address.
  void forget(const std::string& application_id);
  // Waits for the lookups under way; later ones are answered "unreachable".
  void stop();

 private:
  struct Entry {
    ResolutionPtr answer;
    std::chrono::steady_clock::time_point expires;
    std::vector<std::function<void(ResolutionPtr)>> waiting;
    bool looking = false;
  };
  ResolutionPtr resolve(const std::string& application_id);
  void drop_expired(std::chrono::steady_clock::time_point now);

  UpstreamResolver resolver_;
  std::chrono::milliseconds ttl_;
  boost::asio::thread_pool lookups_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  bool stopped_ = false;
};

}  // namespace spindle::tbproxy
