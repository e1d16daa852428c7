#include "jobs/jobpoller.h"

#include <QtConcurrent>

#include "convert.h"
#include "jobs/jobsmodel.h"

namespace spindle::gui {

JobPoller::JobPoller(JobsModel* model, QObject* parent)
    : QObject(parent), model_(model), slot_(std::make_shared<ServiceSlot>()) {
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
  slot_ = std::make_shared<ServiceSlot>();
}

void JobPoller::setInterval(int milliseconds) {
  timer_.start(milliseconds);
}

void JobPoller::setFollowedElsewhere(const QSet<QString>& applicationIds) {
  elsewhere_ = applicationIds;
}

void JobPoller::poll() {
  if (!configured_ || watcher_.isRunning()) return;
  std::vector<std::string> unfinished;
  for (int row = 0; row < model_->rowCount(); ++row) {
    const auto* entry = model_->entry(row);
    if (!entry->is_final() && !elsewhere_.contains(qs(entry->application_id))) {
      unfinished.push_back(entry->application_id);
    }
  }
  watcher_.setFuture(
      QtConcurrent::run([slot = slot_, setup = setup_, path = model_->historyPath(), unfinished]() -> QString {
        if (!slot->service) {
          auto made = setup.service();
          if (!made) return qs(made.error().message);
          slot->service = std::move(*made);
        }
        auto refreshed = slot->service->refresh_history(ss(path), unfinished);
        return refreshed ? QString() : qs(refreshed.error().message);
      }));
}

}  // namespace spindle::gui
