#include "jobs/jobsfilterproxy.h"

#include "jobs/jobsmodel.h"

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
  const QString state = index.data(JobsModel::StateRole).toString();
  switch (states_) {
    case States::all: return true;
    case States::active: return !index.data(JobsModel::FinishedRole).toBool();
    case States::succeeded: return state == QLatin1String("succeeded");
    case States::failedOrKilled: return state == QLatin1String("failed") || state == QLatin1String("killed");
  }
  return true;
}

}  // namespace spindle::gui
