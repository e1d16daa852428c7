#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabBar>
#include <QTabWidget>

#include "appsettings.h"
#include "cluster/clusterinfoloader.h"
#include "cluster/clusterview.h"
#include "compare/compareview.h"
#include "convert.h"
#include "designer/jobdesignerwidget.h"
#include "jobs/jobpoller.h"
#include "jobs/jobsmodel.h"
#include "jobs/jobsummarywidget.h"
#include "jobs/jobswidget.h"
#include "notify/desktopnotifications.h"
#include "notify/jobendwatcher.h"
#include "settings/settingsdialog.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "statusmessage.h"
#include "submit/submitdialog.h"
#include "sweeps/sweepsview.h"
#include "theme.h"

namespace spindle::gui {

MainWindow::MainWindow(const QString& historyPath, QWidget* parent)
    : QMainWindow(parent), historyPath_(historyPath), setup_(HadoopSetup::fromSettings()) {
  jobsModel_ = new JobsModel(historyPath, this);
  jobs_ = new JobsWidget(jobsModel_);
  poller_ = new JobPoller(jobsModel_, this);
  connect(poller_, &JobPoller::problemChanged, jobs_, &JobsWidget::setUpdateProblem);
  designer_ = new JobDesignerWidget;
  designer_->setHadoopSetup(setup_);
  clusterLoader_ = new ClusterInfoLoader(this);

  tabs_ = new QTabWidget;
  tabs_->setDocumentMode(true);
  tabs_->setTabsClosable(true);
  tabs_->setMovable(false);
  tabs_->addTab(jobs_, tr("Jobs"));
  tabs_->addTab(designer_, tr("Designer"));
  clusterView_ = new ClusterView;
  clusterView_->setSetup(setup_);
  tabs_->addTab(clusterView_, tr("Cluster"));
  sweepsView_ = new SweepsView;
  sweepsView_->setSetup(setup_);
  tabs_->addTab(sweepsView_, tr("Sweeps"));
  connect(sweepsView_, &SweepsView::compareRequested, this, &MainWindow::compareJobs);
  connect(sweepsView_, &SweepsView::openJobRequested, this, &MainWindow::openJob);
  for (int index = 0; index < fixedTabs; ++index) tabs_->tabBar()->setTabButton(index, QTabBar::RightSide, nullptr);
  setCentralWidget(tabs_);

  clusterStatus_ = new QLabel;
  // Shows what the cluster says (its addresses, core's sentences), not translatable text.
  clusterStatus_->setProperty("spindleDynamicText", true);
  specStatus_ = new QLabel;
  statusMessage_ = new StatusMessage;
  statusBar()->addWidget(statusMessage_, 1);
  statusBar()->addPermanentWidget(specStatus_);
  statusBar()->addPermanentWidget(clusterStatus_);

  createActions();

  connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeJobTab);
  connect(jobs_, &JobsWidget::openJobRequested, this, &MainWindow::openJob);
  connect(jobs_, &JobsWidget::compareRequested, this, &MainWindow::compareJobs);

