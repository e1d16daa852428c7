#include "cluster/clusterinfoloader.h"

#include <QDateTime>

#include <QtConcurrent>
#include <algorithm>
#include <cstdint>

#include "convert.h"

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

}  // namespace

ClusterInfoLoader::Outcome ClusterInfoLoader::fetch(const HadoopSetup& setup) {
  Outcome outcome;
  auto service = setup.service();
  if (!service) {
    outcome.error = qs(service.error().message);
    return outcome;
  }
  auto overview = (*service)->cluster_overview();
  if (!overview) {
    outcome.error = setup.explain(overview.error());
    return outcome;
  }
  outcome.info.resourceManager = qs(overview->resource_manager);
  if (auto user = (*service)->user()) outcome.info.user = qs(*user);
  // Labels defined on the cluster but carried by no node cannot run anything, so only the nodes' count.
  describeCluster(overview->state, outcome.info);
  outcome.info.maxMemoryMib = overview->max_memory_mib;
  outcome.info.maxVcores = static_cast<int>(overview->max_vcores);
  // The scheduler's maximum, where it was told, bounds what the nodes carry;
  // compared before narrowing, as it may be "unlimited".
  if (overview->max_gpus) {
    outcome.info.maxGpus = static_cast<int>(std::min<std::int64_t>(outcome.info.maxGpus, *overview->max_gpus));
  }
  outcome.info.known = true;
  return outcome;
}

}  // namespace spindle::gui
