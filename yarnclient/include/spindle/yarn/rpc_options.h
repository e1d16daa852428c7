#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "spindle/yarn/rpc_protection.h"
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

// Whose Kerberos credentials to use. Both empty: the ticket cache (KRB5CCNAME,
// else the default cache) that `kinit` fills. With a keytab, credentials come
// from it into this process's memory; the user's ticket cache is left alone.
struct KerberosLogin {
  std::string principal;  // e.g. "alice@EXAMPLE.COM"; empty: the keytab's first entry
  std::string keytab;     // path of a keytab file
};

// Kerberos (SASL GSSAPI) authentication to a service.
struct KerberosOptions {
  // The service's principal as configured, e.g. "rm/_HOST@EXAMPLE.COM"; _HOST
  // stands for the server's host name. The server's own claim must match it.
  // Empty: whatever principal the server names is accepted.
  std::string server_principal;
  // A glob the server's principal must match instead (Hadoop's "<key>.pattern").
  std::string server_principal_pattern;
  KerberosLogin login;
};

// Everything an RPC client needs to reach one Hadoop service, as one struct
// with chained setters. Authentication: a token the server accepts wins, else
// Kerberos when set, else SIMPLE as `user`.
struct RpcOptions {
  std::vector<std::string> addresses;       // host:port, tried in order (ResourceManager HA)
  std::string user;                         // SIMPLE authentication
  std::optional<Token> token;               // TOKEN authentication instead, when set
  std::optional<KerberosOptions> kerberos;  // KERBEROS authentication, when set
  // hadoop.rpc.protection: what SASL may protect; a connection uses the
  // strongest of these that the server allows too.
  std::vector<RpcProtection> protection{RpcProtection::authentication};
  // A configuration that cannot be used (a bad hadoop.rpc.protection): every
  // call fails with this sentence instead of reaching the server.
  std::optional<std::string> configuration_problem;
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
  RpcOptions& with_kerberos(KerberosOptions value) {
    kerberos = std::move(value);
    return *this;
  }
  RpcOptions& with_protection(std::vector<RpcProtection> value) {
    protection = std::move(value);
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
