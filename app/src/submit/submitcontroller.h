#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <thread>

#include "cluster/hadoopsetup.h"
#include "spindle/core/job_spec.h"

namespace spindle::gui {

// Submits a job with core's submit_job in a worker thread and follows it
// through the ResourceManager and its application master, as
// `spindle submit --wait` does. Everything it learns arrives as queued
// signals in the thread that owns the controller; everything it sees also
// goes into the history.
class SubmitController : public QObject {
  Q_OBJECT

 public:
  explicit SubmitController(QObject* parent = nullptr);
  ~SubmitController() override;

  // Starts a submit; false when one is still running.
  bool submit(const JobSpec& spec, const HadoopSetup& setup, bool follow = true);
  // Stops following (the job runs on); returns once the worker ended.
  void stop();
  bool isBusy() const { return busy_; }
  const QString& applicationId() const { return applicationId_; }

  // The spindle-container binary that is staged with the job:
  // $SPINDLE_CONTAINER_BINARY, else the one next to this program, else the
  // build tree's.
  static QString containerBinary();

 signals:
  void progress(const QString& line);
  void bytesStaged(qint64 staged, qint64 total);
  // The job's python_env: bytes read while packing it, then bytes uploaded
  // (neither when it is reused), then what was shipped.
  void environmentPacked(qint64 done, qint64 total);
  void environmentUploaded(qint64 done, qint64 total);
  void environmentShipped(const QString& name, qint64 uploadedBytes, bool packedNow);
  void submitted(const QString& applicationId, const QString& staging);
  // The sentence core gives; badInput when the spec or the cluster's limits are at fault.
  void failed(const QString& message, bool badInput);
  void stateChanged(const QString& yarnState);
  void jobEvent(const QString& task, const QString& kind, const QString& message);
  // Tasks that got a container, and that registered their address, of all.
  void containersChanged(int allocated, int registered, int total);
  // SUCCEEDED, FAILED or KILLED, with YARN's diagnostics.
  void finished(const QString& finalStatus, const QString& diagnostics);
  void idle();

 private:
  void run(JobSpec spec, HadoopSetup setup, bool follow);

  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> busy_{false};
  QString applicationId_;
  QString mlflowTrackingUri_;  // read on the UI thread for the worker
};

}  // namespace spindle::gui
