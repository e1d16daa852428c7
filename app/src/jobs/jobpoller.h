#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <map>
#include <memory>

#include "cluster/hadoopsetup.h"

namespace spindle::client {
class JobConnection;
}

namespace spindle::gui {

class JobsModel;

// Keeps the history current for jobs nobody else follows (submitted with the
// CLI without --wait, or before the app started): asks the ResourceManager
// about every unfinished job, and its application master for status and
// events, in a worker thread. Everything seen goes into the history, which
// the jobs list reads.
class JobPoller : public QObject {
  Q_OBJECT

 public:
  JobPoller(JobsModel* model, QObject* parent = nullptr);
  ~JobPoller() override;

  void setSetup(const HadoopSetup& setup);
  void setInterval(int milliseconds);
  // Jobs another part of the app follows already.
  void setFollowedElsewhere(const QSet<QString>& applicationIds);
  // Why the last poll could not bring the history up to date; empty: it did.
  QString problem() const { return problem_; }

 public slots:
  void poll();

 signals:
  // The problem changed: a poll failed with another sentence, or one
  // succeeded after a failure (then it is empty).
  void problemChanged(const QString& problem);

 private:
  struct Connections;
  JobsModel* model_;
  HadoopSetup setup_;
  bool configured_ = false;
  QSet<QString> elsewhere_;
  QTimer timer_;
  QFutureWatcher<QString> watcher_;
  QString problem_;
  std::shared_ptr<Connections> connections_;
  // Through a Spindle server: its client, made once per setup.
  std::shared_ptr<const Result<client::DashboardClient>> server_;
};

}  // namespace spindle::gui
