#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <QString>
#include <array>
#include <vector>

#include "spindle/core/job_status.h"

namespace spindle::gui {

// Colours of a task's phase, as text and as the cell behind it; both
// palettes keep the text legible on its background.
struct PhaseColors {
  QColor foreground;
  QColor background;
};
PhaseColors phaseColors(const QString& phase, bool dark);
// The phase as people read it ("running", "läuft", ...).
QString phaseText(const QString& phase);
// The phase a task is shown in: its own, or "stalled" for a running task that is stalled.
QString shownPhase(const TaskStatus& task);

// One row per task of a job, as its application master reports them. Each
// new status changes only what changed: rows are inserted and removed for
// tasks that appear or go, and dataChanged names the cells whose text
// differs, so a job of a thousand containers refreshed every second costs
// little.
class ContainerTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    TaskColumn,
    StateColumn,
    HostColumn,
    PortColumn,
    ExitCodeColumn,
    RestartsColumn,
    LogColumn,
    ColumnCount
  };
  enum Role {
    TaskRole = Qt::UserRole + 1,
    PhaseRole,
    ContainerRole,
    NodeHttpAddressRole,
    LogUrlRole,
  };

  explicit ContainerTableModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // Takes a new status of the job: every task's row brought up to date.
  void setStatus(const JobStatus& status);
  // Colours follow the application's palette; call when it changes.
  void paletteChanged();

  const TaskStatus* task(int row) const;
  int rowOfTask(const QString& task) const;
  // Cells reported changed by the last setStatus (for tests and the bench).
  int lastChangedCells() const { return lastChangedCells_; }

 private:
  struct Row {
    TaskStatus task;
    std::array<QString, ColumnCount> cells;
  };
  static std::array<QString, ColumnCount> cellsOf(const TaskStatus& task);

  std::vector<Row> rows_;
  QHash<QString, int> rowByTask_;
  bool dark_ = false;
  int lastChangedCells_ = 0;
};

}  // namespace spindle::gui
