#include "cluster/clusterinfoloader.h"

#include <QDateTime>

#include <QtConcurrent>
#include <algorithm>
#include <cstdint>

#include "convert.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::gui {

ClusterInfoLoader::ClusterInfoLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<ClusterInfo>();
}

bool ClusterInfoLoader::isLoading() const {
  return watcher_ && watcher_->isRunning();
}

void ClusterInfoLoader::load(const HadoopSetup& setup) {
  if (watcher_) {
    // The running request finishes on its own; its answer is dropped.
    watcher_->disconnect(this);
    connect(watcher_, &QFutureWatcherBase::finished, watcher_, &QObject::deleteLater);
  }
  watcher_ = new QFutureWatcher<Outcome>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &ClusterInfoLoader::finished);
  watcher_->setFuture(QtConcurrent::run([setup] { return fetch(setup); }));
}

void ClusterInfoLoader::finished() {
  auto* watcher = watcher_;
  watcher_ = nullptr;
  const Outcome outcome = watcher->result();
  watcher->deleteLater();
  if (!outcome.error.isEmpty()) {
    emit failed(outcome.error);
    return;
  }
  info_ = outcome.info;
  emit loaded(info_);
}

namespace {

// What the nodes and queues say; the largest container is the largest node,
// since only the ResourceManager's answer to a new application names the
// scheduler's own maximum, and the server makes no application to ask.
void describeCluster(const client::ClusterState& state, ClusterInfo& info) {
  collectLeafQueues(state.root, info.queues, info.queueLabels);
  info.state = state;
  info.loadedMs = QDateTime::currentMSecsSinceEpoch();
  QStringList labels;
  for (const auto& node : state.nodes) {
    if (node.state == "RUNNING") ++info.activeNodes;
    for (const auto& label : node.labels) {
      if (!labels.contains(qs(label))) labels << qs(label);
    }
    const auto gpus = node.capability.others.find("yarn.io/gpu");
    if (gpus != node.capability.others.end()) info.maxGpus = std::max(info.maxGpus, static_cast<int>(gpus->second));
  }
  labels.sort();
  info.nodeLabels = labels;
}

ClusterInfoLoader::Outcome fetchThroughServer(const HadoopSetup& setup) {
  ClusterInfoLoader::Outcome outcome;
  auto server = setup.dashboard();
  if (!server) {
    outcome.error = qs(server.error().message);
    return outcome;
  }
  auto state = server->cluster();
  if (!state) {
    outcome.error = qs(state.error().message);
    return outcome;
  }
  outcome.info.resourceManager = qs(server->address().url);
  describeCluster(*state, outcome.info);
  for (const auto& node : state->nodes) {
    if (node.state != "RUNNING") continue;
    outcome.info.maxMemoryMib = std::max<qint64>(outcome.info.maxMemoryMib, node.capability.memory_mib);
    outcome.info.maxVcores = std::max(outcome.info.maxVcores, static_cast<int>(node.capability.vcores));
  }
  outcome.info.known = true;
  return outcome;
}

}  // namespace

ClusterInfoLoader::Outcome ClusterInfoLoader::fetch(const HadoopSetup& setup) {
  if (setup.throughServer()) return fetchThroughServer(setup);
  Outcome outcome;
  auto configuration = setup.load();
  if (!configuration) {
    outcome.error = qs(configuration.error().message);
    return outcome;
  }
  const auto addresses = configuration->resource_manager_addresses(yarn::RmService::client);
  outcome.info.resourceManager = addresses.empty() ? QString() : qs(addresses.front());
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
  auto root = client.queue("root", true);
  if (!root) {
    outcome.error = setup.explain(root.error());
    return outcome;
  }
  auto nodes = client.nodes();
  if (!nodes) {
    outcome.error = setup.explain(nodes.error());
    return outcome;
  }
  // Labels defined on the cluster but carried by no node cannot run anything, so only the nodes' count.
  describeCluster(client::ClusterState{*nodes, *root}, outcome.info);
  // The maximum allocation is what a new application is told, and what a
  // submit is checked against.
  auto created = client.new_application();
  if (!created) {
    outcome.error = setup.explain(created.error());
    return outcome;
  }
  outcome.info.maxMemoryMib = created->maximum.memory_mib;
  outcome.info.maxVcores = created->maximum.vcores;
  const auto gpuMaximum = created->maximum.others.find("yarn.io/gpu");
  if (gpuMaximum != created->maximum.others.end()) {
    // Until the scheduler has seen the nodes' GPUs, its maximum can be
    // "unlimited" (the largest 64-bit value): compare before narrowing.
    outcome.info.maxGpus =
        static_cast<int>(std::min<std::int64_t>(outcome.info.maxGpus, static_cast<std::int64_t>(gpuMaximum->second)));
  }
  // Logs and scheduler details come from the web servers: where they speak
  // only HTTPS, a certificate this machine will not trust is said now, not
  // at the first log view.
  if (yarn::https_only(*configuration, yarn::WebService::yarn)) {
    auto web = yarn::ResourceManagerRest::from_configuration(*configuration).cluster_info();
    if (!web) {
      outcome.error = setup.explain(web.error());
      return outcome;
    }
  }
  outcome.info.known = true;
  return outcome;
}

}  // namespace spindle::gui
