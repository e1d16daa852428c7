// A job designed in the designer and submitted through the GUI's code path
// (SubmitController, as the Submit action runs it) to the real local YARN:
// files staged with progress, containers allocated and registered, the job
// followed to SUCCEEDED, and the history holding it.
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "cluster/clusterinfoloader.h"
#include "designer/jobdesignerwidget.h"
#include "gui_test_main.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_connection.h"
#include "submit/submitcontroller.h"
#include "submit/submitdialog.h"

using namespace spindle;
using namespace spindle::gui;

class SubmitYarnTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("HADOOP_CONF_DIR"), "needs the local YARN's HADOOP_CONF_DIR");
    setup_ = HadoopSetup{qEnvironmentVariable("HADOOP_CONF_DIR")};
  }

  void clusterInfoComesFromTheLocalYarn() {
    const auto outcome = ClusterInfoLoader::fetch(setup_);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.info.known);
    QVERIFY(outcome.info.queues.contains(QStringLiteral("default")));
    QVERIFY(outcome.info.queues.contains(QStringLiteral("ml-gpu")));
    QCOMPARE(outcome.info.nodeLabels, QStringList{QStringLiteral("gpu")});
    QVERIFY(outcome.info.maxMemoryMib > 0);
    QVERIFY(outcome.info.maxVcores > 0);
    QCOMPARE(outcome.info.maxGpus, 2);
    QVERIFY(outcome.info.queueReachesLabel(QStringLiteral("ml-gpu"), QStringLiteral("gpu")));
    QVERIFY(!outcome.info.queueReachesLabel(QStringLiteral("default"), QStringLiteral("gpu")));
    cluster_ = outcome.info;
  }

  void designedJobRunsToSucceeded() {
    JobDesignerWidget designer;
    designer.setClusterInfo(cluster_);
    designer.newSpec();
    qobject_cast<QLineEdit*>(designer.fieldWidget(QStringLiteral("name")))->setText(QStringLiteral("gui-submit-test"));
    auto* framework = qobject_cast<QComboBox*>(designer.fieldWidget(QStringLiteral("framework")));
    framework->setCurrentIndex(framework->findData(QStringLiteral("generic")));
    qobject_cast<QSpinBox*>(designer.fieldWidget(QStringLiteral("tasks.worker.instances")))->setValue(2);
    qobject_cast<QLineEdit*>(designer.fieldWidget(QStringLiteral("tasks.worker.memory")))
        ->setText(QStringLiteral("256 MiB"));
    qobject_cast<QLineEdit*>(designer.fieldWidget(QStringLiteral("tasks.worker.command")))
        ->setText(QStringLiteral("python -c 'print(1)'"));
    designer.validateNow();
    const auto spec = designer.validSpec();
    QVERIFY2(spec,
             designer.check().diagnostics.empty() ? "" : designer.check().diagnostics.front().to_string().c_str());

    SubmitController controller;
    QSignalSpy submitted(&controller, &SubmitController::submitted);
    QSignalSpy failed(&controller, &SubmitController::failed);
    QSignalSpy staged(&controller, &SubmitController::bytesStaged);
    QSignalSpy containers(&controller, &SubmitController::containersChanged);
    QSignalSpy finished(&controller, &SubmitController::finished);
    QSignalSpy idle(&controller, &SubmitController::idle);
    QStringList log;
    connect(&controller, &SubmitController::progress, this, [&log](const QString& line) { log << line; });
    connect(&controller, &SubmitController::stateChanged, this, [&log](const QString& state) { log << state; });
    connect(&controller, &SubmitController::jobEvent, this,
            [&log](const QString& task, const QString& kind, const QString& message) {
              log << task + QLatin1Char(' ') + kind + QStringLiteral(": ") + message;
            });
    auto printLog = qScopeGuard([&log] {
      if (QTest::currentTestFailed()) qWarning().noquote() << log.join(QLatin1Char('\n'));
    });
    QVERIFY(controller.submit(*spec, setup_));
    QVERIFY(controller.isBusy());
    QVERIFY(!controller.submit(*spec, setup_));  // one at a time
    QVERIFY(idle.wait(300000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QCOMPARE(submitted.count(), 1);
    const QString id = submitted.front().front().toString();
    QVERIFY(id.startsWith(QLatin1String("application_")));
    QCOMPARE(controller.applicationId(), id);

    // Bytes staged grow to the total, the container binary among them.
    QVERIFY(staged.count() >= 2);
    const qint64 total = staged.back().at(1).toLongLong();
    QCOMPARE(staged.back().at(0).toLongLong(), total);
    QVERIFY(total > 1024 * 1024);
    // Both workers got a container and registered.
    QVERIFY(!containers.isEmpty());
    QCOMPARE(containers.back().at(0).toInt(), 2);
    QCOMPARE(containers.back().at(1).toInt(), 2);
    QCOMPARE(containers.back().at(2).toInt(), 2);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.front().at(0).toString(), QStringLiteral("SUCCEEDED"));

    // The ResourceManager agrees, through the connection the job view uses.
    auto configuration = setup_.load();
    QVERIFY(configuration);
    auto job = client::JobConnection::open(*configuration, id.toStdString());
    QVERIFY(job);
    auto report = job->report();
    QVERIFY(report);
    QCOMPARE(QString::fromStdString(report->final_status), QStringLiteral("SUCCEEDED"));
    // And the history the jobs list reads has it, finished, with its events.
    auto history = client::HistoryStore::open();
    QVERIFY(history);
    auto entry = history->job(id.toStdString());
    QVERIFY(entry && entry->has_value());
    QCOMPARE(QString::fromStdString((*entry)->name), QStringLiteral("gui-submit-test"));
    QCOMPARE(QString::fromStdString((*entry)->state), QStringLiteral("succeeded"));
    auto events = history->events(id.toStdString());
    QVERIFY(events && !events->empty());
  }

  void refusedInputIsCoresSentence() {
    JobSpec spec;
    spec.name = "gui-refused";
    spec.queue = "no-such-queue";
    TaskSpec worker = default_task("worker");
    worker.command = "true";
    spec.tasks.push_back(worker);
    SubmitDialog dialog(spec, setup_);
    QSignalSpy failed(dialog.controller(), &SubmitController::failed);
    dialog.show();
    dialog.start();
    QVERIFY(failed.wait(120000));
    const QString message = failed.front().at(0).toString();
    QVERIFY2(message.contains(QLatin1String("no-such-queue")), qPrintable(message));
    QCOMPARE(failed.front().at(1).toBool(), true);
    QCOMPARE(dialog.errorText(), message);
  }

 private:
  HadoopSetup setup_;
  ClusterInfo cluster_;
};

SPINDLE_GUI_TEST_MAIN(SubmitYarnTest)
#include "submit_yarn_test.moc"
