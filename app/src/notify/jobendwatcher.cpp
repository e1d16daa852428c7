#include "notify/jobendwatcher.h"

#include "convert.h"
#include "jobs/jobsmodel.h"

namespace spindle::gui {

JobEndWatcher::JobEndWatcher(JobsModel* model, QString user, QObject* parent)
    : QObject(parent), model_(model), user_(std::move(user)) {
  qRegisterMetaType<spindle::gui::JobEndNotice>();
  connect(model_, &JobsModel::refreshed, this, &JobEndWatcher::look);
}

void JobEndWatcher::setUser(const QString& user) {
  if (user == user_) return;
  user_ = user;
  // Another user's jobs: seen afresh, so that those which ended before are not announced now.
  states_.clear();
  firstLook_ = true;
  look();
}

void JobEndWatcher::look() {
  int running = 0;
  for (int row = 0; row < model_->rowCount(); ++row) {
    const client::JobHistoryEntry* entry = model_->entry(row);
    if (!entry || (!user_.isEmpty() && qs(entry->user) != user_ && !entry->user.empty())) continue;
    const QString id = qs(entry->application_id);
    const QString state = qs(entry->state);
    const bool final = entry->is_final();
    if (!final) ++running;
    const auto seen = states_.constFind(id);
    const bool endedNow = final && !firstLook_ && (seen == states_.constEnd() || seen.value() != state);
    states_[id] = state;
    if (endedNow) emit jobEnded(JobEndNotice{id, qs(entry->name), state, qs(entry->diagnostics)});
  }
  firstLook_ = false;
  if (running != running_) {
    running_ = running;
    emit runningJobsChanged(running);
  }
}

}  // namespace spindle::gui
