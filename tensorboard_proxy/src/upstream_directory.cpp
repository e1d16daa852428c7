#include "upstream_directory.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <exception>

namespace spindle::tbproxy {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// Enough for every job one user follows at a time; unknown ids beyond it
// cannot grow the table without bound.
constexpr std::size_t most_entries = 1024;

ResolutionPtr unavailable(UpstreamState state, std::string message) {
  return std::make_shared<const Resolution>(UpstreamUnavailable{state, std::move(message)});
}

}  // namespace

UpstreamDirectory::UpstreamDirectory(UpstreamResolver resolver, std::chrono::milliseconds ttl, int threads)
    : resolver_(std::move(resolver)), ttl_(ttl), lookups_(static_cast<std::size_t>(std::max(1, threads))) {}

UpstreamDirectory::~UpstreamDirectory() {
  stop();
}

void UpstreamDirectory::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  lookups_.join();
  std::lock_guard lock(mutex_);
  entries_.clear();
}

ResolutionPtr UpstreamDirectory::cached(const std::string& application_id) {
  std::lock_guard lock(mutex_);
  const auto found = entries_.find(application_id);
  if (found == entries_.end() || !found->second.answer || found->second.expires <= std::chrono::steady_clock::now()) {
    return nullptr;
  }
  return found->second.answer;
}

void UpstreamDirectory::look_up(const std::string& application_id, std::function<void(ResolutionPtr)> done) {
  ResolutionPtr ready;
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (stopped_) {
      ready = unavailable(UpstreamState::unreachable, "The proxy is stopping.");
    } else {
      if (entries_.size() >= most_entries) drop_expired(now);
      auto& entry = entries_[application_id];
      if (entry.answer && entry.expires > now) {
        ready = entry.answer;
      } else {
        entry.waiting.push_back(std::move(done));
        if (entry.looking) return;
        entry.looking = true;
      }
    }
  }
  if (ready) {
    done(std::move(ready));
    return;
  }
  net::post(lookups_, [this, application_id] {
    auto answer = resolve(application_id);
    std::vector<std::function<void(ResolutionPtr)>> waiting;
    {
      std::lock_guard lock(mutex_);
      auto& entry = entries_[application_id];
      entry.answer = answer;
      entry.expires = std::chrono::steady_clock::now() + ttl_;
      entry.looking = false;
      waiting.swap(entry.waiting);
    }
    for (auto& waiter : waiting) waiter(answer);
  });
}

void UpstreamDirectory::forget(const std::string& application_id) {
  std::lock_guard lock(mutex_);
  const auto found = entries_.find(application_id);
  if (found != entries_.end() && !found->second.looking) entries_.erase(found);
}

void UpstreamDirectory::drop_expired(std::chrono::steady_clock::time_point now) {
  std::erase_if(entries_, [now](const auto& item) { return !item.second.looking && item.second.expires <= now; });
}

ResolutionPtr UpstreamDirectory::resolve(const std::string& application_id) {
  UpstreamLookup lookup = UpstreamUnavailable{};
  try {
    lookup = resolver_(application_id);
  } catch (const std::exception& e) {
    return unavailable(UpstreamState::unreachable,
                       "Finding the TensorBoard of " + application_id + " failed: " + e.what() + ".");
  }
  if (!lookup) return std::make_shared<const Resolution>(lookup.take_error());
  const auto& address = lookup.value();
  // A blocking name lookup is fine here: this is a lookup thread.
  net::io_context context;
  tcp::resolver names(context);
  boost::system::error_code ec;
  const auto results = names.resolve(address.host, std::to_string(address.port), ec);
  if (ec || results.empty()) {
    return unavailable(UpstreamState::unreachable, "The host of the TensorBoard of " + application_id + ", " +
                                                       address.host + ", does not resolve: " + ec.message() + ".");
  }
  ResolvedUpstream resolved{address.authority(), {}, address.certificate_sha256};
  for (const auto& result : results) resolved.endpoints.push_back(result.endpoint());
  return std::make_shared<const Resolution>(std::move(resolved));
}

}  // namespace spindle::tbproxy
