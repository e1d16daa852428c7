#include "jobview/jobview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include "convert.h"
#include "designer/jobdesignerwidget.h"
#include "designer/yamlhighlighter.h"
#include "jobs/jobsmodel.h"
#include "jobview/containertablemodel.h"
#include "jobview/logviewer.h"
#include "jobview/scalarchartview.h"
#include "jobview/scalarfeed.h"
#include "jobview/tensorboardproxy.h"
#include "jobview/usagechartview.h"
#include "mainwindow.h"
#include "spindle/client/history_store.h"
#include "spindle/core/clock.h"
#include "spindle/core/job_state.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/token_expiry.h"
#include "submit/submitdialog.h"

namespace spindle::gui {
namespace {

QLabel* dynamicLabel() {
  auto* label = new QLabel;
  label->setProperty("spindleDynamicText", true);  // the job's own values
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

bool finalState(const QString& state) {
  return is_final_state(state.toStdString());
}

// Colours of the job's state in the header, as the container table has them.
QString phaseOfJob(const QString& state) {
  if (state == QLatin1String("killed")) return QStringLiteral("stopped");
  if (state == QLatin1String("accepted") || state == QLatin1String("submitted")) return QStringLiteral("requested");
  return state;
}

}  // namespace

JobView::JobView(const QString& applicationId, JobViewOptions options, QWidget* parent)
    : QWidget(parent), applicationId_(applicationId), options_(std::move(options)), service_(options_.setup.service()) {
  setProperty("applicationId", applicationId);
  title_ = dynamicLabel();
  QFont titleFont = title_->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  title_->setText(applicationId);
  idLabel_ = dynamicLabel();
  idLabel_->setText(applicationId);
  idLabel_->hide();  // until the job's name is known, the title is its id
  stateLabel_ = dynamicLabel();
  stateLabel_->setMargin(3);
  stateLabel_->setAutoFillBackground(true);
  diagnostics_ = dynamicLabel();
  diagnostics_->setWordWrap(true);
  attention_ = dynamicLabel();
  attention_->setWordWrap(true);
  attention_->setObjectName(QStringLiteral("attention"));
  attention_->hide();
  problem_ = dynamicLabel();
  problem_->setWordWrap(true);
  problem_->hide();

  toolBar_ = new QToolBar;
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolBar_->setIconSize(QSize(16, 16));
  createActions();

  model_ = new ContainerTableModel(this);
  table_ = new QTableView;
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->setTabKeyNavigation(false);
  table_->verticalHeader()->hide();
  // Fixed row heights and column widths: nothing is measured again when a
  // thousand rows change.
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(true);
  const int em = table_->fontMetrics().horizontalAdvance(QLatin1Char('M'));
  const int widths[] = {12, 9, 16, 5, 6, 6};
  for (int column = 0; column < 6; ++column) table_->setColumnWidth(column, widths[column] * em);

  logs_ = new LogViewer;
  scalars_ = new ScalarChartView;
  usage_ = new UsageChartView;
  tensorBoardStack_ = new QStackedWidget;
  tensorBoardNote_ = new QLabel;
  tensorBoardNote_->setAlignment(Qt::AlignCenter);
  tensorBoardNote_->setWordWrap(true);
  tensorBoardNote_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  tensorBoardNote_->setOpenExternalLinks(true);
  tensorBoardNote_->setText(
      tr("TensorBoard is shown here, through Spindle's local proxy, while the job's "
         "tensorboard task runs."));
  tensorBoardStack_->addWidget(tensorBoardNote_);

  tabs_ = new QTabWidget;
  tabs_->setDocumentMode(true);
  tabs_->addTab(table_, tr("Containers"));
  tabs_->addTab(logs_, tr("Logs"));
  tabs_->addTab(scalars_, tr("Metrics"));
  tabs_->addTab(usage_, tr("Resources"));
  tabs_->addTab(tensorBoardStack_, tr("TensorBoard"));
  tabs_->setTabToolTip(ContainersPage, tr("Every task's container, live"));
  tabs_->setTabToolTip(LogsPage, tr("A task's stdout and stderr"));
  tabs_->setTabToolTip(MetricsPage, tr("Training scalars from the job's TensorFlow event files"));
  tabs_->setTabToolTip(ResourcesPage, tr("Memory and CPU of the containers over time"));
  tabs_->setTabToolTip(TensorBoardPage, tr("The job's TensorBoard"));

  auto* header = new QHBoxLayout;
  header->addWidget(title_);
  header->addWidget(idLabel_);
  header->addWidget(stateLabel_);
  header->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(header);
  layout->addWidget(diagnostics_);
  layout->addWidget(attention_);
  layout->addWidget(toolBar_);
  layout->addWidget(problem_);
  layout->addWidget(tabs_, 1);

  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (index.column() == ContainerTableModel::LogColumn && !index.data().toString().isEmpty()) {
      showLogsOf(index.data(ContainerTableModel::TaskRole).toString());
    }
  });
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { showLogsOf(index.data(ContainerTableModel::TaskRole).toString()); });
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
    if (index == TensorBoardPage) showTensorBoard();
  });

  feed_ = new ScalarFeed(this);
  connect(feed_, &ScalarFeed::pointsArrived, this, [this](const ScalarBatch& batch) {
    scalars_->addPoints(batch.points);
    if (!batch.problems.isEmpty()) scalars_->setToolTip(batch.problems.join(QLatin1Char('\n')));
  });
  scalarTimer_.setInterval(options_.scalarIntervalMs);
  connect(&scalarTimer_, &QTimer::timeout, feed_, &ScalarFeed::poll);

  logs_->setSetup(options_.setup, applicationId);
  if (options_.monitor) {
    monitor_ = new JobMonitor(applicationId, options_.setup, options_.historyPath, this);
    connect(monitor_, &JobMonitor::recordLoaded, this, &JobView::applyRecord);
    connect(monitor_, &JobMonitor::snapshot, this, &JobView::applySnapshot);
    connect(monitor_, &JobMonitor::killFinished, this, [this](bool killed, const QString& message) {
      kill_->setEnabled(!ended_);
      if (killed) {
        emit statusMessage(tr("%1 was killed.").arg(applicationId_));
      } else {
        showProblem(tr("The job could not be killed: %1").arg(message));
      }
    });
    monitor_->start(options_.pollIntervalMs);
  }
  updateActions();
  setState({}, {});
}

