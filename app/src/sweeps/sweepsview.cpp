#include "sweeps/sweepsview.h"

#include <QCheckBox>
#include <QDesktopServices>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <set>

#include "convert.h"
#include "jobview/scalarchartview.h"

namespace spindle::gui {
namespace {

QString number(double value) {
  return QString::number(value, 'g', 6);
}

QTableWidgetItem* cell(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  return item;
}

// A table whose rows are picked one at a time.
QTableWidget* rowTable(const QString& name) {
  auto* table = new QTableWidget;
  table->setObjectName(name);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->verticalHeader()->hide();
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

bool isLive(TrialState state) {
  return state == TrialState::submitted || state == TrialState::running;
}

}  // namespace

SweepsView::SweepsView(QWidget* parent) : QWidget(parent) {
  heading_ = new QLabel;
  heading_->setProperty("spindleDynamicText", true);
  sweeps_ = rowTable(QStringLiteral("sweeps"));
  sweeps_->setColumnCount(5);

  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setProperty("spindleDynamicText", true);
  trials_ = rowTable(QStringLiteral("trials"));
  chart_ = new ScalarChartView;

  compare_ = new QPushButton;
  stop_ = new QPushButton;
  killTrial_ = new QPushButton;
  killSweep_ = new QPushButton;
  mlflowRun_ = new QPushButton;
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(compare_);
  buttons->addWidget(mlflowRun_);
  buttons->addStretch(1);
  buttons->addWidget(stop_);
  buttons->addWidget(killTrial_);
  buttons->addWidget(killSweep_);

  auto* detail = new QWidget;
  auto* detailLayout = new QVBoxLayout(detail);
  detailLayout->setContentsMargins(0, 0, 0, 0);
  detailLayout->addWidget(summary_);
  detailLayout->addWidget(trials_, 2);
  detailLayout->addLayout(buttons);
  detailLayout->addWidget(chart_, 3);

  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(sweeps_);
  splitter->addWidget(detail);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 4);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(heading_);
  layout->addWidget(splitter, 1);

  timer_.setInterval(3000);
  connect(&timer_, &QTimer::timeout, this, &SweepsView::refresh);
  connect(&watcher_, &QFutureWatcher<Answer>::finished, this, [this] { showAnswer(watcher_.result()); });
  connect(sweeps_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = sweeps_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const auto id = sweeps_->item(rows.front().row(), 0)->text();
    if (id != shownId_) showSweep(id);
  });
  connect(trials_, &QTableWidget::itemSelectionChanged, this, [this] {
    const int trial = selectedTrial();
    bool live = false;
    if (trial >= 0) live = trials_->item(trials_->currentRow(), 0)->data(Qt::UserRole + 1).toBool();
    stop_->setEnabled(live);
    killTrial_->setEnabled(live);
  });
  connect(trials_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    const auto id = trials_->item(row, 0)->data(Qt::UserRole).toString();
    if (!id.isEmpty()) emit openJobRequested(id);
  });
  connect(compare_, &QPushButton::clicked, this, [this] { emit compareRequested(checkedTrials()); });
  connect(stop_, &QPushButton::clicked, this, [this] { endTrial(true); });
  connect(killTrial_, &QPushButton::clicked, this, [this] { endTrial(false); });
  connect(killSweep_, &QPushButton::clicked, this, &SweepsView::killSweep);
  connect(mlflowRun_, &QPushButton::clicked, this, [this] {
    if (!mlflowRunUrl_.isEmpty()) QDesktopServices::openUrl(QUrl(mlflowRunUrl_));
  });
  mlflowRun_->setVisible(false);
  compare_->setEnabled(false);
  stop_->setEnabled(false);
  killTrial_->setEnabled(false);
  killSweep_->setEnabled(false);
  retranslate();
}

SweepsView::~SweepsView() {
  watcher_.waitForFinished();
}

void SweepsView::setSetup(const HadoopSetup& setup) {
  setup_ = setup;
}

void SweepsView::showSweep(const QString& sweepId) {
  shownId_ = sweepId;
  checked_.clear();
  chart_->clear();
  refresh();
}

QStringList SweepsView::checkedTrials() const {
  return checked_;
}

int SweepsView::selectedTrial() const {
  const int row = trials_->currentRow();
  if (row < 0 || !trials_->item(row, 0) || trials_->selectionModel()->selectedRows().isEmpty()) return -1;
  return trials_->item(row, 0)->data(Qt::UserRole + 2).toInt();
}

void SweepsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
  timer_.start();
}

void SweepsView::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  timer_.stop();
}

