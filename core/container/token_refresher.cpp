#include "container/token_refresher.h"

#include <algorithm>
#include <ctime>

#include "spindle/client/security_tokens.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/token_lifetime.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::container {
namespace {

using SystemClock = std::chrono::system_clock;
constexpr double safe_fraction = 0.75;
constexpr auto longest_retry = std::chrono::minutes(1);
constexpr auto shortest_retry = std::chrono::seconds(5);
// Hadoop's default of yarn.resourcemanager.system-credentials.valid-time-remaining:
// what the node's configuration says, else this.
constexpr std::chrono::milliseconds default_renewal_stops = std::chrono::hours(3);

// "2026-11-29 14:05:09 UTC": to the second, as lifetimes may be minutes.
std::string clock_text(SystemClock::time_point when) {
  const std::time_t seconds = SystemClock::to_time_t(when);
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  char text[32] = {};
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &parts);
  return text;
}

// How long the NameNode lets a new token live between renewals: a token
// that we may renew, renewed once (the answer is its next expiry) and
// cancelled. Hadoop's token identifiers do not carry it.
Result<std::chrono::milliseconds> renew_interval(const yarn::HadoopConfiguration& configuration,
                                                 const std::string& user) {
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  auto probe = hdfs->delegation_token(user);
  if (!probe) return probe.error();
  const auto asked = SystemClock::now();
  auto expiry = hdfs->renew_delegation_token(*probe);
  (void)hdfs->cancel_delegation_token(*probe);
  if (!expiry) return expiry.error();
  return std::chrono::duration_cast<std::chrono::milliseconds>(*expiry - asked);
}

}  // namespace

SystemClock::time_point next_refresh(const std::map<std::string, yarn::Token>& held,
                                     std::optional<std::chrono::milliseconds> interval, SystemClock::time_point got_at,
                                     std::chrono::milliseconds renewal_stops) {
  auto due = SystemClock::time_point::max();
  if (interval) due = got_at + std::chrono::duration_cast<SystemClock::duration>(*interval * safe_fraction);
  if (const auto first = yarn::first_to_end(held)) {
    const auto left = first->ends - got_at;
    due = std::min(due, got_at + std::chrono::duration_cast<SystemClock::duration>(left * safe_fraction));
    // A tenth more, for the retries of a refresh that fails at first.
    if (!interval && renewal_stops.count() > 0) {
      due = std::min(due, first->ends - std::chrono::duration_cast<SystemClock::duration>(renewal_stops * 11 / 10));
    }
  }
  return due;
}

TokenRefresher::TokenRefresher(yarn::HadoopConfiguration configuration, JobSpec spec,
                               std::map<std::string, yarn::Token> held, Delivery deliver, Log log)
    : configuration_(std::move(configuration)),
      spec_(std::move(spec)),
      held_(std::move(held)),
      renewal_stops_(configuration_.get_int("yarn.resourcemanager.system-credentials.valid-time-remaining",
                                            default_renewal_stops.count())),
      got_at_(SystemClock::now()),
      deliver_(std::move(deliver)),
      log_(std::move(log)) {
  // Those the job was submitted with are renewed by the ResourceManager
  // until their maximum lifetime; only that bounds them.
  if (const auto first = yarn::first_to_end(held_)) got_at_ = std::min(got_at_, first->issued);
}

TokenRefresher::~TokenRefresher() {
  stop();
}

void TokenRefresher::start() {
  thread_ = std::thread([this] { run(); });
}

void TokenRefresher::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TokenRefresher::run() {
  auto due = next_refresh(held_, interval_, got_at_, renewal_stops_);
  log_("the job's tokens are renewed from its keytab; the next set is due at " + clock_text(due));
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (wake_.wait_until(lock, due, [this] { return stopping_; })) break;
    lock.unlock();
    const bool got = refresh();
    lock.lock();
    if (got) {
      due = next_refresh(held_, interval_, got_at_, renewal_stops_);
      log_("new tokens handed out; the next set is due at " + clock_text(due));
      continue;
    }
    // Retry sooner as the first of the held tokens nears its end.
    auto retry = std::chrono::duration_cast<SystemClock::duration>(longest_retry);
    if (const auto first = yarn::first_to_end(held_)) {
      retry = std::min(
          retry, std::max<SystemClock::duration>((first->ends - SystemClock::now()) / 10,
                                                 std::chrono::duration_cast<SystemClock::duration>(shortest_retry)));
    }
    due = SystemClock::now() + retry;
  }
}

bool TokenRefresher::refresh() {
  auto user = yarn::cluster_user(configuration_);
  if (!user) {
    log_("cannot renew the job's tokens: " + user.error().message);
    return false;
  }
  auto interval = renew_interval(configuration_, *user);
  if (!interval) {
    log_("cannot learn how long new tokens live: " + interval.error().message);
    return false;
  }
  const auto asked = SystemClock::now();
  auto tokens = client::obtain_job_tokens(spec_, configuration_);
  if (!tokens) {
    log_("cannot get new tokens for the job: " + tokens.error().message);
    return false;
  }
  deliver_(tokens->tokens, asked + *interval);
  std::lock_guard lock(mutex_);
  held_ = std::move(tokens->tokens);
  interval_ = *interval;
  got_at_ = asked;
  return true;
}

}  // namespace spindle::container
