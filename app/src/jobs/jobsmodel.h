#pragma once

#include <QAbstractTableModel>
#include <QTimer>
#include <optional>
#include <vector>

#include "spindle/client/history_store.h"

namespace spindle::gui {

// Running and past jobs from the history store that the CLI shares, so a
// job submitted with `spindle submit` shows up too. Refreshes itself every
// two seconds, keeping rows (and so the selection) of jobs that stay.
class JobsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    IdColumn,
    NameColumn,
    StateColumn,
    QueueColumn,
    UserColumn,
    SubmittedColumn,
    DurationColumn,
    ColumnCount
  };
  enum Role {
    ApplicationIdRole = Qt::UserRole + 1,
    StateRole,     // the history's state word: submitted, accepted, running, succeeded, failed, killed
    FinishedRole,  // bool
    SortRole,
  };

  // An empty path opens the history where the CLI keeps it.
  explicit JobsModel(const QString& historyPath = {}, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // What the history is asked for: finished jobs or not, and a search over
  // id, name, user and queue (as `spindle list` searches).
  void setIncludeFinished(bool include);
  void setSearch(const QString& search);
  void setRefreshInterval(int milliseconds);  // 0 stops the timer

  const client::JobHistoryEntry* entry(int row) const;
  int rowOf(const QString& applicationId) const;
  QString historyPath() const;
  // Why the history could not be read, or "".
  const QString& problem() const { return problem_; }

  static QString stateText(const QString& state);

 public slots:
  void refresh();

 signals:
  void refreshed();
  void problemChanged(const QString& problem);

 private:
  void setProblem(const QString& problem);
  void merge(std::vector<client::JobHistoryEntry> entries);

  QString path_;
  std::optional<client::HistoryStore> store_;
  std::vector<client::JobHistoryEntry> entries_;
  client::JobFilter filter_;
  QString problem_;
  QTimer timer_;
};

}  // namespace spindle::gui
