#include "jobview/tensorboardproxy.h"

#include <QCoreApplication>
#include <map>

#include "convert.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/job_records.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::gui {
namespace {

using tbproxy::UpstreamLookup;
using tbproxy::UpstreamState;
using tbproxy::UpstreamUnavailable;

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The job's TensorBoard task as its application master reports it.
UpstreamLookup findTensorBoard(client::JobConnection& job) {
  const auto& id = job.application_id();
  auto report = job.report();
  if (!report) {
    return UpstreamUnavailable{UpstreamState::unreachable,
                               "The ResourceManager did not say where " + id + " runs: " + report.error().message};
  }
  if (report->finished()) {
    return UpstreamUnavailable{UpstreamState::ended, "The job " + id + " has ended (" + lower(report->final_status) +
                                                         "), and its TensorBoard with it."};
  }
  const auto status = job.live_status();
  if (!status) {
    return UpstreamUnavailable{UpstreamState::starting,
                               "The job " + id + " is " + lower(report->state) + " and its TensorBoard is not up yet."};
  }
  for (const auto& task : status->tasks) {
    if (task.task != "tensorboard:0") continue;
    if (task.phase == "failed" || task.phase == "stopped" || task.phase == "succeeded") {
      return UpstreamUnavailable{UpstreamState::unreachable, "TensorBoard of " + id + " has " + task.phase + "."};
    }
    if (task.address.empty()) {
      return UpstreamUnavailable{UpstreamState::starting, "TensorBoard of " + id + " is " + task.phase + "."};
    }
    auto address = parse_host_port(task.address);
    if (!address) return UpstreamUnavailable{UpstreamState::unreachable, address.error().message};
    return tbproxy::UpstreamAddress{address->host, address->port};
  }
  return UpstreamUnavailable{UpstreamState::unknown,
                             "The job " + id + " has no TensorBoard; add a tensorboard task to its spec."};
}

}  // namespace

// Jobs this machine submitted (whose records it holds), one connection each.
struct TensorBoardProxy::Lookup {
  std::mutex mutex;
  HadoopSetup setup;
  std::optional<yarn::HadoopConfiguration> configuration;
  std::map<std::string, client::JobConnection> connections;

  UpstreamLookup operator()(const std::string& applicationId) {
    if (!client::JobRecords().load(applicationId)) {
      return UpstreamUnavailable{UpstreamState::unknown,
                                 "No job " + applicationId + " was submitted from this machine."};
    }
    std::lock_guard lock(mutex);
    if (!configuration) {
      auto loaded = setup.load();
      if (!loaded) return UpstreamUnavailable{UpstreamState::unreachable, loaded.error().message};
      configuration = std::move(*loaded);
    }
    auto found = connections.find(applicationId);
    if (found == connections.end()) {
      auto opened = client::JobConnection::open(*configuration, applicationId);
      if (!opened) return UpstreamUnavailable{UpstreamState::unreachable, opened.error().message};
      found = connections.emplace(applicationId, std::move(*opened)).first;
    }
    return findTensorBoard(found->second);
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
  std::lock_guard lookupLock(lookup_->mutex);
  lookup_->setup = setup;
  lookup_->configuration.reset();
  lookup_->connections.clear();
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
      lookup_->setup = HadoopSetup::fromSettings();
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
