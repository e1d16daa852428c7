// The desktop app connected through `spindle serve` instead of to YARN: the
// server runs on the real local YARN, while this process has no Hadoop
// configuration at all, as on a laptop that reaches the gateway through an
// SSH tunnel. A job submitted through the app's submit path, followed in the
// job view (containers, a task's log, the training scalars of real
// TensorFlow, TensorBoard's address), killed from the view; the cluster and
// the jobs list; and a wrong token said to be one.

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>

#include "cluster/clusterinfoloader.h"
#include "cluster/clusterview.h"
#include "compare/compareview.h"
#include "gui_test_main.h"
#include "jobs/jobpoller.h"
#include "jobs/jobsmodel.h"
#include "jobs/jobswidget.h"
#include "jobview/containertablemodel.h"
#include "jobview/jobmonitor.h"
#include "jobview/jobview.h"
#include "jobview/logviewer.h"
#include "jobview/scalarchartview.h"
#include "jobview/scalarfeed.h"
#include "screenshot.h"
#include "settings/settingsdialog.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"
#include "submit/submitcontroller.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

class ServeYarnTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    const QString configuration = qEnvironmentVariable("HADOOP_CONF_DIR");
    QVERIFY2(!configuration.isEmpty(), "needs the local YARN's HADOOP_CONF_DIR for the server");
    QVERIFY(directory_.isValid());
    // The server keeps its own job records; this process has none of the cluster's.
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SPINDLE_STATE_DIR"), directory_.filePath(QStringLiteral("server-state")));
    environment.insert(QStringLiteral("SPINDLE_DATA_DIR"), directory_.filePath(QStringLiteral("server-data")));
    server_.setProcessEnvironment(environment);
    // The laptop's own directory is empty where the server runs (a mount namespace of its own with an empty
    // file system over it), as on another machine: what the app submits from there must travel with the submit.
    QVERIFY(QDir().mkpath(laptopDirectory()));
    server_.start(
        QStringLiteral("unshare"),
        {QStringLiteral("--mount"), QStringLiteral("--propagation"), QStringLiteral("private"), QStringLiteral("sh"),
         QStringLiteral("-c"), QStringLiteral("mount -t tmpfs spindle-laptop \"$0\" && exec \"$1\" serve"),
         laptopDirectory(), QStringLiteral(SPINDLE_CLI_PATH)});
    QVERIFY(server_.waitForStarted(10000));
    QVERIFY(QTest::qWaitFor([this] { return server_.canReadLine(); }, 30000));
    address_ = QString::fromUtf8(server_.readLine()).trimmed();
    QVERIFY2(address_.startsWith(QLatin1String("http://127.0.0.1:")), qPrintable(address_));
    qunsetenv("HADOOP_CONF_DIR");
    qunsetenv("HADOOP_HOME");
    setup_.server = address_;
  }

  QString laptopDirectory() const { return directory_.filePath(QStringLiteral("laptop")); }

  // Whether the server's process sees `path` (nsenter into its mount namespace).
  bool serverSees(const QString& path) const {
    QProcess look;
    look.start(QStringLiteral("nsenter"),
               {QStringLiteral("--target"), QString::number(server_.processId()), QStringLiteral("--mount"),
                QStringLiteral("test"), QStringLiteral("-e"), path});
    look.waitForFinished(30000);
    return look.exitStatus() == QProcess::NormalExit && look.exitCode() == 0;
  }

  void cleanupTestCase() {
    server_.terminate();
    server_.waitForFinished(30000);
  }

  void settingsTakeTheServersAddress() {
    SettingsDialog dialog;
    dialog.setServer(true, QStringLiteral("127.0.0.1:8080"));
    QVERIFY2(dialog.messageFor(QStringLiteral("server.address")).contains(QLatin1String("http://")),
             qPrintable(dialog.messageFor(QStringLiteral("server.address"))));
    dialog.setServer(true, address_, QStringLiteral("/no/such/certificate.pem"));
    QCOMPARE(dialog.messageFor(QStringLiteral("server.address")), QString());
    QVERIFY(dialog.messageFor(QStringLiteral("server.certificate")).contains(QLatin1String("no such file")));
    dialog.setServer(true, address_);
    QCOMPARE(dialog.setup().server, address_);
    dialog.resize(900, std::max(700, dialog.sizeHint().height()));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    saveScreenshot(&dialog, QStringLiteral("settings-through-serve"));
    dialog.setServer(false, address_);
    QVERIFY(dialog.setup().server.isEmpty());
  }

  void clusterAndJobsListComeFromTheServer() {
    const auto outcome = ClusterInfoLoader::fetch(setup_);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.info.known);
    QVERIFY2(outcome.info.queues.contains(QStringLiteral("default")), qPrintable(outcome.info.queues.join(',')));
    QVERIFY(outcome.info.activeNodes >= 1);
    QVERIFY(outcome.info.maxMemoryMib >= 1024);
    QCOMPARE(setup_.describe(), QStringLiteral("the Spindle server at ") + address_.section(QLatin1Char('/'), 0, 2));

    // The cluster view, too.
    ClusterView view;
    view.setSetup(setup_);
    QSignalSpy refreshed(&view, &ClusterView::refreshed);
    view.refresh();
    QVERIFY(refreshed.wait(60000));
    QVERIFY2(refreshed.front().at(0).toBool(), qPrintable(view.heard()->text()));
    QVERIFY(view.nodesModel()->rowCount() >= 1);
    QVERIFY(view.queues()->topLevelItemCount() >= 1);
  }

  void aWrongTokenIsSaidToBeOne() {
    HadoopSetup wrong;
    wrong.server = address_.section(QStringLiteral("token="), 0, 0) + QStringLiteral("token=") + QString(64, 'a');
    const auto outcome = ClusterInfoLoader::fetch(wrong);
    QVERIFY2(outcome.error.contains(QLatin1String("bearer token of this request is not this server's")),
             qPrintable(outcome.error));
    HadoopSetup nothingThere;
    nothingThere.server = QStringLiteral("http://127.0.0.1:1/?token=x");
    const auto unreachable = ClusterInfoLoader::fetch(nothingThere);
    QVERIFY2(unreachable.error.contains(QLatin1String("cannot reach the Spindle server at http://127.0.0.1:1")),
             qPrintable(unreachable.error));

    // The jobs list says it is behind while the server cannot be reached, and stops saying so once it can.
    JobsModel jobs(directory_.filePath(QStringLiteral("poller-history.sqlite")));
    JobsWidget list(&jobs);
    JobPoller poller(&jobs);
    connect(&poller, &JobPoller::problemChanged, &list, &JobsWidget::setUpdateProblem);
    QSignalSpy changed(&poller, &JobPoller::problemChanged);
    poller.setSetup(nothingThere);
    poller.poll();
    QVERIFY(changed.wait(60000));
    QVERIFY2(poller.problem().contains(QLatin1String("cannot reach the Spindle server at http://127.0.0.1:1")),
             qPrintable(poller.problem()));
    const auto* behind = list.findChild<QLabel*>(QStringLiteral("jobsBehind"));
    QVERIFY(behind);
    QVERIFY2(behind->text().startsWith(QLatin1String("Not brought up to date: cannot reach the Spindle server")),
             qPrintable(behind->text()));
    QVERIFY(!behind->isHidden());
    list.resize(1100, 520);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&list, QStringLiteral("jobs-behind-server") + (dark ? QStringLiteral("-dark") : QString()));
    }
    applyPalette(*qApp, false);
    poller.setSetup(setup_);
    poller.poll();
    QVERIFY(changed.wait(60000));
    QCOMPARE(poller.problem(), QString());
    QVERIFY(behind->isHidden());
  }

  void aSubmitIsFollowedToItsEndThroughTheServer() {
    auto spec = parse_job_spec(
        "name: gui-serve-submit\nframework: generic\ntasks:\n  worker:\n    instances: 2\n    memory: 256 MiB\n"
        "    command: python -c 'print(1)'\n",
        SpecParseOptions{});
    QVERIFY(spec);
    SubmitController controller;
    QSignalSpy submitted(&controller, &SubmitController::submitted);
    QSignalSpy failed(&controller, &SubmitController::failed);
    QSignalSpy containers(&controller, &SubmitController::containersChanged);
    QSignalSpy finished(&controller, &SubmitController::finished);
    QSignalSpy idle(&controller, &SubmitController::idle);
    QVERIFY(controller.submit(*spec, setup_));
    QVERIFY(idle.wait(300000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QCOMPARE(submitted.count(), 1);
    QVERIFY(!containers.isEmpty());
    QCOMPARE(containers.back().at(0).toInt(), 2);
    QCOMPARE(containers.back().at(1).toInt(), 2);
    QCOMPARE(containers.back().at(2).toInt(), 2);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.front().at(0).toString(), QStringLiteral("SUCCEEDED"));

    // A spec the server's parser refuses comes back with its sentence, as bad input.
    JobSpec refused = *spec;
    refused.queue = "no-such-queue";
    QSignalSpy refusedFailed(&controller, &SubmitController::failed);
    QSignalSpy refusedIdle(&controller, &SubmitController::idle);
    QVERIFY(controller.submit(refused, setup_));
    QVERIFY(refusedIdle.wait(120000));
    QCOMPARE(refusedFailed.count(), 1);
    QCOMPARE(refusedFailed.front().at(1).toBool(), true);  // bad input, as without a server
    QVERIFY2(refusedFailed.front().at(0).toString().contains(QLatin1String("no-such-queue")),
             qPrintable(refusedFailed.front().at(0).toString()));

    // A local file missing here is said so before anything is sent.
    JobSpec missing = *spec;
    missing.files.push_back({"data.csv", QDir(laptopDirectory()).filePath(QStringLiteral("data.csv")).toStdString()});
    QSignalSpy missingFailed(&controller, &SubmitController::failed);
    QSignalSpy missingIdle(&controller, &SubmitController::idle);
    QVERIFY(controller.submit(missing, setup_));
    QVERIFY(missingIdle.wait(60000));
    QCOMPARE(missingFailed.count(), 1);
    QCOMPARE(missingFailed.front().at(1).toBool(), true);
    QVERIFY2(missingFailed.front().at(0).toString().contains(QLatin1String("files: data.csv: cannot read")),
             qPrintable(missingFailed.front().at(0).toString()));

    // A file the client leaves out, which the server's machine has not got either, is refused by the server.
    const QString here = QDir(laptopDirectory()).filePath(QStringLiteral("here-only.txt"));
    QFile hereOnly(here);
    QVERIFY(hereOnly.open(QIODevice::WriteOnly));
    hereOnly.write("x\n");
    hereOnly.close();
    JobSpec partly = *spec;
    partly.files = {{"sent.txt", here.toStdString()}, {"kept.txt", here.toStdString()}};
    auto server = setup_.dashboard();
    QVERIFY(server);
    const auto answer = server->submit(to_yaml(partly), {{"sent.txt", "x\n"}});
    QVERIFY(!answer);
    QVERIFY2(answer.error().message.find("files: kept.txt: " + here.toStdString() +
                                         " was not sent with the submit and is not on the server's machine") !=
                 std::string::npos,
             answer.error().message.c_str());
    QCOMPARE(answer.error().kind, client::SubmitError::Kind::bad_input);
  }

  void aJobSubmittedFollowedChartedAndKilledThroughTheServer() {
    const QString output = directory_.filePath(QStringLiteral("output"));
    const QString script = QDir(laptopDirectory()).filePath(QStringLiteral("scalars.py"));
    QFile program(script);
    QVERIFY(program.open(QIODevice::WriteOnly));
    program.write(QStringLiteral("import os, sys, time\n"
                                 "import tensorflow as tf\n"
                                 "writer = tf.summary.create_file_writer(os.path.join(sys.argv[1], 'train'))\n"
                                 "with writer.as_default():\n"
                                 "    for step in range(1, 4):\n"
                                 "        tf.summary.scalar('loss', 1.0 / step, step=step)\n"
                                 "writer.flush()\n"
                                 "print('scalars written', flush=True)\n"
                                 "time.sleep(600)\n")
                      .toUtf8());
    program.close();
    const QString yaml = QStringLiteral(
                             "name: gui-through-serve\nframework: generic\noutput: %1\n"
                             "files: {scalars.py: %2}\n"
                             "tasks:\n  worker:\n    instances: 1\n    memory: 1024 MiB\n"
                             "    command: python scalars.py %1\n")
                             .arg(output, script);
    auto spec = parse_job_spec(yaml.toStdString(), SpecParseOptions{});
    QVERIFY2(spec, spec ? "" : format_diagnostics(spec.error()).c_str());
    // The script is here only: the server could not stage it from its own machine.
    QVERIFY(QFile::exists(script));
    QVERIFY2(!serverSees(script), qPrintable(script));
    QVERIFY(serverSees(directory_.filePath(QStringLiteral("server-state"))) || serverSees(directory_.path()));

    SubmitController controller;
    QSignalSpy submitted(&controller, &SubmitController::submitted);
    QSignalSpy failed(&controller, &SubmitController::failed);
    QSignalSpy idle(&controller, &SubmitController::idle);
    QVERIFY(controller.submit(*spec, setup_, false));
    QVERIFY(idle.wait(300000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QCOMPARE(submitted.count(), 1);
    const QString id = submitted.front().front().toString();
    QVERIFY(id.startsWith(QLatin1String("application_")));

    JobViewOptions options;
    options.setup = setup_;
    options.pollIntervalMs = 500;
    options.scalarIntervalMs = 1000;
    options.historyPath = directory_.filePath(QStringLiteral("history.sqlite"));
    JobView view(id, options);
    view.resize(1280, 800);
    view.show();
    // The worker runs, as the server reads it from the application master.
    QVERIFY2(
        QTest::qWaitFor(
            [&] {
              const int row = view.model()->rowOfTask(QStringLiteral("worker:0"));
              return row >= 0 &&
                     view.model()->index(row, ContainerTableModel::StateColumn).data(ContainerTableModel::PhaseRole) ==
                         QStringLiteral("running");
            },
            240000),
        qPrintable(view.stateText()));
    QCOMPARE(view.state(), QStringLiteral("running"));
    QCOMPARE(view.specYaml().contains(QLatin1String("gui-through-serve")), true);
    // Its log, read by the server from the NodeManager.
    view.showLogsOf(QStringLiteral("worker:0"));
    view.logViewer()->selectFile(QStringLiteral("stdout"));
    view.logViewer()->setFollow(true);
    QVERIFY2(
        QTest::qWaitFor([&] { return view.logViewer()->text().contains(QLatin1String("scalars written")); }, 180000),
        qPrintable(view.logViewer()->status()));
    // Its training scalars, read by the server from the event files: three points of loss.
    view.tabs()->setCurrentIndex(JobView::MetricsPage);
    QVERIFY2(QTest::qWaitFor([&] { return view.scalarChart()->tags().contains(QStringLiteral("loss")); }, 120000),
             qPrintable(view.scalarChart()->tags().join(',')));
    QCOMPARE(view.scalarChart()->seriesNames(QStringLiteral("loss")), QStringList{QStringLiteral("train")});
    QVERIFY(QTest::qWaitFor(
        [&] { return view.scalarChart()->points(QStringLiteral("loss"), QStringLiteral("train")).size() == 3; },
        30000));
    const auto points = view.scalarChart()->points(QStringLiteral("loss"), QStringLiteral("train"));
    for (int step = 1; step <= 3; ++step) {
      QCOMPARE(points[step - 1].x(), static_cast<double>(step));
      QVERIFY(std::abs(points[step - 1].y() - 1.0 / step) < 1e-6);
    }
    view.scalarChart()->flush();
    QVERIFY(QTest::qWaitFor([&] { return view.scalarChart()->pointCount() == 3; }, 10000));
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&view, QStringLiteral("job-through-serve-metrics") + (dark ? QStringLiteral("-dark") : QString()));
    }
    applyPalette(*qApp, false);
    // TensorBoard comes from the server's own proxy, behind its token.
    view.showTensorBoard();
    const QString base = address_.section(QLatin1Char('/'), 0, 2);
    QCOMPARE(view.tensorBoardUrl().toString(), base + QStringLiteral("/tb/") + id + QStringLiteral("/?token=") +
                                                   address_.section(QStringLiteral("token="), 1));
    view.tabs()->setCurrentIndex(JobView::ContainersPage);
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&view,
                     QStringLiteral("job-through-serve-containers") + (dark ? QStringLiteral("-dark") : QString()));
    }
    applyPalette(*qApp, false);
    QVERIFY(!view.yarnUiAction()->isEnabled());  // the tracking URL is on the cluster's network

    // The jobs list learns of it from the server.
    JobsModel jobs(options.historyPath);
    JobPoller poller(&jobs);
    poller.setSetup(setup_);
    poller.poll();
    QVERIFY(QTest::qWaitFor(
        [&] {
          jobs.refresh();
          for (int row = 0; row < jobs.rowCount(); ++row) {
            if (jobs.entry(row)->application_id == id.toStdString()) return true;
          }
          poller.poll();
          return false;
        },
        30000));

    // Compared (here with the job of the first test), with spec and scalars from the server.
    CompareView compare({id}, directory_.filePath(QStringLiteral("compare-history.sqlite")), setup_);
    QSignalSpy compared(&compare, &CompareView::loaded);
    QVERIFY(compared.wait(120000));
    compare.chart()->setCurrentTag(QStringLiteral("loss"));
    const QVector<QPointF> loss = compare.chart()->points(QStringLiteral("loss"), compare.seriesName(id, "train"));
    QCOMPARE(loss.size(), 3);
    for (int step = 1; step <= 3; ++step) {
      QCOMPARE(loss[step - 1].x(), double(step));
      QVERIFY(qFuzzyCompare(float(loss[step - 1].y()), 1.0f / float(step)));  // TensorFlow writes float32
    }
    QCOMPARE(compare.table()->rowCount(), 1);

    // Killed from the view, through the server.
    QSignalSpy killed(view.monitor(), &JobMonitor::killFinished);
    view.killWithoutAsking();
    QVERIFY(killed.wait(120000));
    QVERIFY2(killed.front().at(0).toBool(), qPrintable(killed.front().at(1).toString()));
    QVERIFY2(QTest::qWaitFor([&] { return view.state() == QLatin1String("killed"); }, 60000),
             qPrintable(view.stateText()));
  }

 private:
  QTemporaryDir directory_;
  QProcess server_;
  QString address_;
  HadoopSetup setup_;
};

SPINDLE_GUI_TEST_MAIN(ServeYarnTest)
#include "serve_yarn_test.moc"
