#pragma once

#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "spindle/client/will_it_fit.h"
#include "spindle/yarn/cluster_types.h"

namespace spindle::gui {

// What the designer needs to know about the connected cluster.
struct ClusterInfo {
  bool known = false;                      // false until a cluster answered
  QString resourceManager;                 // host:port asked
  QString user;                            // the name the cluster knows this user by; empty if unknown
  QStringList queues;                      // leaf queues, as jobs name them
  QMap<QString, QStringList> queueLabels;  // leaf queue -> labels it may use ("*": any)
  QStringList nodeLabels;                  // labels some node carries
  qint64 maxMemoryMib = 0;                 // the largest container the cluster grants
  int maxVcores = 0;
  int maxGpus = 0;  // the most yarn.io/gpu one node has
  int activeNodes = 0;
  client::ClusterState state;  // nodes and queues as they were when loaded, for "will it fit now"
  qint64 loadedMs = 0;         // when that was

  // Whether `queue` may run containers on nodes with `label`; true for a queue it does not know.
  bool queueReachesLabel(const QString& queue, const QString& label) const;
};

// Leaf queues of a queue tree, with the labels each may use.
void collectLeafQueues(const yarn::QueueInfo& queue, QStringList& leaves, QMap<QString, QStringList>& labels);

}  // namespace spindle::gui

Q_DECLARE_METATYPE(spindle::gui::ClusterInfo)
