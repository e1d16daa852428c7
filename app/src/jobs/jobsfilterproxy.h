#pragma once

#include <QSortFilterProxyModel>

namespace spindle::gui {

// Which jobs the list shows by state, sorted by the model's sort role
// (times as numbers, not as text).
class JobsFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  enum class States { all, active, succeeded, failedOrKilled };

  explicit JobsFilterProxy(QObject* parent = nullptr);

  void setStates(States states);
  States states() const { return states_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  States states_ = States::all;
};

}  // namespace spindle::gui
