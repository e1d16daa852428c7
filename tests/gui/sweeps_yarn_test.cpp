// The Sweeps tab on a real sweep on the local YARN: submitted with the CLI,
// shown with every trial, the chart of every trial's metric filling as they
// train, a trial stopped from the view ending as stopped by the sweep, the
// comparison view opened for two ticked trials, screenshots light and dark.
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "gui_test_main.h"
#include "jobview/scalarchartview.h"
#include "screenshot.h"
#include "sweeps/sweepsview.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

QByteArray runCli(const QStringList& arguments, int seconds = 300) {
  QProcess process;
  process.start(QStringLiteral(SPINDLE_CLI_PATH), arguments);
  if (!process.waitForFinished(seconds * 1000)) return {};
  if (process.exitCode() != 0) qWarning().noquote() << process.readAllStandardError();
  return process.readAllStandardOutput();
}

// The state column of each trial row, in row order.
QStringList trialStates(QTableWidget* table) {
  QStringList states;
  int column = -1;
  for (int c = 0; c < table->columnCount(); ++c) {
    if (table->horizontalHeaderItem(c) && table->horizontalHeaderItem(c)->text() == QStringLiteral("State")) column = c;
  }
  for (int row = 0; row < table->rowCount() && column >= 0; ++row) {
    states << (table->item(row, column) ? table->item(row, column)->text() : QString());
  }
  return states;
}

}  // namespace

class SweepsYarnTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("HADOOP_CONF_DIR"), "needs the local YARN's HADOOP_CONF_DIR");
  }

  void aRealSweepInTheSweepsTab() {
    const auto validated = nlohmann::json::parse(
        runCli({QStringLiteral("validate"), QStringLiteral("--json"),
                QStringLiteral(SPINDLE_SOURCE_DIR "/resources/examples/wine-sweep/wine_sweep.yaml")})
            .toStdString());
    auto spec = validated["spec"];
    spec.erase("python_env");  // the single-host cluster hands containers the venv of scripts/setup
    spec["name"] = "sweep-in-the-app";
    spec["output"] = "hdfs:///tmp/spindle-gui-sweep-" + std::to_string(QCoreApplication::applicationPid());
    spec["env"]["TRAIN_STEPS"] = "600";
    auto sweep = validated["sweep"];
    sweep["method"] = "grid";
    sweep.erase("trials");
    sweep["parallel"] = 3;
    sweep["early_stopping"] = {{"rule", "none"}};
    sweep["parameters"] = {{"learning_rate", {"0.02", "0.1", "0.3"}}};
    spec["sweep"] = sweep;
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("sweep.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(spec.dump()));
    file.close();
    const auto submitted = runCli({QStringLiteral("sweep"), QStringLiteral("submit"), QStringLiteral("--json"), path});
    QVERIFY2(!submitted.isEmpty(), "spindle sweep submit failed");
    const QString sweepId = QString::fromStdString(nlohmann::json::parse(submitted.toStdString())["sweep_id"]);
    auto killAtEnd = qScopeGuard([&] { runCli({QStringLiteral("sweep"), QStringLiteral("kill"), sweepId}); });

    SweepsView view;
    view.setSetup(HadoopSetup{qEnvironmentVariable("HADOOP_CONF_DIR")});
    view.setIntervalMs(1000);
    view.resize(1400, 900);
    view.show();
    view.showSweep(sweepId);
    QTRY_COMPARE_WITH_TIMEOUT(view.trialsTable()->rowCount(), 3, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        (trialStates(view.trialsTable()) ==
         QStringList{QStringLiteral("running"), QStringLiteral("running"), QStringLiteral("running")}),
        300000);
    // Every trial's loss, as the trials log it, in one chart.
    QTRY_VERIFY_WITH_TIMEOUT(view.chart()->seriesNames(QStringLiteral("loss")).size() == 3, 120000);
    for (const auto& series : view.chart()->seriesNames(QStringLiteral("loss"))) {
      QTRY_VERIFY_WITH_TIMEOUT(view.chart()->points(QStringLiteral("loss"), series).size() >= 3, 120000);
    }
    QVERIFY(view.sweepsTable()->rowCount() >= 1);
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&view, dark ? QStringLiteral("sweep-view-dark") : QStringLiteral("sweep-view"));
    }
    applyPalette(*qApp, false);

    // Two ticked trials open the comparison view.
    QSignalSpy compare(&view, &SweepsView::compareRequested);
    view.trialsTable()->item(0, 0)->setCheckState(Qt::Checked);
    view.trialsTable()->item(2, 0)->setCheckState(Qt::Checked);
    QVERIFY(view.compareButton()->isEnabled());
    view.compareButton()->click();
    QCOMPARE(compare.size(), 1);
    QCOMPARE(compare.front().front().toStringList().size(), 2);

    // Trial 1 stopped from the view ends as stopped by the sweep; the others run on.
    view.trialsTable()->selectRow(1);
    QVERIFY(view.stopButton()->isEnabled());
    QTimer::singleShot(200, [] {
      for (auto* box : QApplication::topLevelWidgets()) {
        if (auto* message = qobject_cast<QMessageBox*>(box)) message->button(QMessageBox::Yes)->click();
      }
    });
    view.stopButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(trialStates(view.trialsTable()).value(1), QStringLiteral("stopped by the sweep"), 120000);
    const auto states = trialStates(view.trialsTable());
    QCOMPARE(states.value(0), QStringLiteral("running"));
    QCOMPARE(states.value(2), QStringLiteral("running"));
  }
};

SPINDLE_GUI_TEST_MAIN(SweepsYarnTest)
#include "sweeps_yarn_test.moc"