JobView::~JobView() = default;

void JobView::createActions() {
  kill_ = toolBar_->addAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("&Kill…"), this, &JobView::killJob);
  kill_->setToolTip(tr("Kill the job: every container of it stops"));
  resubmit_ =
      toolBar_->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Resubmit…"), this, &JobView::resubmit);
  resubmit_->setToolTip(tr("Submit the same spec again as a new job"));
  openSpec_ = toolBar_->addAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView), tr("Open &spec"), this,
                                  &JobView::openSpec);
  openSpec_->setToolTip(tr("Show the job's spec as it was submitted"));
  copyId_ = toolBar_->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Copy application ID"), this,
                                &JobView::copyApplicationId);
  copyId_->setToolTip(tr("Copy %1 to the clipboard").arg(applicationId_));
  yarnUi_ = toolBar_->addAction(style()->standardIcon(QStyle::SP_DirLinkIcon), tr("Open &YARN UI"), this,
                                &JobView::openYarnUi);
  yarnUi_->setToolTip(tr("Open the job's page in the web browser (its tracking URL)"));
  mlflowRun_ =
      toolBar_->addAction(style()->standardIcon(QStyle::SP_FileDialogInfoView), tr("Open &MLflow run"), this, [this] {
        if (!mlflowRunUrl_.isEmpty()) QDesktopServices::openUrl(QUrl(mlflowRunUrl_));
      });
  mlflowRun_->setToolTip(tr("Open the job's run in MLflow's web UI"));
}

QString JobView::stateText() const {
  return state_.isEmpty() ? tr("Unknown") : JobsModel::stateText(state_);
}

