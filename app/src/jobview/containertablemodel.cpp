#include "jobview/containertablemodel.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QSet>

#include "convert.h"

namespace spindle::gui {
namespace {

bool paletteIsDark() {
  const QPalette palette = QApplication::palette();
  return palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness();
}

// "host:port" split at the last colon; IPv6 hosts keep their brackets off.
std::pair<QString, QString> splitAddress(const std::string& address) {
  const QString text = qs(address);
  const int colon = text.lastIndexOf(QLatin1Char(':'));
  if (colon < 0) return {text, {}};
  QString host = text.left(colon);
  if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) host = host.mid(1, host.size() - 2);
  return {host, text.mid(colon + 1)};
}

}  // namespace

PhaseColors phaseColors(const QString& phase, bool dark) {
  // Light palette: dark text on a pale tint. Dark palette: light text on a
  // deep tint of the same hue.
  struct Pair {
    QColor light_fg, light_bg, dark_fg, dark_bg;
  };
  static const QHash<QString, Pair> colours = {
      {QStringLiteral("requested"),
       {QColor(0x5f, 0x63, 0x68), QColor(0xf1, 0xf3, 0xf4), QColor(0xbd, 0xc1, 0xc6), QColor(0x3c, 0x40, 0x43)}},
      {QStringLiteral("launching"),
       {QColor(0x8a, 0x4b, 0x00), QColor(0xff, 0xf3, 0xd6), QColor(0xff, 0xd5, 0x80), QColor(0x4a, 0x37, 0x0b)}},
      {QStringLiteral("registered"),
       {QColor(0x00, 0x5f, 0x73), QColor(0xdc, 0xf4, 0xf8), QColor(0x80, 0xde, 0xea), QColor(0x0b, 0x3d, 0x45)}},
      {QStringLiteral("running"),
       {QColor(0x0d, 0x47, 0xa1), QColor(0xdd, 0xea, 0xfc), QColor(0x9e, 0xc5, 0xff), QColor(0x17, 0x33, 0x5c)}},
      {QStringLiteral("succeeded"),
       {QColor(0x1b, 0x5e, 0x20), QColor(0xdf, 0xf2, 0xe0), QColor(0x9c, 0xdc, 0x9f), QColor(0x1d, 0x40, 0x1f)}},
      {QStringLiteral("failed"),
       {QColor(0xb7, 0x1c, 0x1c), QColor(0xfd, 0xe2, 0xe1), QColor(0xff, 0xab, 0xa4), QColor(0x5c, 0x1d, 0x1b)}},
      {QStringLiteral("stopped"),
       {QColor(0x6d, 0x4c, 0x41), QColor(0xef, 0xe7, 0xe4), QColor(0xd7, 0xc0, 0xb7), QColor(0x45, 0x36, 0x30)}},
      // A running task that is stalled (stall_timeout): a warning, apart from launching's amber.
      {QStringLiteral("stalled"),
       {QColor(0x9a, 0x3c, 0x00), QColor(0xff, 0xe5, 0xcc), QColor(0xff, 0xb7, 0x7a), QColor(0x4d, 0x26, 0x00)}},
  };
  const auto found = colours.constFind(phase);
  if (found == colours.constEnd()) return {};
  return dark ? PhaseColors{found->dark_fg, found->dark_bg} : PhaseColors{found->light_fg, found->light_bg};
}

QString shownPhase(const TaskStatus& task) {
  return task.stalled.empty() ? qs(task.phase) : QStringLiteral("stalled");
}

QString phaseText(const QString& phase) {
  static const char* const context = "spindle::gui::ContainerTableModel";
  if (phase == QLatin1String("requested")) return QCoreApplication::translate(context, "requested");
  if (phase == QLatin1String("launching")) return QCoreApplication::translate(context, "launching");
  if (phase == QLatin1String("registered")) return QCoreApplication::translate(context, "registered");
  if (phase == QLatin1String("running")) return QCoreApplication::translate(context, "running");
  if (phase == QLatin1String("succeeded")) return QCoreApplication::translate(context, "succeeded");
  if (phase == QLatin1String("failed")) return QCoreApplication::translate(context, "failed");
  if (phase == QLatin1String("stopped")) return QCoreApplication::translate(context, "stopped");
  return phase;
}

ContainerTableModel::ContainerTableModel(QObject* parent) : QAbstractTableModel(parent), dark_(paletteIsDark()) {}

int ContainerTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ContainerTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

std::array<QString, ContainerTableModel::ColumnCount> ContainerTableModel::cellsOf(const TaskStatus& task) {
  std::array<QString, ColumnCount> cells;
  cells[TaskColumn] = qs(task.task);
  // A stalled task runs: the word that matters is "stalled", and it fits the column.
  cells[StateColumn] = task.stalled.empty() ? phaseText(qs(task.phase)) : tr("stalled");
  auto [host, port] = splitAddress(task.address);
  if (host.isEmpty()) host = splitAddress(task.node).first;
  cells[HostColumn] = host;
  cells[PortColumn] = port;
  cells[ExitCodeColumn] = task.exit_code ? QString::number(*task.exit_code) : QString();
  cells[RestartsColumn] = QString::number(task.restarts);
  if (!task.log_url.empty() || (!task.container.empty() && !task.node_http_address.empty())) {
    cells[LogColumn] = tr("stdout · stderr");
  }
  return cells;
}

