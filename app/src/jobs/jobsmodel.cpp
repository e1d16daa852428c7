#include "jobs/jobsmodel.h"

#include <QBrush>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <unordered_map>

#include "convert.h"
#include "spindle/core/job_state.h"
#include "theme.h"

namespace spindle::gui {
namespace {

bool sameRow(const client::JobHistoryEntry& a, const client::JobHistoryEntry& b) {
  return a.name == b.name && a.state == b.state && a.queue == b.queue && a.user == b.user &&
         a.submitted_ms == b.submitted_ms && a.started_ms == b.started_ms && a.finished_ms == b.finished_ms &&
         a.diagnostics == b.diagnostics && a.updated_ms == b.updated_ms;
}

QColor stateColor(JobState state) {
  const bool dark = isDarkPalette();
  switch (state) {
    case JobState::succeeded: return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    case JobState::failed: return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
    case JobState::killed: return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x6a, 0x00);
    case JobState::running: return dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x15, 0x65, 0xc0);
    case JobState::submitted:
    case JobState::accepted: return {};
  }
  return {};
}

}  // namespace

JobsModel::JobsModel(const QString& historyPath, QObject* parent)
    : QAbstractTableModel(parent),
      path_(historyPath.isEmpty() ? qs(client::HistoryStore::default_path().string()) : historyPath) {
  connect(&timer_, &QTimer::timeout, this, &JobsModel::refresh);
  timer_.start(2000);
  refresh();
}

QString JobsModel::stateText(const QString& state) {
  const auto known = parse_job_state(state.toStdString());
  if (!known) return state;
  switch (*known) {
    case JobState::submitted: return tr("Submitted");
    case JobState::accepted: return tr("Waiting");
    case JobState::running: return tr("Running");
    case JobState::succeeded: return tr("Succeeded");
    case JobState::failed: return tr("Failed");
    case JobState::killed: return tr("Killed");
  }
  return state;
}

int JobsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int JobsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& job = entries_[static_cast<std::size_t>(index.row())];
  const qint64 end = job.finished_ms > 0 ? job.finished_ms : QDateTime::currentMSecsSinceEpoch();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case IdColumn: return qs(job.application_id);
        case NameColumn: return qs(job.name);
        case StateColumn: return stateText(qs(job.state));
        case QueueColumn: return qs(job.queue);
        case UserColumn: return qs(job.user);
        case SubmittedColumn: return formatTime(job.submitted_ms);
        case DurationColumn: return formatDuration(job.started_ms, job.is_final() ? job.finished_ms : end);
      }
      break;
    case Qt::ToolTipRole:
      if (!job.diagnostics.empty()) return qs(job.diagnostics);
      break;
    case Qt::ForegroundRole:
      if (index.column() == StateColumn) {
        const QColor color = stateColor(job.job_state());
        if (color.isValid()) return QBrush(color);
      }
      break;
    case Qt::FontRole:
      if (index.column() == IdColumn) {
        QFont font = QGuiApplication::font();
        font.setFamily(QStringLiteral("monospace"));
        font.setStyleHint(QFont::Monospace);
        return font;
      }
      break;
    case ApplicationIdRole: return qs(job.application_id);
    case StateRole: return qs(job.state);
    case FinishedRole: return job.is_final();
    case SortRole:
      switch (index.column()) {
        case SubmittedColumn: return static_cast<qlonglong>(job.submitted_ms);
        case DurationColumn: return static_cast<qlonglong>(job.started_ms > 0 ? end - job.started_ms : -1);
        default: return data(index, Qt::DisplayRole);
      }
  }
  return {};
}

QVariant JobsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IdColumn: return tr("Application ID");
    case NameColumn: return tr("Name");
    case StateColumn: return tr("State");
    case QueueColumn: return tr("Queue");
    case UserColumn: return tr("User");
    case SubmittedColumn: return tr("Submitted");
    case DurationColumn: return tr("Duration");
  }
  return {};
}

void JobsModel::setIncludeFinished(bool include) {
  if (filter_.include_finished == include) return;
  filter_.include_finished = include;
  refresh();
}

void JobsModel::setSearch(const QString& search) {
  const std::string text = ss(search.trimmed());
  if (filter_.search == text) return;
  filter_.search = text;
  refresh();
}

void JobsModel::setRefreshInterval(int milliseconds) {
  if (milliseconds <= 0) {
    timer_.stop();
  } else {
    timer_.start(milliseconds);
  }
}

const client::JobHistoryEntry* JobsModel::entry(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  return &entries_[static_cast<std::size_t>(row)];
}

int JobsModel::rowOf(const QString& applicationId) const {
  const std::string id = ss(applicationId);
  for (std::size_t row = 0; row < entries_.size(); ++row) {
    if (entries_[row].application_id == id) return static_cast<int>(row);
  }
  return -1;
}

QString JobsModel::historyPath() const {
  return path_;
}

void JobsModel::setProblem(const QString& problem) {
  if (problem_ == problem) return;
  problem_ = problem;
  emit problemChanged(problem);
}

void JobsModel::refresh() {
  if (!store_) {
    auto opened = client::HistoryStore::open(ss(path_));
    if (!opened) {
      setProblem(qs(opened.error().message));
      return;
    }
    store_.emplace(std::move(*opened));
  }
  auto jobs = store_->jobs(filter_);
  if (!jobs) {
    setProblem(qs(jobs.error().message));
    return;
  }
  setProblem({});
  merge(std::move(*jobs));
  emit refreshed();
}

void JobsModel::merge(std::vector<client::JobHistoryEntry> entries) {
  std::unordered_map<std::string, std::size_t> fresh;
  for (std::size_t i = 0; i < entries.size(); ++i) fresh.emplace(entries[i].application_id, i);
  // Rows that went away, from the bottom so the rows above keep their numbers.
  for (int row = rowCount() - 1; row >= 0; --row) {
    if (fresh.count(entries_[static_cast<std::size_t>(row)].application_id)) continue;
    beginRemoveRows({}, row, row);
    entries_.erase(entries_.begin() + row);
    endRemoveRows();
  }
  std::unordered_map<std::string, std::size_t> present;
  for (std::size_t row = 0; row < entries_.size(); ++row) {
    const auto& id = entries_[row].application_id;
    present.emplace(id, row);
    auto& updated = entries[fresh.at(id)];
    // Running jobs' durations change on every refresh.
    const bool running = !updated.is_final() && updated.started_ms > 0;
    if (!sameRow(entries_[row], updated) || running) {
      entries_[row] = updated;
      emit dataChanged(index(static_cast<int>(row), 0), index(static_cast<int>(row), ColumnCount - 1));
    }
  }
  std::vector<client::JobHistoryEntry> added;
  for (auto& entry : entries) {
    if (!present.count(entry.application_id)) added.push_back(std::move(entry));
  }
  if (added.empty()) return;
  const int first = rowCount();
  beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
  for (auto& entry : added) entries_.push_back(std::move(entry));
  endInsertRows();
}

}  // namespace spindle::gui
