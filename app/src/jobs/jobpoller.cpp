#include "jobs/jobpoller.h"

#include <QtConcurrent>

#include "convert.h"
#include "jobs/jobsmodel.h"
#include "spindle/client/job_connection.h"

namespace spindle::gui {

// Used by one worker at a time: a poll starts only when the last one ended.
struct JobPoller::Connections {
  std::optional<yarn::HadoopConfiguration> configuration;
  std::map<std::string, std::unique_ptr<client::JobConnection>> jobs;
};

JobPoller::JobPoller(JobsModel* model, QObject* parent)
    : QObject(parent), model_(model), connections_(std::make_shared<Connections>()) {
  connect(&timer_, &QTimer::timeout, this, &JobPoller::poll);
  connect(&watcher_, &QFutureWatcherBase::finished, model_, &JobsModel::refresh);
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
    const QString problem = watcher_.result();
    if (problem == problem_) return;
    problem_ = problem;
    emit problemChanged(problem_);
  });
  timer_.start(3000);
}

JobPoller::~JobPoller() {
  timer_.stop();
  watcher_.waitForFinished();
}

void JobPoller::setSetup(const HadoopSetup& setup) {
  watcher_.waitForFinished();
  setup_ = setup;
  configured_ = true;
  connections_ = std::make_shared<Connections>();
  server_.reset();
}

void JobPoller::setInterval(int milliseconds) {
  timer_.start(milliseconds);
}

void JobPoller::setFollowedElsewhere(const QSet<QString>& applicationIds) {
  elsewhere_ = applicationIds;
}

void JobPoller::poll() {
  if (!configured_ || watcher_.isRunning()) return;
  if (setup_.throughServer()) {
    // The server's list goes into this machine's history, which the list shows.
    if (!server_) server_ = std::make_shared<Result<client::DashboardClient>>(setup_.dashboard());
    watcher_.setFuture(QtConcurrent::run([server = server_, path = model_->historyPath()]() -> QString {
      if (!*server) return qs(server->error().message);
      auto jobs = (*server)->jobs();
      if (!jobs) return qs(jobs.error().message);
      auto store = path.isEmpty() ? client::HistoryStore::open() : client::HistoryStore::open(ss(path));
      if (!store) return qs(store.error().message);
      for (const auto& job : *jobs) {
        if (auto recorded = store->record_job(job); !recorded) return qs(recorded.error().message);
        (void)store->record_state(job.application_id, job.state, job.diagnostics, job.started_ms, job.finished_ms,
                                  job.tracking_url);
      }
      return {};
    }));
    return;
  }
  std::vector<std::string> unfinished;
  for (int row = 0; row < model_->rowCount(); ++row) {
    const auto* entry = model_->entry(row);
    if (!entry->is_final() && !elsewhere_.contains(qs(entry->application_id))) {
      unfinished.push_back(entry->application_id);
    }
  }
  if (unfinished.empty()) {
    // Nothing to ask about, so nothing can have failed.
    if (!problem_.isEmpty()) {
      problem_.clear();
      emit problemChanged(problem_);
    }
    return;
  }
  watcher_.setFuture(QtConcurrent::run([connections = connections_, setup = setup_, unfinished]() -> QString {
    if (!connections->configuration) {
      auto configuration = setup.load();
      if (!configuration) return qs(configuration.error().message);
      connections->configuration = std::move(*configuration);
    }
    // The first failure is the one told; the other jobs are still asked about.
    QString problem;
    for (const auto& id : unfinished) {
      auto& job = connections->jobs[id];
      if (!job) {
        auto opened = client::JobConnection::open(*connections->configuration, id);
        if (!opened) {
          if (problem.isEmpty()) problem = qs(id + ": " + opened.error().message);
          connections->jobs.erase(id);
          continue;
        }
        job = std::make_unique<client::JobConnection>(std::move(*opened));
      }
      auto report = job->report();
      if (!report) {
        if (problem.isEmpty()) problem = qs(id + ": " + report.error().message);
        continue;
      }
      if (auto* history = job->history()) {
        const auto seen = history->last_event_sequence(id);
        (void)job->events_after(seen ? *seen : 0, std::chrono::milliseconds(0));
      }
      (void)job->live_status();
      if (report->finished()) {
        job->remember_final_status();
        connections->jobs.erase(id);
      }
    }
    return problem;
  }));
}

}  // namespace spindle::gui
