#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "spindle/core/result.h"
#include "spindle/serve/cluster_access.h"
#include "spindle/tbproxy/kerberos_logins.h"

namespace spindle::serve {

struct DashboardOptions {
  std::string bind_address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port
  // Every request needs it, on loopback too: a gateway node is shared, and
  // its other users reach its loopback. Empty: one is made.
  std::string access_token;
  // PEM texts: with them the dashboard speaks HTTPS only. Required for an
  // address other machines reach; on loopback, optional.
  std::string tls_certificate_pem;
  std::string tls_key_pem;
  // Kerberos logins (SPNEGO) beside the token, for the user the server acts
  // for alone; null: the token only.
  std::shared_ptr<const tbproxy::KerberosLogins> kerberos;
  // How often the views that browsers follow are read again.
  std::chrono::milliseconds refresh_interval{500};
  // The longest a long poll of /api/v1/updates is held.
  std::chrono::milliseconds longest_wait{25'000};
  int worker_threads = 4;
};

// `spindle serve`: the browser dashboard, its JSON API (/api/v1/...) and
// the jobs' TensorBoards (/tb/<application id>/) on one port, behind one
// token. See docs/serve.md for the API.
class Dashboard {
 public:
  // Listens before it returns. A non-loopback address without TLS is
  // refused: the token would cross the network in clear.
  static Result<std::unique_ptr<Dashboard>> start(DashboardOptions options, std::shared_ptr<ClusterAccess> cluster);
  virtual ~Dashboard() = default;
  virtual std::uint16_t port() const = 0;
  virtual const std::string& access_token() const = 0;
  // Answers every request waiting, closes the connections, joins the threads.
  virtual void stop() = 0;
};

}  // namespace spindle::serve