void JobView::setState(const QString& state, const QString& diagnostics) {
  const bool changed = state != state_;
  state_ = state;
  stateLabel_->setText(stateText());
  const auto colours = phaseColors(phaseOfJob(state), palette().color(QPalette::Window).lightness() <
                                                          palette().color(QPalette::WindowText).lightness());
  QPalette labelPalette = stateLabel_->palette();
  labelPalette.setColor(QPalette::WindowText,
                        colours.foreground.isValid() ? colours.foreground : palette().color(QPalette::WindowText));
  labelPalette.setColor(QPalette::Window,
                        colours.background.isValid() ? colours.background : palette().color(QPalette::Window));
  stateLabel_->setPalette(labelPalette);
  diagnostics_->setText(diagnostics);
  diagnostics_->setVisible(!diagnostics.isEmpty());
  if (finalState(state)) ended_ = true;
  updateActions();
  if (changed) emit stateChanged(state);
}

void JobView::updateActions() {
  kill_->setEnabled(!ended_ && !(monitor_ && monitor_->isKilling()) && options_.monitor);
  resubmit_->setEnabled(!specYaml_.isEmpty());
  openSpec_->setEnabled(!specYaml_.isEmpty());
  // Through a Spindle server the tracking URL is on the cluster's network, which this machine does not reach.
  yarnUi_->setEnabled(!trackingUrl_.isEmpty() && (!service_ || (*service_)->reaches_cluster_network()));
  // Only jobs recorded in MLflow have a run to open.
  mlflowRun_->setVisible(!mlflowRunUrl_.isEmpty());
}

void JobView::showProblem(const QString& problem) {
  problem_->setText(problem);
  problem_->setVisible(!problem.isEmpty());
}

void JobView::applyRecord(const JobRecordSnapshot& record) {
  if (!record.problem.isEmpty()) showProblem(record.problem);
  if (!record.found) return;
  const auto& entry = record.entry;
  name_ = qs(entry.name);
  if (!name_.isEmpty()) {
    title_->setText(name_);
    idLabel_->show();
  }
  specYaml_ = qs(entry.spec_yaml);
  if (!entry.tracking_url.empty()) trackingUrl_ = qs(entry.tracking_url);
  if (!record.mlflowRunUrl.isEmpty()) mlflowRunUrl_ = record.mlflowRunUrl;
  hasTensorBoardTask_ = entry.has_task_type("tensorboard").value_or(false);
  if (state_.isEmpty() || !finalState(state_)) setState(qs(entry.state), qs(entry.diagnostics));
  if (record.status && model_->rowCount() == 0) applyStatus(*record.status, 0);
  usage_->addHistory(record.containerUse);
  outputDirectory_ = qs(entry.output_location());
  // The service reads the scalars where it can: from the output location here, or on a Spindle server.
  if (service_ || !outputDirectory_.isEmpty()) {
    feed_->setJob(applicationId_, outputDirectory_, service_);
    feed_->poll();
    if (!ended_) scalarTimer_.start();
  }
  updateActions();
}

void JobView::applySnapshot(const JobSnapshot& snapshot) {
  if (snapshot.reported) {
    showProblem({});
    if (!snapshot.trackingUrl.isEmpty()) trackingUrl_ = snapshot.trackingUrl;
    if (!snapshot.mlflowRunUrl.isEmpty()) mlflowRunUrl_ = snapshot.mlflowRunUrl;
    if (!snapshot.mlflowNote.isEmpty()) emit statusMessage(snapshot.mlflowNote);
    setState(qs(std::string(to_string(job_state_of_yarn(ss(snapshot.yarnState), ss(snapshot.finalStatus))))),
             snapshot.diagnostics);
  } else if (!snapshot.problem.isEmpty()) {
    showProblem(snapshot.problem);
  }
  if (snapshot.status) {
    applyStatus(*snapshot.status, snapshot.takenMs);
  }
  if (snapshot.finished) {
    // The last points the writers left, then no more polling.
    scalarTimer_.stop();
    feed_->poll();
  }
  updateActions();
}

