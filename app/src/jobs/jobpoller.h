#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <memory>

#include "cluster/hadoopsetup.h"

namespace spindle::gui {

class JobsModel;

// Keeps the history current for jobs nobody else follows (submitted with the
// CLI without --wait, or before the app started), through the setup's
// service in a worker thread: it asks about every unfinished job (or a
// server for its list). Everything seen goes into the history, which the
// jobs list reads.
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
  // Made by the first poll that can; used by one worker at a time.
  struct ServiceSlot {
    std::shared_ptr<client::JobService> service;
  };
  JobsModel* model_;
  HadoopSetup setup_;
  bool configured_ = false;
  QSet<QString> elsewhere_;
  QTimer timer_;
  QFutureWatcher<QString> watcher_;
  QString problem_;
  std::shared_ptr<ServiceSlot> slot_;
};

}  // namespace spindle::gui
