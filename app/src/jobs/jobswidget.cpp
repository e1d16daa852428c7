#include "jobs/jobswidget.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QVBoxLayout>

#include "jobs/jobsfilterproxy.h"
#include "jobs/jobsmodel.h"
#include "theme.h"

namespace spindle::gui {

JobsWidget::JobsWidget(JobsModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  proxy_ = new JobsFilterProxy(this);
  proxy_->setSourceModel(model_);

  search_ = new QLineEdit;
  search_->setPlaceholderText(tr("Search id, name, user or queue (Ctrl+F)"));
  search_->setClearButtonEnabled(true);
  auto* searchLabel = new QLabel(tr("&Search:"));
  searchLabel->setBuddy(search_);
  states_ = new QComboBox;
  states_->addItem(tr("All jobs"), static_cast<int>(JobsFilterProxy::States::all));
  states_->addItem(tr("Running and waiting"), static_cast<int>(JobsFilterProxy::States::active));
  states_->addItem(tr("Succeeded"), static_cast<int>(JobsFilterProxy::States::succeeded));
  states_->addItem(tr("Failed or killed"), static_cast<int>(JobsFilterProxy::States::failedOrKilled));
  auto* statesLabel = new QLabel(tr("S&how:"));
  statesLabel->setBuddy(states_);

  view_ = new QTableView;
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(JobsModel::SubmittedColumn, Qt::DescendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  view_->setTabKeyNavigation(false);
  view_->verticalHeader()->setVisible(false);
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->horizontalHeader()->setSectionResizeMode(JobsModel::IdColumn, QHeaderView::ResizeToContents);
  for (int column :
       {JobsModel::StateColumn, JobsModel::QueueColumn, JobsModel::UserColumn, JobsModel::SubmittedColumn}) {
    view_->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
  }
  view_->horizontalHeader()->resizeSection(JobsModel::NameColumn, 260);
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  view_->setAccessibleName(tr("Jobs"));

  // Enter and a double click activate a row (QAbstractItemView::activated).
  auto* open = new QAction(tr("&Open job"), view_);
  auto* copy = new QAction(tr("&Copy application ID"), view_);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  auto* compare = new QAction(tr("Compa&re selected jobs"), view_);
  view_->addAction(open);
  view_->addAction(copy);
  view_->addAction(compare);
  connect(compare, &QAction::triggered, this, &JobsWidget::compareSelected);
  connect(open, &QAction::triggered, this, &JobsWidget::openSelected);
  connect(copy, &QAction::triggered, this, &JobsWidget::copySelectedId);
  connect(view_, &QTableView::activated, this, &JobsWidget::openSelected);

  empty_ =
      new QLabel(tr("No jobs yet. Design one and submit it, or submit one with spindle submit: it shows up "
                    "here."));
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setWordWrap(true);
  summary_ = new QLabel;
  summary_->setObjectName(QStringLiteral("jobsSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  behind_ = new QLabel;
  behind_->setObjectName(QStringLiteral("jobsBehind"));
  behind_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  behind_->setWordWrap(true);
  behind_->setProperty("spindleDynamicText", true);  // the server's or the cluster's own sentence
  behind_->hide();

  auto* filters = new QHBoxLayout;
  filters->addWidget(searchLabel);
  filters->addWidget(search_, 1);
  filters->addSpacing(12);
  filters->addWidget(statesLabel);
  filters->addWidget(states_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(filters);
  layout->addWidget(view_, 1);
  layout->addWidget(empty_, 1);
  layout->addWidget(behind_);
  layout->addWidget(summary_);

  connect(search_, &QLineEdit::textChanged, model_, &JobsModel::setSearch);
  connect(states_, qOverload<int>(&QComboBox::currentIndexChanged), this, &JobsWidget::applyStateFilter);
  connect(model_, &JobsModel::refreshed, this, &JobsWidget::updateSummary);
  connect(model_, &JobsModel::problemChanged, this, &JobsWidget::updateSummary);
  connect(proxy_, &QAbstractItemModel::rowsInserted, this, &JobsWidget::updateSummary);
  connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &JobsWidget::updateSummary);
  connect(proxy_, &QAbstractItemModel::modelReset, this, &JobsWidget::updateSummary);
  setFocusProxy(view_);
  updateSummary();
}

void JobsWidget::applyStateFilter() {
  const auto states = static_cast<JobsFilterProxy::States>(states_->currentData().toInt());
  // Active jobs are a question the history answers; the rest are filtered here.
  model_->setIncludeFinished(states != JobsFilterProxy::States::active);
  proxy_->setStates(states);
  updateSummary();
}

void JobsWidget::updateSummary() {
  const int shown = proxy_->rowCount();
  int running = 0;
  for (int row = 0; row < model_->rowCount(); ++row) {
    if (!model_->entry(row)->is_final()) ++running;
  }
  const bool filtering = !search_->text().isEmpty() || states_->currentIndex() != 0;
  // Decided here, not read back: isVisible() is false for every child until the window is shown.
  const bool none = model_->rowCount() == 0 && !filtering && model_->problem().isEmpty();
  empty_->setVisible(none);
  view_->setVisible(!none);
  if (!model_->problem().isEmpty()) {
    summary_->setText(tr("The history cannot be read: %1").arg(model_->problem()));
    return;
  }
  summary_->setText(tr("%n job(s) shown", nullptr, shown) + QStringLiteral(" · ") +
                    tr("%n not finished", nullptr, running) + QStringLiteral(" · ") +
                    tr("history: %1").arg(QDir::toNativeSeparators(model_->historyPath())));
}

void JobsWidget::setUpdateProblem(const QString& problem) {
  behind_->setText(problem.isEmpty() ? QString() : tr("Not brought up to date: %1").arg(problem));
  behind_->setVisible(!problem.isEmpty());
  colourProblem();
}

void JobsWidget::colourProblem() {
  QPalette palette = behind_->palette();
  palette.setColor(QPalette::WindowText, problemColor());
  behind_->setPalette(palette);
}

void JobsWidget::changeEvent(QEvent* event) {
  // The problem's colour follows a switch between the light and the dark palette.
  if (event->type() == QEvent::PaletteChange) colourProblem();
  QWidget::changeEvent(event);
}

QString JobsWidget::selectedApplicationId() const {
  const QModelIndex current = view_->currentIndex();
  if (!current.isValid()) return {};
  return current.data(JobsModel::ApplicationIdRole).toString();
}

void JobsWidget::selectApplication(const QString& applicationId) {
  const int row = model_->rowOf(applicationId);
  if (row < 0) return;
  const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
  if (index.isValid()) view_->setCurrentIndex(index);
}

void JobsWidget::focusSearch() {
  search_->setFocus(Qt::ShortcutFocusReason);
  search_->selectAll();
}

void JobsWidget::copySelectedId() {
  const QString id = selectedApplicationId();
  if (id.isEmpty()) return;
  QApplication::clipboard()->setText(id);
  emit statusMessage(tr("Copied %1").arg(id));
}

QStringList JobsWidget::selectedApplicationIds() const {
  QStringList ids;
  for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
    ids << index.data(JobsModel::ApplicationIdRole).toString();
  }
  return ids;
}

void JobsWidget::compareSelected() {
  const QStringList ids = selectedApplicationIds();
  if (ids.size() < 2) {
    emit statusMessage(tr("Select two jobs or more to compare them (Ctrl or Shift and a click)."));
    return;
  }
  emit compareRequested(ids);
}

void JobsWidget::openSelected() {
  const QString id = selectedApplicationId();
  if (!id.isEmpty()) emit openJobRequested(id);
}

}  // namespace spindle::gui