void JobView::applyStatus(const JobStatus& status, qint64 takenMs) {
  model_->setStatus(status);
  logs_->setTasks(status);
  if (takenMs > 0) usage_->addStatus(status, takenMs);
  if (name_.isEmpty() && !status.name.empty()) {
    name_ = qs(status.name);
    title_->setText(name_);
    idLabel_->show();
  }
  QStringList attention;
  if (!status.waiting_for.empty()) attention << tr("The job %1.").arg(qs(status.waiting_for));
  if (status.state == "running") {
    const auto tokens = tokens_end_notice(status.tokens_end_ms, status.tokens_end_kind, wall_clock_ms());
    if (!tokens.empty()) attention << qs(tokens) + QLatin1Char('.');
  }
  QSet<QString> stalledNow;
  for (const auto& task : status.tasks) {
    if (task.task.starts_with("tensorboard:")) hasTensorBoardTask_ = true;
    if (task.stalled.empty()) continue;
    const QString name = qs(task.task);
    const QString sentence = name + QLatin1Char(' ') + qs(task.stalled);
    attention << sentence;
    stalledNow.insert(name);
    if (!stalled_.contains(name))
      emit taskStalled(JobEndNotice{applicationId_, name_, QStringLiteral("stalled"), sentence});
  }
  stalled_ = stalledNow;
  // In the stall's warning colour, so that it stands apart from the diagnostics above it.
  const bool dark = palette().color(QPalette::Window).lightness() < palette().color(QPalette::WindowText).lightness();
  QPalette attentionPalette = attention_->palette();
  attentionPalette.setColor(QPalette::WindowText, phaseColors(QStringLiteral("stalled"), dark).foreground);
  attention_->setPalette(attentionPalette);
  attention_->setText(attention.join(QLatin1Char('\n')));
  attention_->setVisible(!attention.isEmpty() && !ended_);
}

void JobView::showLogsOf(const QString& task) {
  if (task.isEmpty()) return;
  logs_->selectTask(task);
  tabs_->setCurrentIndex(LogsPage);
  logs_->refresh();
}