void SweepsView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void SweepsView::retranslate() {
  sweeps_->setHorizontalHeaderLabels({tr("Sweep"), tr("Name"), tr("State"), tr("Trials ended"), tr("Best")});
  compare_->setText(tr("Compare ticked trials"));
  compare_->setToolTip(tr("Opens the comparison view for the trials ticked in the first column"));
  stop_->setText(tr("Stop trial"));
  stop_->setToolTip(tr("Ends the selected trial as stopped by the sweep; its checkpoints and scalars stay"));
  killTrial_->setText(tr("Kill trial"));
  killSweep_->setText(tr("Kill sweep"));
  killSweep_->setToolTip(tr("Stops the sweep's controller and every trial still running"));
  mlflowRun_->setText(tr("Open MLflow run"));
  mlflowRun_->setToolTip(tr("The sweep's run in MLflow's web UI, with a child run for each trial"));
  if (heading_->text().isEmpty()) heading_->setText(tr("Sweeps of this machine's history"));
}

void SweepsView::refresh() {
  if (watcher_.isRunning()) return;
  watcher_.setFuture(QtConcurrent::run([setup = setup_, shown = shownId_.toStdString()]() {
    Answer answer;
    auto service = setup.service();
    if (!service) {
      answer.problem = qs(service.error().message);
      return answer;
    }
    auto sweeps = (*service)->sweeps();
    if (!sweeps) {
      answer.problem = setup.explain(sweeps.error());
      return answer;
    }
    answer.sweeps = std::move(*sweeps);
    if (!shown.empty()) {
      auto detail = (*service)->sweep(shown);
      if (detail) {
        answer.shown = std::move(*detail);
      } else {
        answer.problem = setup.explain(detail.error());
      }
    }
    return answer;
  }));
}

void SweepsView::showAnswer(const Answer& answer) {
  if (!answer.problem.isEmpty()) heading_->setText(tr("The sweeps could not be read: %1").arg(answer.problem));
  fillSweeps(answer.sweeps);
  if (answer.shown) fillDetail(*answer.shown);
  emit refreshed(answer.problem.isEmpty());
}

void SweepsView::fillSweeps(const std::vector<client::SweepView>& sweeps) {
  if (sweeps.empty()) {
    heading_->setText(tr("No sweeps: none was submitted from here (spindle sweep submit starts one)"));
  } else {
    heading_->setText(tr("%n sweep(s)", nullptr, static_cast<int>(sweeps.size())));
  }
  const QSignalBlocker blocker(sweeps_);
  sweeps_->setRowCount(static_cast<int>(sweeps.size()));
  for (int row = 0; row < static_cast<int>(sweeps.size()); ++row) {
    const auto& record = sweeps[static_cast<std::size_t>(row)].record;
    int ended = 0;
    for (const auto& trial : record.trials) ended += is_final(trial.state);
    const auto* best = record.best_trial();
    sweeps_->setItem(row, 0, cell(qs(record.sweep_id)));
    sweeps_->setItem(row, 1, cell(qs(record.name)));
    sweeps_->setItem(row, 2, cell(qs(std::string(to_string(record.state)))));
    sweeps_->setItem(row, 3, cell(QStringLiteral("%1 / %2").arg(ended).arg(record.trials.size())));
    sweeps_->setItem(row, 4,
                     cell(best ? tr("trial %1: %2 %3")
                                     .arg(best->parameters.index)
                                     .arg(qs(record.metric().tag), number(best->best->value))
                               : QString()));
    if (qs(record.sweep_id) == shownId_) sweeps_->selectRow(row);
  }
  sweeps_->resizeColumnsToContents();
  if (shownId_.isEmpty() && !sweeps.empty()) showSweep(qs(sweeps.front().record.sweep_id));
}