  jobEnds_ = new JobEndWatcher(jobsModel_, qs(yarn::hadoop_user_name()), this);
  notifications_ = new DesktopNotifications(this);
  connect(jobEnds_, &JobEndWatcher::jobEnded, this, &MainWindow::notifyJobEnd);
  connect(notifications_, &DesktopNotifications::openJobRequested, this, [this](const QString& id) {
    showNormal();
    raise();
    activateWindow();
    openJob(id);
  });
  if (QSystemTrayIcon::isSystemTrayAvailable()) {
    tray_ = new QSystemTrayIcon(QApplication::windowIcon(), this);
    auto* menu = new QMenu(this);
    menu->addAction(tr("&Show Spindle"), this, [this] {
      showNormal();
      raise();
      activateWindow();
    });
    menu->addAction(tr("&Quit"), this, &MainWindow::quit);
    tray_->setContextMenu(menu);
    connect(tray_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
      if (reason == QSystemTrayIcon::Trigger) isVisible() ? hide() : showNormal();
    });
    tray_->show();
  }
  connect(jobEnds_, &JobEndWatcher::runningJobsChanged, this, [this](int running) {
    const QString text = tr("Spindle: %n job(s) running", nullptr, running);
    if (tray_) tray_->setToolTip(text);
  });
  connect(jobs_, &JobsWidget::statusMessage, this, [this](const QString& text) { showStatus(text, 4000); });
  connect(designer_, &JobDesignerWidget::statusMessage, this, [this](const QString& text) { showStatus(text, 4000); });
  connect(designer_, &JobDesignerWidget::modifiedChanged, this, &MainWindow::updateTitle);
  connect(designer_, &JobDesignerWidget::clusterRefreshRequested, this, [this] { clusterLoader_->load(setup_); });
  connect(designer_, &JobDesignerWidget::filePathChanged, this, &MainWindow::updateTitle);
  connect(designer_, &JobDesignerWidget::validityChanged, this, [this](bool valid, int problems) {
    specStatus_->setText(valid ? tr("Spec valid") : tr("Spec: %n problem(s)", nullptr, problems));
  });
  connect(clusterLoader_, &ClusterInfoLoader::loaded, this, [this](const ClusterInfo& info) {
    designer_->setClusterInfo(info);
    if (!info.user.isEmpty()) jobEnds_->setUser(info.user);
    clusterStatus_->setText(
        tr("Cluster %1: %n queue(s)", nullptr, static_cast<int>(info.queues.size())).arg(info.resourceManager) +
        QStringLiteral(", ") + tr("%n node label(s)", nullptr, static_cast<int>(info.nodeLabels.size())));
    clusterStatus_->setToolTip(tr("Largest container: %1 MiB, %2 vcores, %3 GPUs")
                                   .arg(info.maxMemoryMib)
                                   .arg(info.maxVcores)
                                   .arg(info.maxGpus));
    showStatus(tr("Connected to %1").arg(info.resourceManager), 4000);
  });
  connect(clusterLoader_, &ClusterInfoLoader::failed, this, [this](const QString& message) {
    clusterStatus_->setText(tr("No cluster"));
    clusterStatus_->setToolTip(message);
    showStatus(message, 10000);
  });

  designer_->validateNow();
  updateTitle();
  resize(1280, 820);
  if (!AppSettings::windowGeometry().isEmpty()) restoreGeometry(AppSettings::windowGeometry());
  poller_->setSetup(setup_);
  reloadCluster();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* newSpec = file->addAction(tr("&New job spec"), this, [this] {
    if (designer_->maybeDiscardChanges()) {
      designer_->newSpec();
      showDesigner();
    }
  });
  newSpec->setShortcut(QKeySequence::New);
  QAction* open = file->addAction(tr("&Open job spec…"), this, [this] {
    showDesigner();
    designer_->open();
  });
  open->setShortcut(QKeySequence::Open);
  QAction* save = file->addAction(tr("&Save"), designer_, &JobDesignerWidget::save);
  save->setShortcut(QKeySequence::Save);
  QAction* saveAs = file->addAction(tr("Save &as…"), designer_, &JobDesignerWidget::saveAs);
  saveAs->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
  file->addSeparator();
  QAction* settings = file->addAction(tr("Se&ttings…"), this, &MainWindow::openSettings);
  settings->setShortcut(QKeySequence(QStringLiteral("Ctrl+,")));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &MainWindow::quit);
  quit->setShortcut(QKeySequence(QStringLiteral("Ctrl+Q")));

  QMenu* job = menuBar()->addMenu(tr("&Job"));
  QAction* submit = job->addAction(tr("&Submit"), this, &MainWindow::submitDesignedJob);
  submit->setShortcut(QKeySequence(QStringLiteral("Ctrl+Return")));
  submit->setToolTip(tr("Submit the job of the designer to the cluster"));
  QAction* openSelected = job->addAction(tr("&Open selected job"), jobs_, &JobsWidget::openSelected);
  openSelected->setShortcut(QKeySequence(QStringLiteral("Ctrl+J")));
  QAction* copyId = job->addAction(tr("&Copy application ID"), jobs_, &JobsWidget::copySelectedId);
  copyId->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
  QAction* compare = job->addAction(tr("Compa&re selected jobs"), jobs_, &JobsWidget::compareSelected);
  compare->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
  compare->setToolTip(tr("One chart per training scalar with a series per job, and the spec keys that differ"));
  QAction* closeTab = job->addAction(tr("C&lose job tab"), this, [this] { closeJobTab(tabs_->currentIndex()); });
  closeTab->setShortcut(QKeySequence(QStringLiteral("Ctrl+W")));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* showJobsAction = view->addAction(tr("&Jobs"), this, &MainWindow::showJobs);
  showJobsAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+1")));
  QAction* showDesignerAction = view->addAction(tr("&Designer"), this, &MainWindow::showDesigner);
  showDesignerAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+2")));
  QAction* showClusterAction = view->addAction(tr("C&luster"), this, &MainWindow::showCluster);
  showClusterAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+3")));
  QAction* showSweepsAction = view->addAction(tr("&Sweeps"), this, &MainWindow::showSweeps);
  showSweepsAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+4")));
  QAction* find = view->addAction(tr("&Find job"), this, [this] {
    showJobs();
    jobs_->focusSearch();
  });
  find->setShortcut(QKeySequence::Find);
  QAction* refresh = view->addAction(tr("&Refresh jobs"), jobsModel_, &JobsModel::refresh);
  refresh->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
  view->addSeparator();
  darkAction_ = view->addAction(tr("Dar&k palette"));
  darkAction_->setCheckable(true);
  darkAction_->setChecked(isDarkPalette());
  darkAction_->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+D")));
  connect(darkAction_, &QAction::toggled, this, &MainWindow::setDarkPalette);

  QMenu* cluster = menuBar()->addMenu(tr("&Cluster"));
  QAction* reload = cluster->addAction(tr("&Reload cluster information"), this, &MainWindow::reloadCluster);
  reload->setShortcut(QKeySequence(Qt::Key_F5));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Spindle"), this, [this] {
    QMessageBox::about(this, tr("About Spindle"),
                       tr("<b>Spindle %1</b><p>Distributed TensorFlow, PyTorch or any command on Hadoop YARN: "
                          "design a job, submit it, and follow it.</p>")
                           .arg(QStringLiteral(SPINDLE_VERSION)));
  });
  // Every action also works while the window's menus are closed.
  for (QMenu* menu : {file, job, view, cluster, help}) addActions(menu->actions());
}

