#include "jobview/jobmonitor.h"

#include <QDateTime>
#include <QtConcurrent>
#include <chrono>
#include <mutex>
#include <thread>

#include "convert.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/mlflow_tracking.h"

namespace spindle::gui {

// The connection is used by one worker at a time (polls and kills take the mutex).
struct JobMonitor::Shared {
  std::mutex mutex;
  std::optional<yarn::HadoopConfiguration> configuration;
  std::unique_ptr<client::JobConnection> job;
  std::optional<client::DashboardClient> server;
  QString problem;

  // Under the mutex: the Spindle server of the settings, when the app goes through one.
  client::DashboardClient* reach(const HadoopSetup& setup) {
    if (server) return &*server;
    auto made = setup.dashboard();
    if (!made) {
      problem = qs(made.error().message);
      return nullptr;
    }
    server.emplace(std::move(*made));
    return &*server;
  }

  // Under the mutex.
  client::JobConnection* connect(const std::string& applicationId, const HadoopSetup& setup) {
    if (job) return job.get();
    if (!configuration) {
      auto loaded = setup.load();
      if (!loaded) {
        problem = qs(loaded.error().message);
        return nullptr;
      }
      configuration = std::move(*loaded);
    }
    auto opened = client::JobConnection::open(*configuration, applicationId);
    if (!opened) {
      problem = setup.explain(opened.error());
      return nullptr;
    }
    job = std::make_unique<client::JobConnection>(std::move(*opened));
    return job.get();
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

namespace {

JobRecordSnapshot recordFromServer(const client::DashboardClient& server, const std::string& id) {
  JobRecordSnapshot record;
  auto job = server.job(id);
  if (!job) {
    record.problem = qs(job.error().message);
    return record;
  }
  record.found = true;
  record.entry = job->entry;
  record.status = job->status;
  record.mlflowRunUrl = qs(job->mlflow_run);
  if (auto spec = server.spec(id)) record.entry.spec_yaml = *spec;
  if (auto points = server.metrics(id, 0)) {
    for (auto& point : points->points) {
      if (point.source == "container") record.containerUse.push_back(std::move(point));
    }
  }
  return record;
}

JobSnapshot snapshotFromServer(const client::DashboardClient& server, const std::string& id) {
  JobSnapshot snapshot;
  auto job = server.job(id);
  snapshot.takenMs = QDateTime::currentMSecsSinceEpoch();
  if (!job) {
    snapshot.problem = qs(job.error().message);
    return snapshot;
  }
  snapshot.reported = true;
  snapshot.yarnState = qs(job->yarn_state);
  snapshot.finalStatus = qs(job->final_status);
  snapshot.diagnostics = qs(job->entry.diagnostics);
  snapshot.trackingUrl = qs(job->entry.tracking_url);
  snapshot.finished = job->finished;
  snapshot.mlflowRunUrl = qs(job->mlflow_run);
  snapshot.status = std::move(job->status);
  return snapshot;
}

}  // namespace

void JobMonitor::start(int intervalMs) {
  timer_.setInterval(intervalMs);
  if (setup_.throughServer()) {
    record_.setFuture(QtConcurrent::run([shared = shared_, id = ss(applicationId_), setup = setup_] {
      std::lock_guard lock(shared->mutex);
      auto* server = shared->reach(setup);
      if (!server) {
        JobRecordSnapshot record;
        record.problem = shared->problem;
        return record;
      }
      return recordFromServer(*server, id);
    }));
    return;
  }
  record_.setFuture(QtConcurrent::run([id = ss(applicationId_), path = historyPath_] {
    JobRecordSnapshot record;
    auto store = path.isEmpty() ? client::HistoryStore::open() : client::HistoryStore::open(ss(path));
    if (!store) {
      record.problem = qs(store.error().message);
      return record;
    }
    auto entry = store->job(id);
    if (!entry) {
      record.problem = qs(entry.error().message);
      return record;
    }
    if (!entry->has_value()) return record;
    record.found = true;
    record.entry = **entry;
    if (auto run = store->tracking_run(id); run && *run) record.mlflowRunUrl = qs((*run)->url());
    if (auto attempts = store->attempts(id); attempts && !attempts->empty()) {
      record.status = client::status_from_history(record.entry, *attempts);
    }
    if (auto points = store->metrics(id)) {
      for (auto& point : *points) {
        if (point.source == "container") record.containerUse.push_back(std::move(point));
      }
    }
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
    std::lock_guard lock(shared->mutex);
    if (setup.throughServer()) {
      if (auto* server = shared->reach(setup)) return snapshotFromServer(*server, id);
      snapshot.problem = shared->problem;
      return snapshot;
    }
    snapshot.takenMs = QDateTime::currentMSecsSinceEpoch();
    auto* job = shared->connect(id, setup);
    if (!job) {
      snapshot.problem = shared->problem;
      return snapshot;
    }
    auto report = job->report();
    if (!report) {
      snapshot.problem = setup.explain(report.error());
      snapshot.status = job->last_status();
      return snapshot;
    }
    snapshot.reported = true;
    snapshot.yarnState = qs(report->state);
    snapshot.finalStatus = qs(report->final_status);
    snapshot.diagnostics = qs(report->diagnostics);
    snapshot.trackingUrl = qs(report->tracking_url);
    snapshot.finished = report->finished();
    if (!snapshot.finished) snapshot.status = job->live_status();
    if (snapshot.finished) job->remember_final_status();
    if (!snapshot.status) snapshot.status = job->last_status();
    if (auto* history = job->history()) {
      if (snapshot.finished) {
        QStringList notes;
        client::finish_ended_tracking_runs(*history, [&notes](const std::string& line) { notes << qs(line); });
        snapshot.mlflowNote = notes.join(QLatin1Char('\n'));
      }
      if (auto run = history->tracking_run(id); run && *run) snapshot.mlflowRunUrl = qs((*run)->url());
    }
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
    std::lock_guard lock(shared->mutex);
    if (setup.throughServer()) {
      auto* server = shared->reach(setup);
      if (!server) return shared->problem;
      auto killed = server->kill(id);
      return killed ? QString() : qs(killed.error().message);
    }
    auto* job = shared->connect(id, setup);
    if (!job) return shared->problem;
    // The tasks as they were, kept with the record.
    if (job->report()) (void)job->live_status();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool killed = false;
    while (std::chrono::steady_clock::now() < deadline) {
      auto answer = job->client().kill(*application, "killed by its owner in spindle-gui");
      if (!answer) return setup.explain(answer.error());
      if (*answer) {
        killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    job->remember_final_status();
    if (!killed) return tr("The ResourceManager did not confirm the kill within 60 s.");
    return {};
  }));
}

}  // namespace spindle::gui
