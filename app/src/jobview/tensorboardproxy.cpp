#include "jobview/tensorboardproxy.h"

#include <QCoreApplication>
#include <map>

#include "convert.h"
#include "spindle/client/tensorboard_lookup.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::gui {

// The jobs' TensorBoards through the current Hadoop set-up; a new set-up
// takes effect for the next lookup, even in a running proxy.
struct TensorBoardProxy::Lookup {
  std::mutex mutex;
  tbproxy::UpstreamResolver current;

  void use(const HadoopSetup& setup) {
    std::lock_guard lock(mutex);
    current = client::submitted_jobs_tensorboards([setup] { return setup.load(); });
  }
  tbproxy::UpstreamLookup operator()(const std::string& applicationId) {
    tbproxy::UpstreamResolver resolver;
    {
      std::lock_guard lock(mutex);
      resolver = current;
    }
    return resolver(applicationId);
  }
};

TensorBoardProxy& TensorBoardProxy::shared() {
  static TensorBoardProxy proxy;
  return proxy;
}

TensorBoardProxy::~TensorBoardProxy() {
  stop();
}

void TensorBoardProxy::setSetup(const HadoopSetup& setup) {
  std::lock_guard lock(mutex_);
  if (!lookup_) lookup_ = std::make_shared<Lookup>();
  lookup_->use(setup);
}

void TensorBoardProxy::setResolver(tbproxy::UpstreamResolver resolver) {
  stop();
  std::lock_guard lock(mutex_);
  resolver_ = std::move(resolver);
}

QUrl TensorBoardProxy::url(const QString& applicationId, QString* error) {
  std::lock_guard lock(mutex_);
  if (!server_) {
    if (!lookup_) {
      lookup_ = std::make_shared<Lookup>();
      lookup_->use(HadoopSetup::fromSettings());
    }
    tbproxy::ProxyOptions options;
    options.bind_address = "127.0.0.1";
    options.threads = 2;
    auto resolver =
        resolver_ ? resolver_
                  : tbproxy::UpstreamResolver([lookup = lookup_](const std::string& id) { return (*lookup)(id); });
    auto started = tbproxy::ProxyServer::start(options, std::move(resolver));
    if (!started) {
      if (error) *error = qs(started.error().message);
      return {};
    }
    server_ = std::move(*started);
  }
  return QUrl(QStringLiteral("http://127.0.0.1:%1/tb/%2/").arg(server_->port()).arg(applicationId));
}

quint16 TensorBoardProxy::port() const {
  std::lock_guard lock(mutex_);
  return server_ ? server_->port() : 0;
}

void TensorBoardProxy::stop() {
  std::unique_ptr<tbproxy::ProxyServer> server;
  {
    std::lock_guard lock(mutex_);
    server = std::move(server_);
  }
  if (server) server->stop();
}

}  // namespace spindle::gui
