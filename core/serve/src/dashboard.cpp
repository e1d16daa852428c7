#include "spindle/serve/dashboard.h"

#include "dashboard_site.h"
#include "spindle/client/dashboard_client.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::serve {
namespace {

class RunningDashboard final : public Dashboard {
 public:
  RunningDashboard(std::shared_ptr<DashboardSite> site, std::unique_ptr<tbproxy::ProxyServer> server, std::string token)
      : site_(std::move(site)), server_(std::move(server)), token_(std::move(token)) {}
  ~RunningDashboard() override { stop(); }

  std::uint16_t port() const override { return server_->port(); }
  const std::string& access_token() const override { return token_; }
  void stop() override {
    // Waiting polls are answered first, so that closing finds no one waiting.
    site_->stop();
    server_->stop();
  }

 private:
  std::shared_ptr<DashboardSite> site_;
  std::unique_ptr<tbproxy::ProxyServer> server_;
  std::string token_;
};

}  // namespace

Result<std::unique_ptr<Dashboard>> Dashboard::start(DashboardOptions options, std::shared_ptr<ClusterAccess> cluster) {
  if (!tbproxy::is_loopback_address(options.bind_address) && options.tls_certificate_pem.empty()) {
    return Error{"spindle serve listens on " + options.bind_address +
                 ", which other machines reach, only over TLS: give it a certificate and key, or bind 127.0.0.1 "
                 "and reach it through ssh -L PORT:127.0.0.1:PORT"};
  }
  if (options.access_token.empty()) {
    auto made = tbproxy::make_access_token();
    if (!made) return made.error();
    options.access_token = std::move(*made);
  }
  auto site =
      std::make_shared<DashboardSite>(cluster, options.refresh_interval, options.longest_wait, options.worker_threads);
  tbproxy::ProxyOptions proxy;
  proxy.bind_address = options.bind_address;
  proxy.port = options.port;
  proxy.access_token = options.access_token;
  proxy.tls_certificate_pem = std::move(options.tls_certificate_pem);
  proxy.tls_key_pem = std::move(options.tls_key_pem);
  proxy.kerberos = std::move(options.kerberos);
  proxy.threads = 2;
  // A submit may carry the spec's local files (see UploadedFile), base64 in JSON.
  proxy.max_request_body_bytes = client::max_submit_upload_bytes / 3 * 4 + 1024 * 1024;
  proxy.site = site;
  auto server = tbproxy::ProxyServer::start(std::move(proxy), cluster->tensorboards());
  if (!server) {
    site->stop();
    return server.error();
  }
  return std::unique_ptr<Dashboard>(
      std::make_unique<RunningDashboard>(std::move(site), std::move(*server), options.access_token));
}

}  // namespace spindle::serve
