#pragma once

#include <QMainWindow>

class QSystemTrayIcon;
#include <functional>

#include "cluster/clusterinfo.h"
#include "cluster/hadoopsetup.h"

class QAction;
class QLabel;
class QTabWidget;

namespace spindle::gui {

class ClusterView;
class SweepsView;
class DesktopNotifications;
class JobEndWatcher;
struct JobEndNotice;
class StatusMessage;

class ClusterInfoLoader;
class JobDesignerWidget;
class JobPoller;
class JobsModel;
class JobsWidget;

// The window: Jobs and Designer tabs, then one tab per opened job.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Makes the widget that shows one job in its tab. Until one is set, a job
  // opens as a read-only summary of what the history knows about it.
  using JobViewFactory = std::function<QWidget*(const QString& applicationId)>;

  // An empty history path reads the history where the CLI keeps it.
  explicit MainWindow(const QString& historyPath = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  void setJobViewFactory(JobViewFactory factory);

  JobDesignerWidget* designer() const { return designer_; }
  JobsWidget* jobsWidget() const { return jobs_; }
  JobEndWatcher* jobEndWatcher() const { return jobEnds_; }
  DesktopNotifications* notifications() const { return notifications_; }
  ClusterView* clusterView() const { return clusterView_; }
  SweepsView* sweepsView() const { return sweepsView_; }
  // Jobs, Designer, Cluster and Sweeps; job tabs come after them.
  static constexpr int fixedTabs = 4;
  JobsModel* jobsModel() const { return jobsModel_; }
  QTabWidget* tabs() const { return tabs_; }
  // The tab of an opened job, or nullptr.
  QWidget* jobTab(const QString& applicationId) const;
  const HadoopSetup& setup() const { return setup_; }
  const ClusterInfo& clusterInfo() const;
  ClusterInfoLoader* clusterLoader() const { return clusterLoader_; }
  QLabel* clusterStatus() const { return clusterStatus_; }
  // A passing message in the status bar, elided beside the permanent fields.
  void showStatus(const QString& text, int timeoutMs = 4000);
  QString statusText() const;
  StatusMessage* statusMessage() const { return statusMessage_; }

  void setSetup(const HadoopSetup& setup);
  // Tells the user of a job's end, or of a stalled task: a desktop notification, else the tray or the status bar.
  void notifyJobEnd(const JobEndNotice& notice);

 public slots:
  void openJob(const QString& applicationId);
  void showJobs();
  void showDesigner();
  void showCluster();
  void showSweeps();
  // A tab comparing the jobs' training scalars and specs.
  void compareJobs(const QStringList& applicationIds);
  // Closes the window for good and ends the app (closing the window alone
  // keeps it in the tray).
  void quit();
  void submitDesignedJob();
  void reloadCluster();
  void openSettings();
  void setDarkPalette(bool dark);

 signals:
  // Each job of this user that ended while the app ran, once (before any notification is shown).
  void jobEndNotified(const spindle::gui::JobEndNotice& notice);
  // Every request to open a job, whoever made it.
  void openJobRequested(const QString& applicationId);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createActions();
  void updateTitle();
  void closeJobTab(int index);

  QString historyPath_;
  HadoopSetup setup_;
  JobViewFactory jobViewFactory_;
  QTabWidget* tabs_;
  JobsModel* jobsModel_;
  JobsWidget* jobs_;
  JobPoller* poller_;
  JobDesignerWidget* designer_;
  ClusterView* clusterView_;
  SweepsView* sweepsView_;
  JobEndWatcher* jobEnds_ = nullptr;
  DesktopNotifications* notifications_ = nullptr;
  QSystemTrayIcon* tray_ = nullptr;
  bool quitting_ = false;
  ClusterInfoLoader* clusterLoader_;
  QLabel* clusterStatus_;
  StatusMessage* statusMessage_ = nullptr;
  QLabel* specStatus_;
  QAction* darkAction_ = nullptr;
};

}  // namespace spindle::gui