QVariant ContainerTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: return row.cells[static_cast<std::size_t>(column)];
    case Qt::ForegroundRole:
      if (column == StateColumn) {
        const auto colours = phaseColors(shownPhase(row.task), dark_);
        if (colours.foreground.isValid()) return colours.foreground;
      }
      if (column == LogColumn && !row.cells[LogColumn].isEmpty()) {
        return QApplication::palette().color(QPalette::Link);
      }
      return {};
    case Qt::BackgroundRole:
      if (column == StateColumn) {
        const auto colours = phaseColors(shownPhase(row.task), dark_);
        if (colours.background.isValid()) return colours.background;
      }
      return {};
    case Qt::FontRole:
      if (column == StateColumn) {
        QFont font;
        font.setBold(true);
        return font;
      }
      if (column == LogColumn) {
        QFont font;
        font.setUnderline(true);
        return font;
      }
      return {};
    case Qt::TextAlignmentRole:
      if (column == PortColumn || column == ExitCodeColumn || column == RestartsColumn) {
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
      }
      return {};
    case Qt::ToolTipRole: {
      const auto& task = row.task;
      switch (column) {
        case StateColumn:
          if (!task.stalled.empty()) return qs(task.task) + QLatin1Char(' ') + qs(task.stalled);
          return task.exit_description.empty()
                     ? row.cells[StateColumn]
                     : row.cells[StateColumn] + QStringLiteral(": ") + qs(task.exit_description);
        case HostColumn: {
          QString tip = qs(task.node);
          if (!task.container.empty()) tip += QLatin1Char('\n') + qs(task.container);
          return tip;
        }
        case RestartsColumn:
          return tr("%n restart(s) spent, %1 container(s) lost", nullptr, task.restarts).arg(task.lost);
        case LogColumn: return qs(task.log_url);
        default: return {};
      }
    }
    case TaskRole: return qs(row.task.task);
    case PhaseRole: return qs(row.task.phase);
    case ContainerRole: return qs(row.task.container);
    case NodeHttpAddressRole: return qs(row.task.node_http_address);
    case LogUrlRole: return qs(row.task.log_url);
    default: return {};
  }
}

QVariant ContainerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case TaskColumn: return tr("Task");
    case StateColumn: return tr("State");
    case HostColumn: return tr("Host");
    case PortColumn: return tr("Port");
    case ExitCodeColumn: return tr("Exit code");
    case RestartsColumn: return tr("Restarts");
    case LogColumn: return tr("Log");
    default: return {};
  }
}

void ContainerTableModel::setStatus(const JobStatus& status) {
  lastChangedCells_ = 0;
  // Tasks that are gone: removed from the bottom up, each run of rows at once.
  QSet<QString> present;
  present.reserve(static_cast<int>(status.tasks.size()));
  for (const auto& task : status.tasks) present.insert(qs(task.task));
  for (int row = static_cast<int>(rows_.size()) - 1; row >= 0;) {
    if (present.contains(qs(rows_[static_cast<std::size_t>(row)].task.task))) {
      --row;
      continue;
    }
    int first = row;
    while (first > 0 && !present.contains(qs(rows_[static_cast<std::size_t>(first - 1)].task.task))) --first;
    beginRemoveRows({}, first, row);
    rows_.erase(rows_.begin() + first, rows_.begin() + row + 1);
    endRemoveRows();
    row = first - 1;
  }
  if (static_cast<int>(rows_.size()) != rowByTask_.size()) {
    rowByTask_.clear();
    for (std::size_t row = 0; row < rows_.size(); ++row)
      rowByTask_.insert(qs(rows_[row].task.task), static_cast<int>(row));
  }

  std::vector<const TaskStatus*> added;
  for (const auto& task : status.tasks) {
    const auto found = rowByTask_.constFind(qs(task.task));
    if (found == rowByTask_.constEnd()) {
      added.push_back(&task);
      continue;
    }
    Row& row = rows_[static_cast<std::size_t>(*found)];
    auto cells = cellsOf(task);
    const bool phaseChanged = row.task.phase != task.phase;
    row.task = task;
    // Each run of changed cells in the row is one dataChanged.
    int start = -1;
    for (int column = 0; column <= ColumnCount; ++column) {
      const bool changed = column < ColumnCount &&
                           (cells[static_cast<std::size_t>(column)] != row.cells[static_cast<std::size_t>(column)] ||
                            (column == StateColumn && phaseChanged));
      if (changed) {
        row.cells[static_cast<std::size_t>(column)] = std::move(cells[static_cast<std::size_t>(column)]);
        ++lastChangedCells_;
        if (start < 0) start = column;
      } else if (start >= 0) {
        emit dataChanged(index(*found, start), index(*found, column - 1));
        start = -1;
      }
    }
  }
  if (!added.empty()) {
    const int first = static_cast<int>(rows_.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    for (const TaskStatus* task : added) {
      rowByTask_.insert(qs(task->task), static_cast<int>(rows_.size()));
      rows_.push_back(Row{*task, cellsOf(*task)});
    }
    endInsertRows();
  }
}

void ContainerTableModel::paletteChanged() {
  const bool dark = paletteIsDark();
  if (dark == dark_ || rows_.empty()) {
    dark_ = dark;
    return;
  }
  dark_ = dark;
  emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole, Qt::BackgroundRole});
}

const TaskStatus* ContainerTableModel::task(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  return &rows_[static_cast<std::size_t>(row)].task;
}

int ContainerTableModel::rowOfTask(const QString& task) const {
  return rowByTask_.value(task, -1);
}

}  // namespace spindle::gui
