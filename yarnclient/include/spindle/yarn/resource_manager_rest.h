#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::yarn {

namespace http {
class AuthCookies;
struct Request;
}  // namespace http

// The ResourceManager's REST API (/ws/v1/cluster) and the NodeManagers'
// container logs, for what the RPC protocols do not tell: scheduler details,
// attempts' containers, logs. Answers are the JSON the servers send.
//
// With HA ResourceManagers every request goes to the active one: a standby
// may answer REST itself, with its own empty view (no applications, 404 for
// a known one), or redirect. Which one is active each says in
// /ws/v1/cluster/info (haState), which is asked before each request, the
// last active first.
class ResourceManagerRest {
 public:
  struct Options {
    std::vector<std::string> web_addresses;  // host:port of each ResourceManager's web server (HA: all)
    // yarn.http.policy=HTTPS_ONLY: https:// to the ResourceManagers (their
    // https addresses) and the NodeManagers, trusting `trust`.
    bool https = false;
    std::shared_ptr<const WebTrust> trust;
    // A truststore that could not be read: every request fails with this.
    std::string configuration_problem;
    std::string user;
    // hadoop.security.authentication=kerberos: no user.name; SPNEGO from the
    // ticket cache (a server's challenge is answered either way).
    bool kerberos = false;
    std::chrono::milliseconds connect_timeout{20'000};
    std::chrono::milliseconds timeout{60'000};
  };

  explicit ResourceManagerRest(Options options);
  // An unreadable truststore makes every request fail with its sentence.
  static ResourceManagerRest from_configuration(const HadoopConfiguration& configuration);

  Result<nlohmann::json> cluster_info();
  // /ws/v1/cluster/info of one ResourceManager (host:port of its web
  // server), whatever its HA state, to tell which is active.
  Result<nlohmann::json> cluster_info_at(const std::string& web_address);
  Result<nlohmann::json> applications(const std::string& type = "");
  Result<nlohmann::json> application(const std::string& application_id);
  Result<nlohmann::json> attempts(const std::string& application_id);
  Result<nlohmann::json> containers(const std::string& application_id, const std::string& attempt_id);
  Result<nlohmann::json> nodes();
  Result<nlohmann::json> scheduler();
  Result<nlohmann::json> node_labels();

  // An RM delegation token (POST /ws/v1/cluster/delegation-token; needs
  // Kerberos) that `renewer` may renew, as the ResourceManager issues it:
  // kind RM_DELEGATION_TOKEN, no service (set it to the RPC address the
  // token is for, see token_service.h).
  Result<Token> delegation_token(const std::string& renewer);

  // The active ResourceManager's own configuration as it runs (GET /conf):
  // settings only the servers hold, such as whether it renews tokens as a proxy user.
  Result<HadoopConfiguration> server_configuration();

  // A running container's log file (stdout, stderr, ...) from its NodeManager's web server.
  Result<std::string> container_log(const std::string& node_http_address, const std::string& container_id,
                                    const std::string& file, std::size_t limit = 16 * 1024 * 1024);
  // The names of a running container's log files on its node (stdout, stderr, prelaunch.err, ...).
  // Both answer a not_found error once the application has left the node.
  Result<std::vector<std::string>> container_log_files(const std::string& node_http_address,
                                                       const std::string& container_id);

 private:
  Result<nlohmann::json> get(const std::string& path);
  Result<nlohmann::json> exchange(const std::string& method, const std::string& path, const std::string& body);
  std::string with_user(const std::string& url) const;
  // A request to host:port/path of a ResourceManager or NodeManager: the
  // scheme, trust, user and SPNEGO of these options; the truststore's
  // problem, if it had one.
  Result<http::Request> new_request(const std::string& authority_and_path) const;

  Result<nlohmann::json> exchange_at(const std::string& address, const std::string& method, const std::string& path,
                                     const std::string& body, bool& unreachable, std::string& problem);
  // The web addresses with the active ResourceManager's first (HA).
  std::vector<std::string> active_first();

  Options options_;
  std::shared_ptr<http::AuthCookies> cookies_;        // shared by copies: one SPNEGO login serves them all
  std::shared_ptr<std::atomic<std::size_t>> active_;  // HA: index of the one last found active
};

}  // namespace spindle::yarn
