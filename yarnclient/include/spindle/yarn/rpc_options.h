#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "spindle/yarn/token.h"
#include "spindle/yarn/transport.h"

namespace spindle::yarn {

// How a failed attempt is retried: the delay before the next attempt, or
// nothing to give up. `attempt` counts from 0; `unreachable` says whether no
// connection could be made (rather than one that broke).
using RetryPolicy = std::function<std::optional<std::chrono::milliseconds>(int attempt, bool unreachable)>;

// A fixed number of retries with a fixed pause, like Hadoop's
// RetryUpToMaximumCountWithFixedSleep.
RetryPolicy fixed_retries(int retries, std::chrono::milliseconds pause);

// Everything an RPC client needs to reach one Hadoop service, as one struct
// with chained setters.
struct RpcOptions {
  std::vector<std::string> addresses;  // host:port, tried in order (ResourceManager HA)
  std::string user;                    // SIMPLE authentication
  std::optional<Token> token;          // TOKEN authentication instead, when set
  std::chrono::milliseconds connect_timeout{20'000};
  std::chrono::milliseconds call_timeout{120'000};
  std::chrono::milliseconds ping_interval{60'000};
  RetryPolicy retry = fixed_retries(2, std::chrono::milliseconds(1'000));
  TransportFactory transport = connect_tcp;

  RpcOptions& with_addresses(std::vector<std::string> value) {
    addresses = std::move(value);
    return *this;
  }
  RpcOptions& with_user(std::string value) {
    user = std::move(value);
    return *this;
  }
  RpcOptions& with_token(Token value) {
    token = std::move(value);
    return *this;
  }
  RpcOptions& with_connect_timeout(std::chrono::milliseconds value) {
    connect_timeout = value;
    return *this;
  }
  RpcOptions& with_call_timeout(std::chrono::milliseconds value) {
    call_timeout = value;
    return *this;
  }
  RpcOptions& with_ping_interval(std::chrono::milliseconds value) {
    ping_interval = value;
    return *this;
  }
  RpcOptions& with_retry(RetryPolicy value) {
    retry = std::move(value);
    return *this;
  }
  RpcOptions& with_transport(TransportFactory value) {
    transport = std::move(value);
    return *this;
  }
};

}  // namespace spindle::yarn
