#include "jobs/jobsfilterproxy.h"

#include "jobs/jobsmodel.h"
#include "spindle/core/job_state.h"

namespace spindle::gui {

JobsFilterProxy::JobsFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(JobsModel::SortRole);
  setDynamicSortFilter(true);
  setSortCaseSensitivity(Qt::CaseInsensitive);
}

void JobsFilterProxy::setStates(States states) {
  if (states_ == states) return;
  states_ = states;
  invalidateFilter();
}

bool JobsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
  const auto state = parse_job_state(index.data(JobsModel::StateRole).toString().toStdString());
  switch (states_) {
    case States::all: return true;
    case States::active: return !index.data(JobsModel::FinishedRole).toBool();
    case States::succeeded: return state == JobState::succeeded;
    case States::failedOrKilled: return state == JobState::failed || state == JobState::killed;
  }
  return true;
}

}  // namespace spindle::gui
