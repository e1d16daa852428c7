#pragma once

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QUrl>
#include <QWidget>
#include <functional>
#include <optional>

#include "cluster/hadoopsetup.h"
#include "jobview/jobmonitor.h"
#include "notify/jobendwatcher.h"
#include "spindle/core/job_spec.h"

class QAction;
class QDialog;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolBar;

namespace spindle::gui {

class ContainerTableModel;
class LogViewer;
class MainWindow;
class ScalarChartView;
class ScalarFeed;
class SubmitDialog;
class UsageChartView;

// Makes the widget of a job's TensorBoard tab for a URL on the local proxy
// (TensorBoardTab where the app is built with WebEngine).
using TensorBoardTabFactory = std::function<QWidget*(const QUrl& url)>;

struct JobViewOptions {
  QString historyPath;  // empty: where the CLI keeps it
  HadoopSetup setup;
  int pollIntervalMs = 1000;
  int scalarIntervalMs = 5000;
  // Whether the view follows the job itself; without, it shows what
  // applyStatus/applySnapshot give it (tests, the bench).
  bool monitor = true;
  TensorBoardTabFactory tensorBoardTab;
  // Where the job's TensorBoard is served; by default the app's proxy.
  std::function<QUrl(const QString& applicationId, QString* error)> tensorBoardUrl;
};

// One job: its state, the live container table, a task's log, the
// training scalars, the containers' memory and CPU, and TensorBoard; with
// Kill, Resubmit, Open spec, Copy application ID and Open YARN UI.
class JobView : public QWidget {
  Q_OBJECT

 public:
  enum Page { ContainersPage, LogsPage, MetricsPage, ResourcesPage, TensorBoardPage };

  explicit JobView(const QString& applicationId, JobViewOptions options = {}, QWidget* parent = nullptr);
  ~JobView() override;

  const QString& applicationId() const { return applicationId_; }
  ContainerTableModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  LogViewer* logViewer() const { return logs_; }
  ScalarChartView* scalarChart() const { return scalars_; }
  UsageChartView* usageChart() const { return usage_; }
  QTabWidget* tabs() const { return tabs_; }
  QToolBar* toolBar() const { return toolBar_; }
  JobMonitor* monitor() const { return monitor_; }
  ScalarFeed* scalarFeed() const { return feed_; }
  QAction* killAction() const { return kill_; }
  QAction* resubmitAction() const { return resubmit_; }
  QAction* openSpecAction() const { return openSpec_; }
  QAction* copyIdAction() const { return copyId_; }
  QAction* yarnUiAction() const { return yarnUi_; }
  // The TensorBoard tab's widget once it was made, else nullptr.
  QWidget* tensorBoardWidget() const { return tensorBoard_; }
  QUrl tensorBoardUrl() const { return tensorBoardUrl_; }

  // "running", "succeeded", ... as the history words it; empty until known.
  const QString& state() const { return state_; }
  QString stateText() const;
  const QString& trackingUrl() const { return trackingUrl_; }
  const QString& mlflowRunUrl() const { return mlflowRunUrl_; }
  QAction* mlflowRunAction() const { return mlflowRun_; }
  const QString& specYaml() const { return specYaml_; }
  // The job's spec, ready to submit again, or why not.
  std::optional<JobSpec> specForResubmit(QString* error) const;
  QDialog* specDialog() const;

  void applyRecord(const JobRecordSnapshot& record);
  void applySnapshot(const JobSnapshot& snapshot);
  void applyStatus(const JobStatus& status, qint64 takenMs);

  // Installs the job view as the way `window` opens jobs.
  static void install(MainWindow& window, const QString& historyPath = {}, TensorBoardTabFactory tensorBoardTab = {});

 public slots:
  void showLogsOf(const QString& task);
  // Asks first; kills when the answer is yes.
  void killJob();
  void killWithoutAsking();
  void resubmit();
  void openSpec();
  void copyApplicationId();
  void openYarnUi();
  void showTensorBoard();

 signals:
  void openJobRequested(const QString& applicationId);
  void openSpecInDesignerRequested(const QString& specYaml);
  void statusMessage(const QString& message);
  void stateChanged(const QString& state);
  // A task of the job became stalled (stall_timeout); once per stall.
  void taskStalled(const spindle::gui::JobEndNotice& notice);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void createActions();
  void setState(const QString& state, const QString& diagnostics);
  void updateActions();
  void showProblem(const QString& problem);

  QString applicationId_;
  JobViewOptions options_;
  // What the view asks of the cluster (see HadoopSetup::service), or why it cannot.
  Result<std::shared_ptr<client::JobService>> service_;
  QString state_;
  QString name_;
  QString trackingUrl_;
  QString mlflowRunUrl_;
  QString specYaml_;
  QString outputDirectory_;
  bool ended_ = false;
  bool hasTensorBoardTask_ = false;
  QSet<QString> stalled_;  // tasks seen stalled, so that each stall is told once

  QLabel* title_;
  QLabel* idLabel_;
  QLabel* stateLabel_;
  QLabel* diagnostics_;
  QLabel* attention_;  // what the running job waits for, and its stalled tasks
  QLabel* problem_;
  QToolBar* toolBar_;
  QAction* kill_ = nullptr;
  QAction* resubmit_ = nullptr;
  QAction* openSpec_ = nullptr;
  QAction* copyId_ = nullptr;
  QAction* yarnUi_ = nullptr;
  QAction* mlflowRun_ = nullptr;
  QTabWidget* tabs_;
  ContainerTableModel* model_;
  QTableView* table_;
  LogViewer* logs_;
  ScalarChartView* scalars_;
  UsageChartView* usage_;
  QStackedWidget* tensorBoardStack_;
  QLabel* tensorBoardNote_;
  QWidget* tensorBoard_ = nullptr;
  QUrl tensorBoardUrl_;
  JobMonitor* monitor_ = nullptr;
  ScalarFeed* feed_;
  QTimer scalarTimer_;
  QPointer<QDialog> specDialog_;
};

}  // namespace spindle::gui
