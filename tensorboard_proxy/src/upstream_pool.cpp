#include "upstream_pool.h"

#include <sys/socket.h>

#include <cerrno>

namespace spindle::tbproxy {
namespace {

// An idle connection must have nothing to read: end of stream means the
// upstream closed it, bytes mean it said something out of turn.
bool still_open(UpstreamConnection& connection) {
  char byte = 0;
  const auto got = ::recv(connection.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace

std::unique_ptr<UpstreamConnection> UpstreamPool::take(const std::string& pool_key, bool for_a_body) {
  const auto found = idle_.find(pool_key);
  if (found == idle_.end()) return nullptr;
  auto& connections = found->second;
  const auto now = std::chrono::steady_clock::now();
  while (!connections.empty()) {
    // The most recently used one is the least likely to have been closed.
    auto connection = std::move(connections.back());
    connections.pop_back();
    const auto idle = now - connection->idle_since;
    const bool unchecked = !for_a_body && idle < std::chrono::seconds(1);
    if (idle < longest_idle_ && (unchecked || still_open(*connection))) {
      connection->reused = true;
      return connection;
    }
  }
  return nullptr;
}

void UpstreamPool::give_back(std::unique_ptr<UpstreamConnection> connection) {
  auto& connections = idle_[connection->pool_key];
  if (connections.size() >= per_upstream_) {
    // The oldest is the first to go stale.
    connections.erase(connections.begin());
  }
  connection->idle_since = std::chrono::steady_clock::now();
  connections.push_back(std::move(connection));
}

}  // namespace spindle::tbproxy
