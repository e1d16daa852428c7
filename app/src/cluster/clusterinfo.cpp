#include "cluster/clusterinfo.h"

#include "convert.h"

namespace spindle::gui {

bool ClusterInfo::queueReachesLabel(const QString& queue, const QString& label) const {
  const auto found = queueLabels.constFind(queue);
  // A queue the cluster did not describe is given the benefit of the doubt;
  // one with no accessible labels runs only on unlabelled nodes.
  if (found == queueLabels.constEnd()) return true;
  return found->contains(QStringLiteral("*")) || found->contains(label);
}

void collectLeafQueues(const yarn::QueueInfo& queue, QStringList& leaves, QMap<QString, QStringList>& labels) {
  if (queue.children.empty()) {
    const QString name = qs(queue.name);
    leaves << name;
    labels.insert(name, toStringList(queue.accessible_labels));
  }
  for (const auto& child : queue.children) collectLeafQueues(child, leaves, labels);
}

}  // namespace spindle::gui
