#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

#include "cluster/hadoopsetup.h"
#include "spindle/client/history_store.h"
#include "spindle/core/job_status.h"

namespace spindle::gui {

// What one look at a job found: the ResourceManager's report and the
// application master's status, or why there is none.
struct JobSnapshot {
  qint64 takenMs = 0;
  bool reported = false;  // the ResourceManager answered
  QString problem;        // why it did not, or why there is no status
  QString yarnState;      // RUNNING, FINISHED, ...
  QString finalStatus;    // UNDEFINED, SUCCEEDED, ...
  QString diagnostics;
  QString trackingUrl;
  bool finished = false;
  QString mlflowRunUrl;  // the job's MLflow run, when it has one
  QString mlflowNote;    // once the job ended: the run was closed, or why not

  std::optional<JobStatus> status;
};

// What the history knows of the job when its view opens.
struct JobRecordSnapshot {
  bool found = false;
  QString problem;
  client::JobHistoryEntry entry;
  std::optional<JobStatus> status;                // from the attempts kept
  QString mlflowRunUrl;                           // the job's MLflow run, when it has one
  std::vector<client::MetricPoint> containerUse;  // source "container"
};

// Follows one job off the UI thread: reads its history once, then asks the
// ResourceManager and the application master every interval until the job
// ends. Kills it on request. Every answer arrives as a signal in the
// thread that owns the monitor.
class JobMonitor : public QObject {
  Q_OBJECT

 public:
  // An empty history path reads the history where the CLI keeps it.
  JobMonitor(const QString& applicationId, const HadoopSetup& setup, const QString& historyPath = {},
             QObject* parent = nullptr);
  ~JobMonitor() override;

  // Reads the history, then polls every `intervalMs` until the job ends.
  void start(int intervalMs = 1000);
  void stop();
  bool isPolling() const { return timer_.isActive(); }
  bool isKilling() const { return killing_; }

 public slots:
  void pollNow();
  // Asks the ResourceManager to kill the job (the caller has confirmed).
  void kill();

 signals:
  void recordLoaded(const spindle::gui::JobRecordSnapshot& record);
  void snapshot(const spindle::gui::JobSnapshot& snapshot);
  // The job ended (or was found ended); polling stops.
  void ended(const QString& finalStatus);
  void killFinished(bool killed, const QString& message);

 private:
  struct Shared;
  void polled();

  QString applicationId_;
  HadoopSetup setup_;
  QString historyPath_;
  std::shared_ptr<Shared> shared_;
  QTimer timer_;
  QFutureWatcher<JobRecordSnapshot> record_;
  QFutureWatcher<JobSnapshot> poll_;
  QFutureWatcher<QString> kill_;
  bool killing_ = false;
  bool ended_ = false;
};

}  // namespace spindle::gui

Q_DECLARE_METATYPE(spindle::gui::JobSnapshot)
Q_DECLARE_METATYPE(spindle::gui::JobRecordSnapshot)
