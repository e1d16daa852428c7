// The job view across a ResourceManager failover, on the local YARN of
// several hosts (scripts/local-yarn --hosts): a job of two workers on
// different hosts is followed in the view while the active ResourceManager
// hands over to the standby. The view goes on updating after the failover,
// down to every task's SUCCEEDED, with no task restarted.
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "gui_test_main.h"
#include "jobview/containertablemodel.h"
#include "jobview/jobview.h"
#include "screenshot.h"
#include "spindle/core/spec_parser.h"
#include "submit_job.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

class JobViewFailoverTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("HADOOP_CONF_DIR"), "needs the local YARN's HADOOP_CONF_DIR");
    QVERIFY2(!qEnvironmentVariableIsEmpty("SPINDLE_LOCAL_YARN_DIR"),
             "needs SPINDLE_LOCAL_YARN_DIR of the hosts cluster");
    setup_ = HadoopSetup{qEnvironmentVariable("HADOOP_CONF_DIR")};
  }

  void jobViewFollowsAResourceManagerFailover() {
    const char* yaml =
        "name: gui-failover\n"
        "framework: tensorflow\n"
        "tasks:\n"
        "  worker:\n"
        "    instances: 2\n"
        "    memory: 2560 MiB\n"
        "    vcores: 1\n"
        "    command: \"python3 -c 'import time; time.sleep(35)'\"\n";
    auto spec = parse_job_spec(yaml, SpecParseOptions{});
    QVERIFY2(spec, spec ? "" : format_diagnostics(spec.error()).c_str());

    QString id;
    submitThroughTheApp(*spec, setup_, &id);
    if (QTest::currentTestFailed()) return;

    JobViewOptions options;
    options.setup = setup_;
    options.pollIntervalMs = 500;
    JobView view(id, options);
    view.resize(1280, 800);
    view.show();

    // Model updates after the failover are the proof that the view still polls.
    bool failedOver = false;
    int updatesAfterFailover = 0;
    connect(view.model(), &QAbstractItemModel::dataChanged, this, [&] {
      if (failedOver) ++updatesAfterFailover;
    });
    QStringList messages;
    connect(&view, &JobView::statusMessage, this, [&messages](const QString& message) { messages << message; });
    auto phaseOf = [&view](const QString& task) {
      const int row = view.model()->rowOfTask(task);
      if (row < 0) return QString();
      return view.model()->index(row, ContainerTableModel::StateColumn).data(ContainerTableModel::PhaseRole).toString();
    };
    auto bothAre = [&](const QString& phase) {
      return phaseOf(QStringLiteral("worker:0")) == phase && phaseOf(QStringLiteral("worker:1")) == phase;
    };
    QVERIFY2(QTest::qWaitFor([&] { return bothAre(QStringLiteral("running")); }, 180000),
             qPrintable(phaseOf(QStringLiteral("worker:0")) + QLatin1Char(' ') + phaseOf(QStringLiteral("worker:1"))));
    const QString host0 =
        view.model()
            ->index(view.model()->rowOfTask(QStringLiteral("worker:0")), ContainerTableModel::HostColumn)
            .data()
            .toString();
    const QString host1 =
        view.model()
            ->index(view.model()->rowOfTask(QStringLiteral("worker:1")), ContainerTableModel::HostColumn)
            .data()
            .toString();
    QVERIFY2(host0.startsWith(QLatin1String("spindle-node")) && host0 != host1, qPrintable(host0 + " " + host1));

    QProcess failover;
    failover.start(QStringLiteral(SPINDLE_SOURCE_DIR "/scripts/local-yarn"),
                   {QStringLiteral("--hosts"), QStringLiteral("failover-rm")});
    // The GUI thread keeps running its polls while the failover goes on.
    QVERIFY(QTest::qWaitFor([&] { return failover.state() == QProcess::NotRunning; }, 120000));
    QCOMPARE(failover.exitCode(), 0);
    const QString answer = QString::fromUtf8(failover.readAllStandardOutput()).trimmed();
    qInfo().noquote() << "failover:" << answer;
    QVERIFY2(answer.contains(QLatin1String("is active")), qPrintable(answer));
    failedOver = true;

    QVERIFY2(QTest::qWaitFor([&] { return view.state() == QLatin1String("succeeded"); }, 240000),
             qPrintable(view.state() + QStringLiteral(" | ") + messages.join(QStringLiteral(" | "))));
    QVERIFY(bothAre(QStringLiteral("succeeded")));
    QVERIFY2(updatesAfterFailover > 0, "the view did not change after the failover");
    for (const QString& task : {QStringLiteral("worker:0"), QStringLiteral("worker:1")}) {
      const int row = view.model()->rowOfTask(task);
      QCOMPARE(view.model()->index(row, ContainerTableModel::RestartsColumn).data().toString(), QStringLiteral("0"));
    }
    qInfo().noquote() << updatesAfterFailover
                      << "updates after the failover; messages:" << messages.join(QStringLiteral(" | "));
    // YARN's recovery note and the master's own words stay apart in the header.
    bool recoveryNoteShown = false;
    for (const QLabel* label : view.findChildren<QLabel*>()) {
      QVERIFY2(!label->text().contains(QLatin1String("restartevery")), qPrintable(label->text()));
      recoveryNoteShown = recoveryNoteShown || label->text().startsWith(QLatin1String("Attempt recovered"));
    }
    QVERIFY(recoveryNoteShown);
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&view, dark ? QStringLiteral("yarn-job-after-rm-failover-dark")
                                 : QStringLiteral("yarn-job-after-rm-failover"));
    }
    applyPalette(*qApp, false);
  }

 private:
  HadoopSetup setup_;
};

SPINDLE_GUI_TEST_MAIN(JobViewFailoverTest)
#include "jobview_failover_test.moc"
