#include "jobview/jobmonitor.h"

#include <QDateTime>
#include <QtConcurrent>
#include <mutex>

#include "convert.h"

namespace spindle::gui {

// The service, made by the first worker that needs it; the service itself
// may be used by several at once.
struct JobMonitor::Shared {
  std::mutex mutex;
  std::shared_ptr<client::JobService> service;

  Result<std::shared_ptr<client::JobService>> reach(const HadoopSetup& setup) {
    std::lock_guard lock(mutex);
    if (!service) {
      auto made = setup.service();
      if (!made) return made.error();
      service = std::move(*made);
    }
    return service;
  }
};

JobMonitor::JobMonitor(const QString& applicationId, const HadoopSetup& setup, const QString& historyPath,
                       QObject* parent)
    : QObject(parent),
      applicationId_(applicationId),
      setup_(setup),
      historyPath_(historyPath),
      shared_(std::make_shared<Shared>()) {
  qRegisterMetaType<spindle::gui::JobSnapshot>();
  qRegisterMetaType<spindle::gui::JobRecordSnapshot>();
  connect(&timer_, &QTimer::timeout, this, &JobMonitor::pollNow);
  connect(&poll_, &QFutureWatcherBase::finished, this, &JobMonitor::polled);
  connect(&record_, &QFutureWatcherBase::finished, this, [this] {
    emit recordLoaded(record_.result());
    pollNow();
  });
  connect(&kill_, &QFutureWatcherBase::finished, this, [this] {
    killing_ = false;
    const QString problem = kill_.result();
    emit killFinished(problem.isEmpty(), problem);
    pollNow();
  });
}

JobMonitor::~JobMonitor() {
  timer_.stop();
  record_.waitForFinished();
  poll_.waitForFinished();
  kill_.waitForFinished();
}

void JobMonitor::start(int intervalMs) {
  timer_.setInterval(intervalMs);
  record_.setFuture(QtConcurrent::run([shared = shared_, id = ss(applicationId_), setup = setup_, path = historyPath_] {
    JobRecordSnapshot record;
    auto service = shared->reach(setup);
    if (!service) {
      record.problem = qs(service.error().message);
      return record;
    }
    auto known = (*service)->job_on_record(ss(path), id);
    if (!known) {
      // A job the history does not hold yet is no problem: its first poll tells the rest.
      if (known.error().kind != Error::Kind::not_found) record.problem = qs(known.error().message);
      return record;
    }
    record.found = true;
    record.entry = std::move(known->entry);
    record.status = std::move(known->status);
    record.mlflowRunUrl = qs(known->mlflow_run_url);
    record.containerUse = std::move(known->container_use);
    return record;
  }));
}

void JobMonitor::stop() {
  timer_.stop();
}

void JobMonitor::pollNow() {
  if (poll_.isRunning() || record_.isRunning() || ended_) return;
  poll_.setFuture(QtConcurrent::run([shared = shared_, id = ss(applicationId_), setup = setup_] {
    JobSnapshot snapshot;
    snapshot.takenMs = QDateTime::currentMSecsSinceEpoch();
    auto service = shared->reach(setup);
    if (!service) {
      snapshot.problem = qs(service.error().message);
      return snapshot;
    }
    auto now = (*service)->job_now(id);
    if (now.problem) snapshot.problem = setup.explain(*now.problem);
    snapshot.reported = now.reported;
    snapshot.yarnState = qs(now.yarn_state);
    snapshot.finalStatus = qs(now.final_status);
    snapshot.diagnostics = qs(now.diagnostics);
    snapshot.trackingUrl = qs(now.tracking_url);
    snapshot.finished = now.finished;
    snapshot.mlflowRunUrl = qs(now.mlflow_run_url);
    snapshot.mlflowNote = qs(now.mlflow_note);
    snapshot.status = std::move(now.status);
    snapshot.takenMs = QDateTime::currentMSecsSinceEpoch();
    return snapshot;
  }));
}

void JobMonitor::polled() {
  const JobSnapshot result = poll_.result();
  emit snapshot(result);
  if (result.finished && !ended_) {
    ended_ = true;
    timer_.stop();
    emit ended(result.finalStatus);
    return;
  }
  if (!timer_.isActive() && !ended_ && timer_.interval() > 0) timer_.start();
}

void JobMonitor::kill() {
  if (killing_) return;
  killing_ = true;
  ended_ = false;  // the poll after the kill sees the end
  kill_.setFuture(QtConcurrent::run([shared = shared_, id = ss(applicationId_), setup = setup_]() -> QString {
    auto application = yarn::ApplicationId::parse(id);
    if (!application) return qs(application.error().message);
    auto service = shared->reach(setup);
    if (!service) return qs(service.error().message);
    auto killed = (*service)->kill(id, "killed by its owner in spindle-gui");
    return killed ? QString() : setup.explain(killed.error());
  }));
}

}  // namespace spindle::gui
