#pragma once

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include "cluster/hadoopsetup.h"
#include "spindle/client/will_it_fit.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTreeWidget;

namespace spindle::gui {

// The cluster at a glance, as a tab beside Jobs and Designer: the queue tree
// (capacity, used, maximum, labels each reaches), node labels with their
// nodes, memory and GPUs free, and every node (state, labels, containers,
// memory, vcores, GPUs, health). Asked again every few seconds while it is
// visible, off the UI thread; when the cluster does not answer, the last
// answer stays, with when it was heard and why the last asking failed.
class ClusterView : public QWidget {
  Q_OBJECT

 public:
  explicit ClusterView(QWidget* parent = nullptr);
  ~ClusterView() override;

  void setSetup(const HadoopSetup& setup);
  void setIntervalMs(int milliseconds) { timer_.setInterval(milliseconds); }

  // For tests: what the views hold.
  QTreeWidget* queues() const { return queues_; }
  QStandardItemModel* labelsModel() const { return labels_; }
  QStandardItemModel* nodesModel() const { return nodes_; }
  QSortFilterProxyModel* nodesProxy() const { return nodesProxy_; }
  QLineEdit* nodeFilter() const { return filter_; }
  QLabel* heard() const { return heard_; }
  bool isAsking() const { return watcher_.isRunning(); }

 public slots:
  void refresh();

 signals:
  void refreshed(bool answered);

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  struct Answer {
    bool ok = false;
    QString problem;
    client::ClusterState state;
    qint64 atMs = 0;
  };
  void showAnswer(const Answer& answer);

  HadoopSetup setup_;
  QTimer timer_;
  QFutureWatcher<Answer> watcher_;
  qint64 lastHeardMs_ = 0;
  QLabel* heard_;
  QTreeWidget* queues_;
  QStandardItemModel* labels_;
  QStandardItemModel* nodes_;
  QSortFilterProxyModel* nodesProxy_;
  QTableView* nodesView_;
  QLineEdit* filter_;
};

}  // namespace spindle::gui