const ClusterInfo& MainWindow::clusterInfo() const {
  return clusterLoader_->info();
}

void MainWindow::setSetup(const HadoopSetup& setup) {
  setup_ = setup;
  poller_->setSetup(setup);
  designer_->setHadoopSetup(setup);
  clusterView_->setSetup(setup);
  sweepsView_->setSetup(setup);
  reloadCluster();
}

void MainWindow::setJobViewFactory(JobViewFactory factory) {
  jobViewFactory_ = std::move(factory);
}

QWidget* MainWindow::jobTab(const QString& applicationId) const {
  for (int index = fixedTabs; index < tabs_->count(); ++index) {
    if (tabs_->widget(index)->property("applicationId").toString() == applicationId) return tabs_->widget(index);
  }
  return nullptr;
}

void MainWindow::openJob(const QString& applicationId) {
  if (applicationId.isEmpty()) return;
  emit openJobRequested(applicationId);
  if (QWidget* existing = jobTab(applicationId)) {
    tabs_->setCurrentWidget(existing);
    return;
  }
  QWidget* view = jobViewFactory_ ? jobViewFactory_(applicationId) : nullptr;
  if (!view) view = new JobSummaryWidget(applicationId, historyPath_);
  view->setProperty("applicationId", applicationId);
  const int index = tabs_->addTab(view, applicationId);
  tabs_->setTabToolTip(index, applicationId);
  tabs_->setCurrentIndex(index);
  view->setFocus();
}

