#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "spindle/core/job_spec.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// When the next set of tokens is due: at three quarters of the shorter of
// the renew interval (new tokens are renewed by nobody, so they live that
// long) and what is left of the earliest maximum lifetime among those held.
// `interval` unknown (the set the job was submitted with, which the
// ResourceManager renews): the maximum lifetime decides, and the set is due
// before the last `renewal_stops` of it too, where a ResourceManager with
// proxy-user privileges stops renewing it (docs/secure-clusters.md).
std::chrono::system_clock::time_point next_refresh(const std::map<std::string, yarn::Token>& held,
                                                   std::optional<std::chrono::milliseconds> interval,
                                                   std::chrono::system_clock::time_point got_at,
                                                   std::chrono::milliseconds renewal_stops = {});

// The application master's side of a job that outlives its tokens
// (docs/architecture.md, "Jobs that outlive their tokens"): logged in from
// the job's keytab (through `configuration`), it obtains a new set of the
// job's delegation tokens before those it holds die, and hands each set to
// `deliver`. A failed attempt is retried every minute, or sooner as the
// end nears, and said through `log`. One thread; stop() ends it.
class TokenRefresher {
 public:
  // A new set, and when it expires unless renewed (nobody renews it).
  using Delivery = std::function<void(const std::map<std::string, yarn::Token>& tokens,
                                      std::chrono::system_clock::time_point expires)>;
  using Log = std::function<void(const std::string& line)>;

  TokenRefresher(yarn::HadoopConfiguration configuration, JobSpec spec, std::map<std::string, yarn::Token> held,
                 Delivery deliver, Log log);
  ~TokenRefresher();

  void start();
  void stop();

 private:
  void run();
  bool refresh();

  yarn::HadoopConfiguration configuration_;
  JobSpec spec_;
  std::map<std::string, yarn::Token> held_;
  std::optional<std::chrono::milliseconds> interval_;
  std::chrono::milliseconds renewal_stops_;
  std::chrono::system_clock::time_point got_at_;
  Delivery deliver_;
  Log log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace spindle::container
