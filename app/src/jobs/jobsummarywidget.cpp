#include "jobs/jobsummarywidget.h"

#include <QDateTime>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "convert.h"
#include "jobs/jobsmodel.h"

namespace spindle::gui {
namespace {

QTableWidget* readOnlyTable(const QStringList& headers) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setAlternatingRowColors(true);
  table->setWordWrap(false);
  table->setTabKeyNavigation(false);
  table->verticalHeader()->setVisible(false);
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

void setRow(QTableWidget* table, int row, const QStringList& cells) {
  for (int column = 0; column < cells.size(); ++column) {
    auto* item = table->item(row, column);
    if (!item) {
      table->setItem(row, column, new QTableWidgetItem(cells[column]));
    } else if (item->text() != cells[column]) {
      item->setText(cells[column]);
    }
  }
}

QLabel* valueLabel() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  label->setWordWrap(true);
  label->setProperty("spindleDynamicText", true);  // the job's own values
  return label;
}

}  // namespace

JobSummaryWidget::JobSummaryWidget(const QString& applicationId, const QString& historyPath, QWidget* parent)
    : QWidget(parent), applicationId_(applicationId), historyPath_(historyPath) {
  title_ = new QLabel(applicationId);
  QFont titleFont = title_->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  title_->setProperty("spindleDynamicText", true);
  state_ = valueLabel();
  queue_ = valueLabel();
  user_ = valueLabel();
  submitted_ = valueLabel();
  duration_ = valueLabel();
  tracking_ = valueLabel();
  tracking_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  tracking_->setOpenExternalLinks(true);
  diagnostics_ = valueLabel();

  auto* facts = new QGroupBox(tr("Job"));
  auto* form = new QFormLayout(facts);
  form->addRow(tr("State:"), state_);
  form->addRow(tr("Queue:"), queue_);
  form->addRow(tr("User:"), user_);
  form->addRow(tr("Submitted:"), submitted_);
  form->addRow(tr("Duration:"), duration_);
  form->addRow(tr("Tracking URL:"), tracking_);
  form->addRow(tr("Diagnostics:"), diagnostics_);

  attempts_ = readOnlyTable({tr("Task"), tr("Attempt"), tr("Phase"), tr("Exit code"), tr("Node"), tr("Address"),
                             tr("Started"), tr("Finished"), tr("Container")});
  attempts_->setAccessibleName(tr("Attempts"));
  events_ = readOnlyTable({tr("Time"), tr("Task"), tr("Event"), tr("Message")});
  events_->setAccessibleName(tr("Events"));
  auto* attemptsBox = new QGroupBox(tr("&Attempts"));
  auto* attemptsLayout = new QVBoxLayout(attemptsBox);
  attemptsLayout->addWidget(attempts_);
  auto* eventsBox = new QGroupBox(tr("&Events"));
  auto* eventsLayout = new QVBoxLayout(eventsBox);
  eventsLayout->addWidget(events_);
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(attemptsBox);
  splitter->addWidget(eventsBox);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(facts);
  layout->addWidget(splitter, 1);
  setFocusProxy(attempts_);

  connect(&timer_, &QTimer::timeout, this, &JobSummaryWidget::refresh);
  timer_.start(2000);
  refresh();
}

int JobSummaryWidget::attemptCount() const {
  return attempts_->rowCount();
}

int JobSummaryWidget::eventCount() const {
  return events_->rowCount();
}

QString JobSummaryWidget::stateText() const {
  return state_->text();
}

void JobSummaryWidget::refresh() {
  if (!store_) {
    auto opened = client::HistoryStore::open(historyPath_.isEmpty() ? client::HistoryStore::default_path()
                                                                    : std::filesystem::path(ss(historyPath_)));
    if (!opened) {
      state_->setText(tr("The history cannot be read: %1").arg(qs(opened.error().message)));
      return;
    }
    store_.emplace(std::move(*opened));
  }
  const std::string id = ss(applicationId_);
  auto job = store_->job(id);
  if (!job || !job->has_value()) {
    state_->setText(job ? tr("This machine's history has no job %1.").arg(applicationId_)
                        : tr("The history cannot be read: %1").arg(qs(job.error().message)));
    return;
  }
  const auto& entry = **job;
  title_->setText(entry.name.empty() ? applicationId_ : QStringLiteral("%1 — %2").arg(qs(entry.name), applicationId_));
  state_->setText(JobsModel::stateText(qs(entry.state)));
  queue_->setText(qs(entry.queue));
  user_->setText(qs(entry.user));
  submitted_->setText(formatTime(entry.submitted_ms));
  duration_->setText(formatDuration(entry.started_ms,
                                    entry.finished_ms > 0 ? entry.finished_ms : QDateTime::currentMSecsSinceEpoch()));
  const QString url = qs(entry.tracking_url);
  tracking_->setText(url.isEmpty() ? QString() : QStringLiteral("<a href=\"%1\">%1</a>").arg(url.toHtmlEscaped()));
  diagnostics_->setText(qs(entry.diagnostics));

  if (auto attempts = store_->attempts(id)) {
    attempts_->setRowCount(static_cast<int>(attempts->size()));
    int row = 0;
    for (const auto& attempt : *attempts) {
      setRow(
          attempts_, row++,
          {qs(attempt.task), QString::number(attempt.attempt), qs(attempt.phase),
           attempt.exit_code ? QString::number(*attempt.exit_code) : QString(), qs(attempt.node), qs(attempt.address),
           formatTime(attempt.started_ms), formatTime(attempt.finished_ms), qs(attempt.container)});
    }
  }
  if (auto events = store_->events(id)) {
    events_->setRowCount(static_cast<int>(events->size()));
    int row = 0;
    for (const auto& event : *events) {
      setRow(events_, row++,
             {formatTime(event.time_ms), event.task.empty() ? tr("job") : qs(event.task), qs(event.kind),
              qs(event.message)});
    }
  }
  if (entry.is_final()) timer_.stop();
}

}  // namespace spindle::gui