void MainWindow::compareJobs(const QStringList& applicationIds) {
  auto* view = new CompareView(applicationIds, historyPath_, setup_);
  view->setProperty("comparison", applicationIds);
  const int index = tabs_->addTab(view, tr("Compare (%1)").arg(applicationIds.size()));
  tabs_->setTabToolTip(index, applicationIds.join(QLatin1Char('\n')));
  tabs_->setCurrentIndex(index);
}

void MainWindow::closeJobTab(int index) {
  if (index < fixedTabs || index >= tabs_->count()) return;
  QWidget* view = tabs_->widget(index);
  tabs_->removeTab(index);
  view->deleteLater();
}

void MainWindow::showJobs() {
  tabs_->setCurrentWidget(jobs_);
  jobs_->setFocus();
}

void MainWindow::showDesigner() {
  tabs_->setCurrentWidget(designer_);
}

void MainWindow::showCluster() {
  tabs_->setCurrentWidget(clusterView_);
}

void MainWindow::showSweeps() {
  tabs_->setCurrentWidget(sweepsView_);
}

void MainWindow::submitDesignedJob() {
  showDesigner();
  designer_->validateNow();
  const auto spec = designer_->validSpec();
  if (!spec) {
    showStatus(tr("The spec has problems; fix them before submitting (see Problems)."), 6000);
    designer_->goToField(designer_->check().diagnostics.empty()
                             ? QString()
                             : QString::fromStdString(designer_->check().diagnostics.front().field));
    return;
  }
  auto* dialog = new SubmitDialog(*spec, setup_, this);
  connect(dialog, &SubmitDialog::openJobRequested, this, &MainWindow::openJob);
  connect(dialog, &SubmitDialog::jobSubmitted, jobsModel_, &JobsModel::refresh);
  dialog->show();
  dialog->start();
}

void MainWindow::reloadCluster() {
  clusterStatus_->setText(tr("Connecting…"));
  clusterStatus_->setToolTip(setup_.describe());
  clusterLoader_->load(setup_);
}

void MainWindow::openSettings() {
  SettingsDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted) return;
  dialog.save();
  if (dialog.darkPalette() != isDarkPalette()) darkAction_->setChecked(dialog.darkPalette());
  setSetup(dialog.setup());
}

void MainWindow::setDarkPalette(bool dark) {
  applyPalette(*qApp, dark);
  AppSettings::setDarkPalette(dark);
  designer_->validateNow();  // message colours follow the palette
}

void MainWindow::updateTitle() {
  const QString path = designer_->filePath();
  const QString spec = path.isEmpty() ? tr("new job spec") : QFileInfo(path).fileName();
  setWindowTitle(tr("%1[*] — Spindle").arg(spec));
  setWindowModified(designer_->isModified());
}

void MainWindow::quit() {
  quitting_ = true;
  if (close()) QCoreApplication::quit();
  quitting_ = false;
}

void MainWindow::notifyJobEnd(const JobEndNotice& notice) {
  emit jobEndNotified(notice);
  if (!AppSettings::notifyJobEnds()) return;
  if (notifications_->show(notice)) return;
  // Without a notification service the tray says it, or else the status bar.
  if (tray_ && tray_->isVisible()) {
    tray_->showMessage(DesktopNotifications::summary(notice),
                       notice.applicationId + QLatin1Char('\n') + notice.diagnostics);
  } else {
    showStatus(DesktopNotifications::summary(notice) + QStringLiteral(" · ") + notice.diagnostics, 15000);
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Closing the window keeps the app in the tray, following its jobs; quitting is explicit.
  if (!quitting_ && tray_ && tray_->isVisible() && AppSettings::closeToTray()) {
    AppSettings::setWindow(saveGeometry(), saveState());
    hide();
    event->ignore();
    return;
  }
  if (!designer_->maybeDiscardChanges()) {
    event->ignore();
    return;
  }
  AppSettings::setWindow(saveGeometry(), saveState());
  event->accept();
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
  statusMessage_->showMessage(text, timeoutMs);
}

QString MainWindow::statusText() const {
  return statusMessage_->message();
}

}  // namespace spindle::gui
