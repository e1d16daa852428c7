#pragma once

#include <QFutureWatcher>
#include <QObject>

#include "cluster/clusterinfo.h"
#include "cluster/hadoopsetup.h"

namespace spindle::gui {

// Asks the ResourceManager for queues, node labels, nodes and the maximum
// allocation in a worker thread; the answer arrives as a signal.
class ClusterInfoLoader : public QObject {
  Q_OBJECT

 public:
  explicit ClusterInfoLoader(QObject* parent = nullptr);

  // Starts a load; one still running is superseded.
  void load(const HadoopSetup& setup);
  bool isLoading() const;
  const ClusterInfo& info() const { return info_; }

  // The blocking work, for callers that already run in a thread.
  struct Outcome {
    ClusterInfo info;
    QString error;
  };
  static Outcome fetch(const HadoopSetup& setup);

 signals:
  void loaded(const spindle::gui::ClusterInfo& info);
  void failed(const QString& message);

 private:
  void finished();

  QFutureWatcher<Outcome>* watcher_ = nullptr;
  ClusterInfo info_;
  int generation_ = 0;
};

}  // namespace spindle::gui