void SweepsView::fillDetail(const client::SweepDetail& detail) {
  const auto& record = detail.view.record;
  if (qs(record.sweep_id) != shownId_) return;
  metric_ = qs(record.metric().tag);
  const bool maximize = record.metric().maximize;
  const auto* best = record.best_trial();
  QString text = tr("%1 (%2): %3. Metric: %4 (%5).")
                     .arg(qs(record.name), qs(record.sweep_id), qs(std::string(to_string(record.state))), metric_,
                          maximize ? tr("maximize") : tr("minimize"));
  if (best) {
    text += QLatin1Char(' ') + tr("Best: trial %1, %2 at step %3.")
                                   .arg(best->parameters.index)
                                   .arg(number(best->best->value))
                                   .arg(best->best->step);
  }
  if (!record.diagnostics.empty()) text += QLatin1Char(' ') + qs(record.diagnostics);
  if (!detail.view.note.empty()) text += QLatin1Char(' ') + qs(detail.view.note);
  if (!detail.series_problem.empty()) text += QLatin1Char(' ') + qs(detail.series_problem);
  summary_->setText(text);
  killSweep_->setEnabled(record.state == SweepState::running);
  mlflowRunUrl_ = qs(client::sweep_tracking_url(record));
  mlflowRun_->setVisible(!mlflowRunUrl_.isEmpty());

  std::vector<std::string> names;
  for (const auto& trial : record.trials) {
    for (const auto& [name, value] : trial.parameters.values) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  QStringList headers{tr("Trial")};
  for (const auto& name : names) headers << qs(name);
  headers << tr("State") << tr("Application") << tr("Best") << tr("At step") << tr("Why");
  const int selected = selectedTrial();
  const QSignalBlocker blocker(trials_);
  trials_->setColumnCount(headers.size());
  trials_->setHorizontalHeaderLabels(headers);
  trials_->setRowCount(static_cast<int>(record.trials.size()));
  for (int row = 0; row < static_cast<int>(record.trials.size()); ++row) {
    const auto& trial = record.trials[static_cast<std::size_t>(row)];
    const auto id = qs(trial.application_id);
    auto* first = new QTableWidgetItem(QString::number(trial.parameters.index));
    first->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled |
                    (id.isEmpty() ? Qt::NoItemFlags : Qt::ItemIsUserCheckable));
    if (!id.isEmpty()) first->setCheckState(checked_.contains(id) ? Qt::Checked : Qt::Unchecked);
    first->setData(Qt::UserRole, id);
    first->setData(Qt::UserRole + 1, isLive(trial.state));
    first->setData(Qt::UserRole + 2, trial.parameters.index);
    first->setToolTip(tr("Tick to compare; double-click to open the trial's job"));
    trials_->setItem(row, 0, first);
    int column = 1;
    for (const auto& name : names) {
      QString value;
      for (const auto& [key, text] : trial.parameters.values) {
        if (key == name) value = qs(text);
      }
      trials_->setItem(row, column++, cell(value));
    }
    trials_->setItem(row, column++, cell(qs(std::string(to_string(trial.state)))));
    trials_->setItem(row, column++, cell(id));
    trials_->setItem(row, column++, cell(trial.best ? number(trial.best->value) : QString()));
    trials_->setItem(row, column++, cell(trial.best ? QString::number(trial.best->step) : QString()));
    auto* why = cell(trial.state == TrialState::succeeded ? QString() : qs(trial.why));
    why->setToolTip(why->text());
    trials_->setItem(row, column++, why);
    if (trial.parameters.index == selected) trials_->selectRow(row);
  }
  trials_->resizeColumnsToContents();
  compare_->setEnabled(checked_.size() >= 2);
  disconnect(trials_, &QTableWidget::itemChanged, this, nullptr);
  connect(trials_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() != 0) return;
    const auto id = item->data(Qt::UserRole).toString();
    if (id.isEmpty()) return;
    if (item->checkState() == Qt::Checked && !checked_.contains(id)) checked_ << id;
    if (item->checkState() != Qt::Checked) checked_.removeAll(id);
    compare_->setEnabled(checked_.size() >= 2);
  });

  for (const auto& [trial, samples] : detail.series) {
    QVector<QPointF> points;
    points.reserve(static_cast<int>(samples.size()));
    for (const auto& sample : samples) points.append(QPointF(static_cast<double>(sample.step), sample.value));
    chart_->setPoints(metric_, tr("trial %1").arg(trial), std::move(points));
  }
  chart_->setCurrentKey(metric_);
}

void SweepsView::endTrial(bool stop) {
  const int trial = selectedTrial();
  if (trial < 0 || shownId_.isEmpty()) return;
  const auto question = stop ? tr("Stop trial %1? It ends as stopped by the sweep; its checkpoints and scalars stay.")
                             : tr("Kill trial %1? It ends as killed.");
  if (QMessageBox::question(this, stop ? tr("Stop trial") : tr("Kill trial"), question.arg(trial)) !=
      QMessageBox::Yes) {
    return;
  }
  act([&](client::JobService& service) { return service.end_trial(shownId_.toStdString(), trial, stop); });
}

void SweepsView::killSweep() {
  if (shownId_.isEmpty()) return;
  if (QMessageBox::question(this, tr("Kill sweep"),
                            tr("Kill %1? Its controller and every running trial stop.").arg(shownId_)) !=
      QMessageBox::Yes) {
    return;
  }
  act([&](client::JobService& service) { return service.kill_sweep(shownId_.toStdString()); });
}

void SweepsView::act(const std::function<Result<void>(client::JobService&)>& action) {
  auto service = setup_.service();
  auto done = service ? action(**service) : Result<void>(service.error());
  if (!done) {
    QMessageBox::warning(this, tr("Sweeps"), setup_.explain(done.error()));
    return;
  }
  refresh();
}

}  // namespace spindle::gui