void JobView::killJob() {
  if (!monitor_ || ended_) return;
  const auto answer = QMessageBox::question(
      this, tr("Kill job"),
      tr("Kill %1 (%2)? Every container of it stops, and the job ends as killed.").arg(name_, applicationId_),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
  if (answer == QMessageBox::Yes) killWithoutAsking();
}

void JobView::killWithoutAsking() {
  if (!monitor_) return;
  kill_->setEnabled(false);
  emit statusMessage(tr("Killing %1…").arg(applicationId_));
  monitor_->kill();
}

std::optional<JobSpec> JobView::specForResubmit(QString* error) const {
  if (specYaml_.isEmpty()) {
    if (error) *error = tr("The history keeps no spec of this job.");
    return std::nullopt;
  }
  SpecParseOptions options;
  options.source_name = applicationId_.toStdString() + " spec";
  auto spec = parse_job_spec(ss(specYaml_), options);
  if (!spec) {
    if (error) {
      QStringList lines;
      for (const auto& diagnostic : spec.error()) lines << qs(diagnostic.to_string());
      *error = lines.join(QLatin1Char('\n'));
    }
    return std::nullopt;
  }
  return std::move(*spec);
}

void JobView::resubmit() {
  QString error;
  const auto spec = specForResubmit(&error);
  if (!spec) {
    QMessageBox::warning(this, tr("Resubmit"), tr("The job cannot be submitted again as it was:\n%1").arg(error));
    return;
  }
  auto* dialog = new SubmitDialog(*spec, options_.setup, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &SubmitDialog::openJobRequested, this, &JobView::openJobRequested);
  dialog->show();
  dialog->start();
}

QDialog* JobView::specDialog() const {
  return specDialog_;
}

void JobView::openSpec() {
  if (specYaml_.isEmpty()) return;
  if (specDialog_) {
    specDialog_->raise();
    specDialog_->activateWindow();
    return;
  }
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Spec of %1").arg(name_.isEmpty() ? applicationId_ : name_));
  auto* text = new QPlainTextEdit(specYaml_);
  text->setReadOnly(true);
  text->setLineWrapMode(QPlainTextEdit::NoWrap);
  text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  new YamlHighlighter(text->document());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QPushButton* designer = buttons->addButton(tr("Open in &designer"), QDialogButtonBox::ActionRole);
  connect(designer, &QPushButton::clicked, this, [this, dialog] {
    emit openSpecInDesignerRequested(specYaml_);
    dialog->close();
  });
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  dialog->resize(640, 560);
  dialog->show();
  specDialog_ = dialog;
}

void JobView::copyApplicationId() {
  QGuiApplication::clipboard()->setText(applicationId_);
  emit statusMessage(tr("Copied %1").arg(applicationId_));
}

void JobView::openYarnUi() {
  if (trackingUrl_.isEmpty()) return;
  QUrl url = QUrl::fromUserInput(trackingUrl_);
  QDesktopServices::openUrl(url);
}

void JobView::showTensorBoard() {
  if (tensorBoard_ || !tensorBoardUrl_.isEmpty()) return;
  QString error;
  if (options_.tensorBoardUrl) {
    tensorBoardUrl_ = options_.tensorBoardUrl(applicationId_, &error);
  } else if (!service_) {
    error = qs(service_.error().message);
  } else if (auto served = (*service_)->served_tensorboard_url(ss(applicationId_))) {
    // A Spindle server's own proxy serves it, behind the same token.
    tensorBoardUrl_ = QUrl(qs(*served));
  } else {
    tensorBoardUrl_ = TensorBoardProxy::shared().url(applicationId_, &error);
  }
  if (tensorBoardUrl_.isEmpty()) {
    tensorBoardNote_->setText(tr("TensorBoard cannot be shown: %1").arg(error));
    return;
  }
  if (options_.tensorBoardTab) {
    tensorBoard_ = options_.tensorBoardTab(tensorBoardUrl_);
  }
  if (tensorBoard_) {
    tensorBoardStack_->addWidget(tensorBoard_);
    tensorBoardStack_->setCurrentWidget(tensorBoard_);
    QMetaObject::invokeMethod(tensorBoard_, "load");
    return;
  }
  // Without a web view: the address, for the browser.
  tensorBoardNote_->setText(tr("TensorBoard of this job is served at <a href=\"%1\">%1</a>.")
                                .arg(tensorBoardUrl_.toString().toHtmlEscaped()));
}

void JobView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    model_->paletteChanged();
    setState(state_, diagnostics_->text());
  }
}

void JobView::install(MainWindow& window, const QString& historyPath, TensorBoardTabFactory tensorBoardTab) {
  MainWindow* target = &window;
  TensorBoardProxy::shared().setSetup(window.setup());
  window.setJobViewFactory([target, historyPath, tensorBoardTab](const QString& applicationId) -> QWidget* {
    JobViewOptions options;
    options.historyPath = historyPath;
    options.setup = target->setup();
    options.tensorBoardTab = tensorBoardTab;
    auto* view = new JobView(applicationId, options);
    connect(view, &JobView::openJobRequested, target, &MainWindow::openJob);
    connect(view, &JobView::statusMessage, target,
            [target](const QString& message) { target->showStatus(message, 5000); });
    connect(view, &JobView::taskStalled, target, &MainWindow::notifyJobEnd);
    connect(view, &JobView::openSpecInDesignerRequested, target, [target](const QString& yaml) {
      SpecParseOptions parse;
      parse.check_files = false;
      auto spec = parse_job_spec(ss(yaml), parse);
      if (!spec) return;
      if (!target->designer()->maybeDiscardChanges()) return;
      target->designer()->loadSpec(*spec);
      target->showDesigner();
    });
    return view;
  });
}

}  // namespace spindle::gui
