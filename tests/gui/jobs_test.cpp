// The jobs list over the history store the CLI shares: rows, search, state
// filter, a job added by another connection (as `spindle submit` adds it)
// showing up on refresh, and the read-only summary of one job.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateTime>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "gui_test_main.h"
#include "jobs/jobsfilterproxy.h"
#include "jobs/jobsmodel.h"
#include "jobs/jobsummarywidget.h"
#include "jobs/jobswidget.h"
#include "mainwindow.h"
#include "notify/desktopnotifications.h"
#include "notify/jobendwatcher.h"
#include "spindle/client/history_store.h"

using namespace spindle;
using namespace spindle::client;
using namespace spindle::gui;

namespace {

// What the CLI writes when it submits and follows a job.
void recordJob(HistoryStore& store, const std::string& id, const std::string& name, const std::string& state,
               const std::string& queue = "default", std::int64_t ageMs = 60000) {
  const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
  JobHistoryEntry entry;
  entry.application_id = id;
  entry.name = name;
  entry.user = "alice";
  entry.queue = queue;
  entry.submitted_ms = now - ageMs;
  QVERIFY(store.record_job(entry));
  if (state != "submitted") {
    QVERIFY(store.record_state(id, state, state == "failed" ? "worker:1 exited with 3" : "", now - ageMs + 1000,
                               state == "running" || state == "accepted" ? 0 : now - 1000));
  }
}

}  // namespace

class JobsTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    directory_ = std::make_unique<QTemporaryDir>();
    path_ = directory_->filePath(QStringLiteral("history.sqlite"));
    auto store = HistoryStore::open(path_.toStdString());
    QVERIFY(store);
    cli_.emplace(std::move(*store));
    recordJob(*cli_, "application_1700000000000_0001", "wine-quality", "succeeded", "default", 3600000);
    recordJob(*cli_, "application_1700000000000_0002", "wine-parameter-server", "failed", "ml-gpu", 1800000);
    recordJob(*cli_, "application_1700000000000_0003", "multi-worker", "running", "default", 120000);
  }
  void cleanup() {
    cli_.reset();
    directory_.reset();
  }

  // The notification layer's seam: each of this user's jobs that ends while
  // the app runs is reported once; jobs that had ended before are not, nor
  // are other users'; the running count follows.
  void aJobThatEndsIsReportedOnce() {
    JobsModel model(path_);
    JobEndWatcher watcher(&model, QStringLiteral("alice"));
    QSignalSpy ended(&watcher, &JobEndWatcher::jobEnded);
    QSignalSpy running(&watcher, &JobEndWatcher::runningJobsChanged);
    model.refresh();
    QCOMPARE(ended.count(), 0);  // 0001 and 0002 ended before
    QCOMPARE(watcher.runningJobs(), 1);
    recordJob(*cli_, "application_1700000000000_0004", "someone-elses", "running");
    QVERIFY(cli_->record_job([] {
      JobHistoryEntry other;
      other.application_id = "application_1700000000000_0004";
      other.user = "bob";
      return other;
    }()));
    model.refresh();
    QVERIFY(cli_->record_state("application_1700000000000_0003", "failed", "worker:1 exited with 3", 1, 2));
    QVERIFY(cli_->record_state("application_1700000000000_0004", "succeeded", "", 1, 2));
    model.refresh();
    model.refresh();
    QCOMPARE(ended.count(), 1);
    const auto notice = ended.front().front().value<JobEndNotice>();
    QCOMPARE(notice.applicationId, QStringLiteral("application_1700000000000_0003"));
    QCOMPARE(notice.name, QStringLiteral("multi-worker"));
    QCOMPARE(notice.state, QStringLiteral("failed"));
    QCOMPARE(notice.diagnostics, QStringLiteral("worker:1 exited with 3"));
    QCOMPARE(DesktopNotifications::summary(notice), QStringLiteral("multi-worker failed"));
    QCOMPARE(watcher.runningJobs(), 0);
    QCOMPARE(running.back().front().toInt(), 0);
  }

  // The name the cluster knows the user by arrives after the first look (a
  // Kerberos principal mapped to another short name): that user's jobs count
  // from then on, and those which had ended already are not announced.
  void theClustersNameForTheUserTakesOverWithoutOldNews() {
    JobsModel model(path_);
    JobEndWatcher watcher(&model, QStringLiteral("login-name"));
    QSignalSpy ended(&watcher, &JobEndWatcher::jobEnded);
    model.refresh();
    QCOMPARE(watcher.runningJobs(), 0);  // none of the history's jobs is login-name's
    watcher.setUser(QStringLiteral("alice"));
    QCOMPARE(watcher.runningJobs(), 1);
    QCOMPARE(ended.count(), 0);
    QVERIFY(cli_->record_state("application_1700000000000_0003", "succeeded", "", 1, 2));
    model.refresh();
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.front().front().value<JobEndNotice>().applicationId,
             QStringLiteral("application_1700000000000_0003"));
  }

  void rowsComeFromTheHistory() {
    JobsModel model(path_);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.problem().isEmpty());
    const int row = model.rowOf(QStringLiteral("application_1700000000000_0002"));
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, JobsModel::NameColumn).data().toString(), QStringLiteral("wine-parameter-server"));
    QCOMPARE(model.index(row, JobsModel::StateColumn).data(JobsModel::StateRole).toString(), QStringLiteral("failed"));
    QCOMPARE(model.index(row, JobsModel::QueueColumn).data().toString(), QStringLiteral("ml-gpu"));
    QCOMPARE(model.index(row, JobsModel::IdColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("worker:1 exited with 3"));
    QVERIFY(!model.index(row, JobsModel::DurationColumn).data().toString().isEmpty());
  }

  void aJobTheCliAddsShowsUpOnRefresh() {
    JobsModel model(path_);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    JobsWidget widget(&model);
    widget.show();
    widget.selectApplication(QStringLiteral("application_1700000000000_0001"));
    QCOMPARE(widget.selectedApplicationId(), QStringLiteral("application_1700000000000_0001"));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setRefreshInterval(100);
    // Another connection to the same file: what `spindle submit` does.
    recordJob(*cli_, "application_1700000000000_0004", "from-the-cli", "submitted", "default", 1000);
    QTRY_COMPARE(model.rowCount(), 4);
    QCOMPARE(inserted.count(), 1);
    // The selection stays on its job; the newest job sorts first.
    QCOMPARE(widget.selectedApplicationId(), QStringLiteral("application_1700000000000_0001"));
    QCOMPARE(widget.proxy()->index(0, JobsModel::IdColumn).data().toString(),
             QStringLiteral("application_1700000000000_0004"));
    // Its state changes as the CLI follows it.
    QVERIFY(cli_->record_state("application_1700000000000_0004", "running", "", 1, 0));
    const int row = model.rowOf(QStringLiteral("application_1700000000000_0004"));
    QTRY_COMPARE(model.index(row, 0).data(JobsModel::StateRole).toString(), QStringLiteral("running"));
  }

  void searchAndFilter() {
    JobsModel model(path_);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    JobsWidget widget(&model);
    QTest::keyClicks(widget.searchField(), QStringLiteral("wine"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(widget.proxy()->rowCount(), 2);
    widget.searchField()->clear();
    QTest::keyClicks(widget.searchField(), QStringLiteral("ml-gpu"));
    QCOMPARE(widget.proxy()->rowCount(), 1);
    widget.searchField()->clear();
    QCOMPARE(widget.proxy()->rowCount(), 3);

    widget.stateFilter()->setCurrentIndex(1);  // running and waiting
    QCOMPARE(widget.proxy()->rowCount(), 1);
    QCOMPARE(widget.proxy()->index(0, 0).data(JobsModel::ApplicationIdRole).toString(),
             QStringLiteral("application_1700000000000_0003"));
    widget.stateFilter()->setCurrentIndex(2);  // succeeded
    QCOMPARE(widget.proxy()->rowCount(), 1);
    widget.stateFilter()->setCurrentIndex(3);  // failed or killed
    QCOMPARE(widget.proxy()->rowCount(), 1);
    QCOMPARE(widget.proxy()->index(0, JobsModel::NameColumn).data().toString(),
             QStringLiteral("wine-parameter-server"));
    widget.stateFilter()->setCurrentIndex(0);
    QCOMPARE(widget.proxy()->rowCount(), 3);
  }

  // A sweep is picked by its common name prefix and Ctrl+A, then compared.
  void aSweepIsSelectedAndCompared() {
    JobsModel model(path_);
    JobsWidget widget(&model);
    widget.show();
    QSignalSpy compare(&widget, &JobsWidget::compareRequested);
    QTest::keyClicks(widget.searchField(), QStringLiteral("wine"));
    widget.view()->setFocus();
    QTest::keySequence(widget.view(), QKeySequence::SelectAll);
    QCOMPARE(widget.selectedApplicationIds().size(), 2);
    widget.compareSelected();
    QCOMPARE(compare.count(), 1);
    QStringList ids = compare.front().front().toStringList();
    ids.sort();
    QCOMPARE(ids, (QStringList{QStringLiteral("application_1700000000000_0001"),
                               QStringLiteral("application_1700000000000_0002")}));
    // One job is no comparison: a sentence instead.
    QSignalSpy status(&widget, &JobsWidget::statusMessage);
    widget.view()->clearSelection();
    widget.view()->selectRow(0);
    widget.compareSelected();
    QCOMPARE(compare.count(), 1);
    QCOMPARE(status.count(), 1);
  }

  void sortingByTimeIsNumeric() {
    JobsModel model(path_);
    JobsFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(JobsModel::SubmittedColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, JobsModel::NameColumn).data().toString(), QStringLiteral("wine-quality"));
    QCOMPARE(proxy.index(2, JobsModel::NameColumn).data().toString(), QStringLiteral("multi-worker"));
  }

  void openingAJobShowsItsSummary() {
    JobStatus status;
    status.application_id = "application_1700000000000_0003";
    status.state = "running";
    TaskStatus worker;
    worker.task = "worker:0";
    worker.phase = "running";
    worker.container = "container_1700000000000_0003_01_000002";
    worker.node = "localhost:41009";
    worker.address = "localhost:2222";
    status.tasks.push_back(worker);
    QVERIFY(cli_->record_status(status));
    QVERIFY(cli_->record_events("application_1700000000000_0003",
                                {{1, 1, "allocated", "worker:0", "container on localhost"},
                                 {2, 2, "registered", "worker:0", "localhost:2222"}}));

    MainWindow window(path_);
    window.show();
    QSignalSpy requested(&window, &MainWindow::openJobRequested);
    window.jobsWidget()->selectApplication(QStringLiteral("application_1700000000000_0003"));
    window.jobsWidget()->view()->setFocus();
    QTest::keyClick(window.jobsWidget()->view(), Qt::Key_Return);
    QCOMPARE(requested.count(), 1);
    auto* summary = qobject_cast<JobSummaryWidget*>(window.jobTab(QStringLiteral("application_1700000000000_0003")));
    QVERIFY(summary);
    QCOMPARE(window.tabs()->currentWidget(), summary);
    QCOMPARE(summary->stateText(), JobsModel::stateText(QStringLiteral("running")));
    QCOMPARE(summary->attemptCount(), 1);
    QCOMPARE(summary->eventCount(), 2);
    // Opening it again shows the same tab.
    window.openJob(QStringLiteral("application_1700000000000_0003"));
    QCOMPARE(window.tabs()->count(), MainWindow::fixedTabs + 1);

    // A job view from elsewhere replaces the summary once a factory is set.
    window.setJobViewFactory([](const QString& id) {
      auto* view = new QWidget;
      view->setObjectName(QStringLiteral("view-") + id);
      return view;
    });
    window.openJob(QStringLiteral("application_1700000000000_0001"));
    QCOMPARE(window.jobTab(QStringLiteral("application_1700000000000_0001"))->objectName(),
             QStringLiteral("view-application_1700000000000_0001"));
    QCOMPARE(window.tabs()->count(), MainWindow::fixedTabs + 2);
  }

 private:
  std::unique_ptr<QTemporaryDir> directory_;
  QString path_;
  std::optional<HistoryStore> cli_;
};

SPINDLE_GUI_TEST_MAIN(JobsTest)
#include "jobs_test.moc"
