// The job view: the container table through every state transition of a
// job (checked by QAbstractItemModelTester, with the cells each change
// reports), the log viewer following a growing file, charts filled from
// event files real TensorFlow wrote, the toolbar's actions, and a
// screenshot of each tab, light and dark.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QToolBar>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>
#include <cmath>
#include <mutex>

#include "designer/jobdesignerwidget.h"
#include "gui_test_main.h"
#include "jobview/containertablemodel.h"
#include "jobview/jobview.h"
#include "jobview/logviewer.h"
#include "jobview/niceaxis.h"
#include "jobview/scalarchartview.h"
#include "jobview/scalarfeed.h"
#include "jobview/usagechartview.h"
#include "mainwindow.h"
#include "notify/desktopnotifications.h"
#include "screenshot.h"
#include "spindle/client/history_store.h"
#include "statusmessage.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

TaskStatus task(const char* name, const char* phase) {
  TaskStatus status;
  status.task = name;
  status.phase = phase;
  return status;
}

// The cells one setStatus reported changed, as "row:column" strings.
QStringList changedCells(const QSignalSpy& spy) {
  QStringList cells;
  for (const auto& arguments : spy) {
    const auto from = arguments.at(0).value<QModelIndex>();
    const auto to = arguments.at(1).value<QModelIndex>();
    for (int row = from.row(); row <= to.row(); ++row) {
      for (int column = from.column(); column <= to.column(); ++column) {
        cells << QStringLiteral("%1:%2").arg(row).arg(column);
      }
    }
  }
  cells.sort();
  return cells;
}

QString cell(int row, int column) {
  return QStringLiteral("%1:%2").arg(row).arg(column);
}

// WCAG's contrast ratio between two colours.
double contrast(const QColor& a, const QColor& b) {
  auto luminance = [](const QColor& colour) {
    auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF());
  };
  const double x = luminance(a), y = luminance(b);
  return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

// A job of six tasks in every phase there is, for pictures.
JobStatus sampleJob() {
  JobStatus status;
  status.application_id = "application_1795288567147_0042";
  status.name = "wine-parameter-server";
  status.state = "running";
  auto add = [&](const char* name, const char* phase, const char* host, int port, int container,
                 std::optional<int> exit, int restarts, std::uint64_t rss, double cpu) {
    TaskStatus one = task(name, phase);
    one.container = "container_1795288567147_0042_01_00000" + std::to_string(container);
    one.node = std::string(host) + ":45454";
    one.node_http_address = std::string(host) + ":8042";
    if (port) one.address = std::string(host) + ":" + std::to_string(port);
    one.exit_code = exit;
    one.restarts = restarts;
    one.log_url = "http://" + one.node_http_address + "/node/containerlogs/" + one.container + "/alice";
    one.rss_bytes = rss;
    one.cpu_seconds = cpu;
    status.tasks.push_back(one);
  };
  add("chief:0", "running", "node-a.example.com", 34211, 2, std::nullopt, 0, 912ull << 20, 41.5);
  add("worker:0", "running", "node-b.example.com", 41877, 3, std::nullopt, 0, 861ull << 20, 39.0);
  add("worker:1", "registered", "node-a.example.com", 38002, 7, std::nullopt, 1, 120ull << 20, 2.0);
  add("ps:0", "running", "node-b.example.com", 45120, 4, std::nullopt, 0, 388ull << 20, 12.25);
  add("evaluator:0", "launching", "node-c.example.com", 0, 5, std::nullopt, 0, 0, 0);
  add("tensorboard:0", "failed", "node-c.example.com", 6006, 6, 1, 0, 0, 0);
  status.tasks.back().exit_description = "tensorboard exited with 1";
  return status;
}

}  // namespace

class JobViewTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qunsetenv("HADOOP_CONF_DIR");
    qunsetenv("HADOOP_HOME");
    QVERIFY(directory_.isValid());
    applyPalette(*qApp, false);
  }

  void tableFollowsEveryTransition() {
    qRegisterMetaType<QList<QPersistentModelIndex>>();
    qRegisterMetaType<QAbstractItemModel::LayoutChangeHint>();
    ContainerTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    using C = ContainerTableModel;

    const auto stateIs = [&](int row, const char* phase) {
      const QModelIndex index = model.index(row, C::StateColumn);
      QCOMPARE(index.data(C::PhaseRole).toString(), QString::fromLatin1(phase));
      QCOMPARE(index.data().toString(), phaseText(QString::fromLatin1(phase)));
      const auto colours = phaseColors(QString::fromLatin1(phase), false);
      QCOMPARE(index.data(Qt::ForegroundRole).value<QColor>(), colours.foreground);
      QCOMPARE(index.data(Qt::BackgroundRole).value<QColor>(), colours.background);
    };

    // requested: three rows appear at once.
    JobStatus status;
    status.state = "running";
    status.tasks = {task("chief:0", "requested"), task("worker:0", "requested"), task("worker:1", "requested")};
    model.setStatus(status);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(model.index(1, C::TaskColumn).data().toString(), QStringLiteral("worker:0"));
    for (int row = 0; row < 3; ++row) stateIs(row, "requested");
    QCOMPARE(model.index(0, C::RestartsColumn).data().toString(), QStringLiteral("0"));
    QVERIFY(model.index(0, C::LogColumn).data().toString().isEmpty());

    // The same status again changes nothing.
    model.setStatus(status);
    QCOMPARE(changed.count(), 0);

    // launching: the chief has a container on a node; its state, host and log cells change.
    auto& chief = status.tasks[0];
    chief.phase = "launching";
    chief.container = "container_1_0001_01_000002";
    chief.node = "node-a:45454";
    chief.node_http_address = "node-a:8042";
    chief.log_url = "http://node-a:8042/node/containerlogs/container_1_0001_01_000002/alice";
    model.setStatus(status);
    QCOMPARE(changedCells(changed),
             (QStringList{cell(0, C::StateColumn), cell(0, C::HostColumn), cell(0, C::LogColumn)}));
    stateIs(0, "launching");
    QCOMPARE(model.index(0, C::HostColumn).data().toString(), QStringLiteral("node-a"));
    QVERIFY(!model.index(0, C::LogColumn).data().toString().isEmpty());
    QCOMPARE(model.index(0, C::LogColumn).data(C::LogUrlRole).toString(), QString::fromStdString(chief.log_url));
    QCOMPARE(model.index(0, C::HostColumn).data(C::ContainerRole).toString(), QString::fromStdString(chief.container));
    QVERIFY(model.index(0, C::HostColumn).data(Qt::ToolTipRole).toString().contains(QLatin1String("container_1_0001")));

    // registered: the port it reserved.
    changed.clear();
    chief.phase = "registered";
    chief.address = "node-a:2222";
    model.setStatus(status);
    QCOMPARE(changedCells(changed), (QStringList{cell(0, C::StateColumn), cell(0, C::PortColumn)}));
    stateIs(0, "registered");
    QCOMPARE(model.index(0, C::PortColumn).data().toString(), QStringLiteral("2222"));

    // running, and the workers start: one dataChanged run per row at most.
    changed.clear();
    chief.phase = "running";
    for (int i = 1; i < 3; ++i) {
      auto& worker = status.tasks[static_cast<std::size_t>(i)];
      worker.phase = "running";
      worker.container = "container_1_0001_01_00000" + std::to_string(i + 2);
      worker.node = "node-b:45454";
      worker.node_http_address = "node-b:8042";
      worker.address = "node-b:" + std::to_string(3000 + i);
      worker.log_url = "http://node-b:8042/logs";
    }
    model.setStatus(status);
    QCOMPARE(changedCells(changed),
             (QStringList{cell(0, C::StateColumn), cell(1, C::StateColumn), cell(1, C::HostColumn),
                          cell(1, C::PortColumn), cell(1, C::LogColumn), cell(2, C::StateColumn),
                          cell(2, C::HostColumn), cell(2, C::PortColumn), cell(2, C::LogColumn)}));
    // One signal per run of adjacent changed cells: state on row 0; state to
    // port, and log, on rows 1 and 2.
    QCOMPARE(changed.count(), 5);
    for (int row = 0; row < 3; ++row) stateIs(row, "running");

    // Memory and CPU change every heartbeat; no cell shows them.
    changed.clear();
    for (auto& one : status.tasks) {
      one.rss_bytes += 1 << 20;
      one.cpu_seconds += 1;
    }
    model.setStatus(status);
    QCOMPARE(changed.count(), 0);

    // worker:1 fails with 3.
    auto& worker1 = status.tasks[2];
    worker1.phase = "failed";
    worker1.exit_code = 3;
    worker1.exit_description = "exited with 3";
    model.setStatus(status);
    QCOMPARE(changedCells(changed), (QStringList{cell(2, C::StateColumn), cell(2, C::ExitCodeColumn)}));
    stateIs(2, "failed");
    QCOMPARE(model.index(2, C::ExitCodeColumn).data().toString(), QStringLiteral("3"));
    QVERIFY(model.index(2, C::StateColumn).data(Qt::ToolTipRole).toString().contains(QLatin1String("exited with 3")));

    // ... and is restarted: requested again in a new container, one restart spent.
    changed.clear();
    worker1.phase = "requested";
    worker1.exit_code.reset();
    worker1.exit_description.clear();
    worker1.restarts = 1;
    worker1.container.clear();
    worker1.node.clear();
    worker1.node_http_address.clear();
    worker1.address.clear();
    worker1.log_url.clear();
    model.setStatus(status);
    QCOMPARE(changedCells(changed),
             (QStringList{cell(2, C::StateColumn), cell(2, C::HostColumn), cell(2, C::PortColumn),
                          cell(2, C::ExitCodeColumn), cell(2, C::RestartsColumn), cell(2, C::LogColumn)}));
    stateIs(2, "requested");
    QCOMPARE(model.index(2, C::RestartsColumn).data().toString(), QStringLiteral("1"));
    QCOMPARE(model.index(2, C::ExitCodeColumn).data().toString(), QString());

    // Running again, then everyone succeeds with 0.
    worker1.phase = "running";
    worker1.container = "container_1_0001_01_000007";
    worker1.node = "node-a:45454";
    worker1.node_http_address = "node-a:8042";
    worker1.address = "node-a:3007";
    model.setStatus(status);
    stateIs(2, "running");
    changed.clear();
    for (auto& one : status.tasks) {
      one.phase = "succeeded";
      one.exit_code = 0;
    }
    model.setStatus(status);
    QCOMPARE(changedCells(changed),
             (QStringList{cell(0, C::StateColumn), cell(0, C::ExitCodeColumn), cell(1, C::StateColumn),
                          cell(1, C::ExitCodeColumn), cell(2, C::StateColumn), cell(2, C::ExitCodeColumn)}));
    for (int row = 0; row < 3; ++row) {
      stateIs(row, "succeeded");
      QCOMPARE(model.index(row, C::ExitCodeColumn).data().toString(), QStringLiteral("0"));
    }

    // A task that goes away is removed; one that comes is appended.
    status.tasks.erase(status.tasks.begin() + 1);
    status.tasks.push_back(task("evaluator:0", "requested"));
    model.setStatus(status);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.rowOfTask(QStringLiteral("worker:1")), 1);
    QCOMPARE(model.rowOfTask(QStringLiteral("evaluator:0")), 2);
    QCOMPARE(model.index(1, C::TaskColumn).data().toString(), QStringLiteral("worker:1"));
    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 0);
  }

  void stateColoursAreLegibleInBothPalettes() {
    for (const bool dark : {false, true}) {
      for (const char* phase :
           {"requested", "launching", "registered", "running", "succeeded", "failed", "stopped", "stalled"}) {
        const auto colours = phaseColors(QString::fromLatin1(phase), dark);
        QVERIFY(colours.foreground.isValid() && colours.background.isValid());
        const double ratio = contrast(colours.foreground, colours.background);
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 %2: %3").arg(QLatin1String(phase)).arg(dark).arg(ratio)));
      }
    }
    // The model follows the palette.
    ContainerTableModel model;
    JobStatus status;
    status.tasks = {task("chief:0", "running")};
    model.setStatus(status);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    applyPalette(*qApp, true);
    model.paletteChanged();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.index(0, 1).data(Qt::BackgroundRole).value<QColor>(),
             phaseColors(QStringLiteral("running"), true).background);
    applyPalette(*qApp, false);
    model.paletteChanged();
    QCOMPARE(model.index(0, 1).data(Qt::BackgroundRole).value<QColor>(),
             phaseColors(QStringLiteral("running"), false).background);
  }

  void logViewerAppendsOnlyNewBytes() {
    struct File {
      std::mutex mutex;
      std::string text;
      int reads = 0;
      bool failing = false;
      bool complete = false;
    };
    auto file = std::make_shared<File>();
    LogViewer viewer;
    viewer.setFetcher([file](const LogViewer::Place& place, const std::string& name) -> Result<LogViewer::Fetched> {
      std::lock_guard lock(file->mutex);
      ++file->reads;
      if (place.nodeHttpAddress != "node-a:8042" || place.container != "container_1_0001_01_000002")
        return make_error("no such container");
      if (file->failing) return make_error("chief:0 stdout: the NodeManager at node-a:8042 did not answer");
      return LogViewer::Fetched{name == "stderr" ? file->text : std::string("out\n"), file->complete};
    });
    viewer.setFollowInterval(50);
    JobStatus status;
    TaskStatus chief = task("chief:0", "running");
    chief.container = "container_1_0001_01_000002";
    chief.node_http_address = "node-a:8042";
    status.tasks = {chief, task("worker:0", "requested")};
    {
      std::lock_guard lock(file->mutex);
      file->text = "step 1\n";
    }
    QSignalSpy fetched(&viewer, &LogViewer::fetched);
    viewer.setTasks(status);
    viewer.selectTask(QStringLiteral("chief:0"));
    viewer.selectFile(QStringLiteral("stderr"));
    QTRY_COMPARE(viewer.text(), QStringLiteral("step 1\n"));

    // Follow mode: each answer adds only what is new to the document.
    qint64 added = 0;
    connect(viewer.textView()->document(), &QTextDocument::contentsChange, this,
            [&added](int, int, int charsAdded) { added += charsAdded; });
    viewer.setFollow(true);
    QString expected = QStringLiteral("step 1\n");
    for (int step = 2; step <= 6; ++step) {
      const std::string line = "step " + std::to_string(step) + " ünïcode\n";
      {
        std::lock_guard lock(file->mutex);
        file->text += line;
      }
      expected += QString::fromStdString(line);
      QTRY_COMPARE_WITH_TIMEOUT(viewer.text(), expected, 5000);
    }
    QCOMPARE(added, expected.size() - 7);
    QCOMPARE(viewer.bytesShown(), static_cast<qint64>(file->text.size()));
    viewer.setFollow(false);
    QTRY_VERIFY(!viewer.isFetching());

    // The buffer keeps the last lines only.
    {
      std::lock_guard lock(file->mutex);
      for (int line = 0; line < LogViewer::maximumLines + 5000; ++line)
        file->text += "line " + std::to_string(line) + "\n";
    }
    viewer.refresh();
    QTRY_VERIFY(viewer.text().endsWith(QStringLiteral("line %1\n").arg(LogViewer::maximumLines + 4999)));
    QVERIFY(viewer.textView()->document()->blockCount() <= LogViewer::maximumLines);

    // Another file starts over.
    viewer.selectFile(QStringLiteral("stdout"));
    QTRY_COMPARE(viewer.text(), QStringLiteral("out\n"));
    QVERIFY(viewer.status().contains(QLatin1String("live")));
    QVERIFY(!viewer.isComplete());

    // A read that fails is said above the text, where it is seen.
    {
      std::lock_guard lock(file->mutex);
      file->failing = true;
    }
    viewer.refresh();
    QTRY_VERIFY(viewer.status().contains(QLatin1String("did not answer")));
    QCOMPARE(viewer.text(), QStringLiteral("out\n"));

    // The whole file of an ended job says so.
    {
      std::lock_guard lock(file->mutex);
      file->failing = false;
      file->complete = true;
    }
    viewer.refresh();
    QTRY_VERIFY(viewer.isComplete());
    QVERIFY(viewer.status().contains(QLatin1String("complete")));
  }

  void chartsShowTheEventFilesOfRealTensorFlow() {
    // TensorFlow writes every kind of scalar it has; TensorBoard's own
    // reader says what it serves from them.
    logDirectory_ = directory_.filePath(QStringLiteral("events"));
    QDir().mkpath(logDirectory_);
    QProcess python;
    python.start(QStringLiteral(SPINDLE_PYTHON),
                 {QStringLiteral(SPINDLE_SOURCE_DIR "/tests/python/tensorboard_scalars.py"), logDirectory_});
    QVERIFY2(python.waitForFinished(240000), "TensorFlow did not finish writing event files");
    QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    const QJsonObject runs =
        QJsonDocument::fromJson(python.readAllStandardOutput()).object().value(QStringLiteral("runs")).toObject();
    QVERIFY(runs.size() >= 3);

    ScalarFeed feed;
    ScalarChartView chart;
    chart.resize(900, 500);
    chart.show();
    connect(&feed, &ScalarFeed::pointsArrived, &chart,
            [&chart](const ScalarBatch& batch) { chart.addPoints(batch.points); });
    QSignalSpy polled(&feed, &ScalarFeed::polled);
    feed.setDirectory(logDirectory_);
    feed.poll();
    QVERIFY(polled.wait(30000));
    chart.flush();

    QSet<QString> theirs;
    int compared = 0;
    for (auto run = runs.constBegin(); run != runs.constEnd(); ++run) {
      const QJsonObject tags = run.value().toObject();
      for (auto tag = tags.constBegin(); tag != tags.constEnd(); ++tag) {
        theirs.insert(tag.key() + QLatin1Char('|') + run.key());
        const QJsonArray points = tag.value().toArray();
        const QVector<QPointF> ours = chart.points(tag.key(), run.key());
        QVERIFY2(
            ours.size() == points.size(),
            qPrintable(
                QStringLiteral("%1 %2: %3 against %4").arg(run.key(), tag.key()).arg(ours.size()).arg(points.size())));
        for (int i = 0; i < points.size(); ++i) {
          const QJsonArray point = points[i].toArray();
          QCOMPARE(ours[i].x(), point[0].toDouble());
          const double value = point[2].toDouble();
          QVERIFY2(std::abs(ours[i].y() - value) <= 1e-6 * std::max(1.0, std::abs(value)),
                   qPrintable(QStringLiteral("%1 %2 step %3: %4 against %5")
                                  .arg(run.key(), tag.key())
                                  .arg(point[0].toDouble())
                                  .arg(ours[i].y())
                                  .arg(value)));
          ++compared;
        }
      }
    }
    QSet<QString> shown;
    for (const QString& tag : chart.tags()) {
      for (const QString& run : chart.seriesNames(tag)) shown.insert(tag + QLatin1Char('|') + run);
    }
    QCOMPARE(shown, theirs);
    QVERIFY(compared > 100);

    // The chooser starts on the loss; the chart draws each run's points as they are.
    QCOMPARE(chart.currentKey(), QStringLiteral("loss"));
    for (const QString& run : chart.seriesNames(QStringLiteral("loss"))) {
      auto* series = chart.displayedSeries(run);
      QVERIFY(series);
      QCOMPARE(series->pointsVector(), chart.points(QStringLiteral("loss"), run));
    }
    chart.setCurrentTag(QStringLiteral("accuracy"));
    QVERIFY(chart.displayedSeries(QStringLiteral("eval")));
    QVERIFY(!chart.displayedSeries(QStringLiteral("tf1/session")));
    QCOMPARE(chart.displayedSeries(QStringLiteral("eval"))->pointsVector(),
             chart.points(QStringLiteral("accuracy"), QStringLiteral("eval")));

    // A second poll finds nothing new.
    const int before = chart.pointCount();
    feed.poll();
    QVERIFY(polled.wait(30000));
    QCOMPARE(chart.pointCount(), before);
  }

  void longSeriesAreReducedForDrawing() {
    ScalarChartView chart;
    chart.resize(1000, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QVector<QPointF> points;
    points.reserve(100000);
    for (int i = 0; i < 100000; ++i) points.append(QPointF(i, std::sin(i / 500.0) + (i % 97) / 97.0));
    chart.setPoints(QStringLiteral("loss"), QStringLiteral("train"), points);
    chart.flush();
    auto* series = chart.displayedSeries(QStringLiteral("train"));
    QVERIFY(series);
    QVERIFY(series->count() <= 4 * 1000 + 8);
    QCOMPARE(chart.points(QStringLiteral("loss"), QStringLiteral("train")).size(), 100000);
    // The reduction keeps the extremes and both ends.
    double low = 1e9, high = -1e9;
    for (const QPointF& point : points) {
      low = std::min(low, point.y());
      high = std::max(high, point.y());
    }
    double shownLow = 1e9, shownHigh = -1e9;
    for (const QPointF& point : series->pointsVector()) {
      shownLow = std::min(shownLow, point.y());
      shownHigh = std::max(shownHigh, point.y());
    }
    QCOMPARE(shownLow, low);
    QCOMPARE(shownHigh, high);
    QCOMPARE(series->at(0), points.front());
    QCOMPARE(series->at(series->count() - 1), points.back());
  }

  void usageChartShowsMemoryAndCpu() {
    UsageChartView chart;
    const qint64 start = QDateTime::currentMSecsSinceEpoch();
    JobStatus status = sampleJob();
    chart.addStatus(status, start);
    for (auto& one : status.tasks) {
      one.rss_bytes += 64ull << 20;
      one.cpu_seconds += 1.5;
    }
    chart.addStatus(status, start + 1000);
    chart.flush();
    QCOMPARE(chart.currentKey(), UsageChartView::memoryKey);
    // Running and registered tasks with a heartbeat, two samples each.
    QCOMPARE(chart.seriesNames(UsageChartView::memoryKey),
             (QStringList{QStringLiteral("chief:0"), QStringLiteral("ps:0"), QStringLiteral("worker:0"),
                          QStringLiteral("worker:1")}));
    const auto memory = chart.points(UsageChartView::memoryKey, QStringLiteral("chief:0"));
    QCOMPARE(memory.size(), 2);
    QCOMPARE(memory[0], QPointF(static_cast<double>(start), 912.0));
    QCOMPARE(memory[1], QPointF(static_cast<double>(start + 1000), 976.0));
    // CPU: 1.5 s of CPU in 1 s of time is 1.5 cores.
    const auto cpu = chart.points(UsageChartView::cpuKey, QStringLiteral("chief:0"));
    QCOMPARE(cpu.size(), 1);
    QCOMPARE(cpu[0].y(), 1.5);
    QVERIFY(chart.displayedSeries(QStringLiteral("chief:0")));

    // The history's points of the same job, older, come first.
    UsageChartView fromHistory;
    std::vector<client::MetricPoint> kept;
    const double t0 = static_cast<double>(start) / 1000.0 - 10;
    kept.push_back({"container", "chief:0", "memory_bytes", 0, t0, 100.0 * 1024 * 1024});
    kept.push_back({"container", "chief:0", "cpu_seconds", 0, t0, 1.0});
    kept.push_back({"container", "chief:0", "memory_bytes", 0, t0 + 2, 200.0 * 1024 * 1024});
    kept.push_back({"container", "chief:0", "cpu_seconds", 0, t0 + 2, 2.0});
    fromHistory.addHistory(kept);
    fromHistory.flush();
    const auto historic = fromHistory.points(UsageChartView::memoryKey, QStringLiteral("chief:0"));
    QCOMPARE(historic.size(), 2);
    QCOMPARE(historic[1].y(), 200.0);
    QCOMPARE(fromHistory.points(UsageChartView::cpuKey, QStringLiteral("chief:0")).front().y(), 0.5);
  }

  void jobViewActionsFromTheHistory() {
    const QString history = directory_.filePath(QStringLiteral("history.sqlite"));
    const std::string id = "application_1795288567147_0042";
    {
      auto store = client::HistoryStore::open(history.toStdString());
      QVERIFY(store);
      client::JobHistoryEntry entry;
      entry.application_id = id;
      entry.name = "wine-quality";
      entry.user = "alice";
      entry.queue = "default";
      entry.spec_yaml = "name: wine-quality\nqueue: default\nfiles: {train.py: /nonexistent/train.py}\noutput: " +
                        logDirectory_.toStdString() +
                        "\ntasks:\n  chief:\n    memory: 256 MiB\n    command: python train.py\n";
      entry.submitted_ms = QDateTime::currentMSecsSinceEpoch() - 60000;
      QVERIFY(store->record_job(entry));
      QVERIFY(store->record_state(id, "succeeded", "", entry.submitted_ms + 1000, entry.submitted_ms + 50000,
                                  "http://rm.example.com:8088/proxy/" + id + "/"));
      QVERIFY(store->record_tracking_run(id, {"http://mlflow.example.com:5000", "3", "4f2a", 1}));
    }
    JobViewOptions options;
    options.historyPath = history;
    options.tensorBoardUrl = [](const QString& application, QString*) {
      return QUrl(QStringLiteral("http://127.0.0.1:1/tb/") + application + QLatin1Char('/'));
    };
    JobView view(QString::fromStdString(id), options);
    view.resize(1200, 760);
    view.show();
    QSignalSpy state(&view, &JobView::stateChanged);
    QTRY_COMPARE(view.state(), QStringLiteral("succeeded"));
    QTRY_VERIFY(!view.specYaml().isEmpty());
    QVERIFY(view.specYaml().contains(QLatin1String("wine-quality")));
    QVERIFY(!view.killAction()->isEnabled());  // it has ended
    QVERIFY(view.openSpecAction()->isEnabled());
    QVERIFY(view.resubmitAction()->isEnabled());
    QCOMPARE(view.trackingUrl(),
             QStringLiteral("http://rm.example.com:8088/proxy/%1/").arg(QString::fromStdString(id)));
    // The scalars come from the output directory the spec names.
    QTRY_VERIFY_WITH_TIMEOUT(view.scalarChart()->tags().contains(QStringLiteral("loss")), 20000);

    view.copyApplicationId();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromStdString(id));

    QDesktopServices::setUrlHandler(QStringLiteral("http"), this, "openedUrl");
    view.openYarnUi();
    QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
    QCOMPARE(opened_, QUrl(view.trackingUrl()));
    // A job recorded in MLflow opens its run there.
    QVERIFY(view.mlflowRunAction()->isVisible());
    QCOMPARE(view.mlflowRunUrl(), QStringLiteral("http://mlflow.example.com:5000/#/experiments/3/runs/4f2a"));
    QDesktopServices::setUrlHandler(QStringLiteral("http"), this, "openedUrl");
    view.mlflowRunAction()->trigger();
    QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
    QCOMPARE(opened_, QUrl(view.mlflowRunUrl()));

    view.openSpec();
    QVERIFY(view.specDialog());
    auto* text = view.specDialog()->findChild<QPlainTextEdit*>();
    QVERIFY(text && text->isReadOnly());
    QCOMPARE(text->toPlainText(), view.specYaml());
    QSignalSpy designer(&view, &JobView::openSpecInDesignerRequested);
    auto* button = view.specDialog()->findChild<QPushButton*>();
    for (auto* candidate : view.specDialog()->findChildren<QPushButton*>()) {
      if (candidate->text().contains(QLatin1String("esigner"))) button = candidate;
    }
    button->click();
    QCOMPARE(designer.count(), 1);

    // Resubmitting needs the spec's files where they were.
    QString error;
    QVERIFY(!view.specForResubmit(&error));
    QVERIFY2(error.contains(QLatin1String("/nonexistent/train.py")), qPrintable(error));

    // Without a web view the TensorBoard tab gives the proxy's address.
    view.tabs()->setCurrentIndex(JobView::TensorBoardPage);
    QCOMPARE(view.tensorBoardUrl(), QUrl(QStringLiteral("http://127.0.0.1:1/tb/%1/").arg(QString::fromStdString(id))));

    // The table's log link opens the log of its task.
    JobStatus status = sampleJob();
    view.applyStatus(status, 0);
    view.tabs()->setCurrentIndex(JobView::ContainersPage);
    const QModelIndex log = view.model()->index(1, ContainerTableModel::LogColumn);
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, view.table()->visualRect(log).center());
    QCOMPARE(view.tabs()->currentIndex(), static_cast<int>(JobView::LogsPage));
    QCOMPARE(view.logViewer()->currentTask(), QStringLiteral("worker:0"));
  }

  void mainWindowOpensJobsInTheJobView() {
    const QString history = directory_.filePath(QStringLiteral("history.sqlite"));
    MainWindow window(history);
    JobView::install(window, history);
    window.openJob(QStringLiteral("application_1795288567147_0042"));
    auto* view = qobject_cast<JobView*>(window.jobTab(QStringLiteral("application_1795288567147_0042")));
    QVERIFY(view);
    QSignalSpy designer(view, &JobView::openSpecInDesignerRequested);
    QTRY_VERIFY(!view->specYaml().isEmpty());
    emit view->openSpecInDesignerRequested(view->specYaml());
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.designer()));
  }

  void aStalledTaskIsShownAndToldOncePerStall() {
    const QString history = directory_.filePath(QStringLiteral("history.sqlite"));
    MainWindow window(history);
    JobView::install(window, history);
    const QString id = QStringLiteral("application_1795288567147_0077");
    window.openJob(id);
    auto* view = qobject_cast<JobView*>(window.jobTab(id));
    QVERIFY(view);
    QSignalSpy told(&window, &MainWindow::jobEndNotified);
    JobStatus status = sampleJob();
    status.waiting_for = "waits for containers: 1 of the job's 2 containers (1 of 2 worker) granted after 20s";
    const std::string sentence =
        "stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of "
        "a core for 30s (stall_timeout)";
    status.tasks[1].stalled = sentence;
    view->applyStatus(status, 0);
    view->applyStatus(status, 0);
    QCOMPARE(told.count(), 1);
    const auto notice = told.at(0).at(0).value<JobEndNotice>();
    QCOMPARE(notice.state, QStringLiteral("stalled"));
    QCOMPARE(notice.diagnostics, QString::fromStdString(status.tasks[1].task + " " + sentence));
    QCOMPARE(DesktopNotifications::summary(notice), QStringLiteral("wine-parameter-server has a stalled task"));
    const QModelIndex state = view->model()->index(1, ContainerTableModel::StateColumn);
    QCOMPARE(state.data().toString(), QStringLiteral("stalled"));
    QCOMPARE(state.data(Qt::ForegroundRole).value<QColor>(), phaseColors(QStringLiteral("stalled"), false).foreground);
    QCOMPARE(state.data(Qt::ToolTipRole).toString(), notice.diagnostics);
    auto* attention = view->findChild<QLabel*>(QStringLiteral("attention"));
    QVERIFY(attention && attention->isVisibleTo(view));
    QVERIFY(attention->text().contains(QString::fromStdString(status.waiting_for)));
    QVERIFY(attention->text().contains(notice.diagnostics));
    // It works again, then stalls again: told again.
    status.tasks[1].stalled.clear();
    view->applyStatus(status, 0);
    status.tasks[1].stalled = sentence;
    view->applyStatus(status, 0);
    QCOMPARE(told.count(), 2);
  }

  void chartAxesAreRoundAndPointsSayWhatTheyAre() {
    // The bare rule: 1, 2 or 5 times a power of ten, both ends on a tick.
    const NiceAxis loss = niceAxis(0.0177, 0.79, 6);
    QCOMPARE(loss.step, 0.2);
    QCOMPARE(loss.low, 0.0);
    QCOMPARE(loss.high, 0.8);
    QCOMPARE(loss.labelFormat(), QStringLiteral("%.1f"));
    const NiceAxis steps = niceAxis(10, 300, 8);
    QCOMPARE(steps.step, 50.0);
    QCOMPARE(steps.low, 0.0);
    QCOMPARE(steps.high, 300.0);
    QCOMPARE(steps.labelFormat(), QStringLiteral("%.0f"));
    const NiceAxis flat = niceAxis(5, 5, 6);
    QVERIFY(flat.low < 5 && flat.high > 5);
    const NiceAxis small = niceAxis(0.00012, 0.00047, 6);
    QCOMPARE(small.step, 0.0001);
    QCOMPARE(small.labelFormat(), QStringLiteral("%.4f"));

    // The chart uses it for the training loss, and a point's tooltip names it.
    ScalarChartView chart;
    chart.resize(800, 500);
    chart.show();
    QVector<QPointF> points;
    for (int step = 10; step <= 300; step += 10) points.append(QPointF(step, 0.79 * std::exp(-step / 40.0) + 0.0177));
    chart.appendPoints(QStringLiteral("loss"), QStringLiteral("train"), points);
    chart.flush();
    auto axes = chart.chart()->axes(Qt::Vertical);
    QCOMPARE(axes.size(), 1);
    auto* y = qobject_cast<QtCharts::QValueAxis*>(axes.front());
    QVERIFY(y);
    QCOMPARE(y->tickType(), QtCharts::QValueAxis::TicksDynamic);
    const double ticks = (y->max() - y->min()) / y->tickInterval();
    QVERIFY2(std::abs(ticks - std::round(ticks)) < 1e-9, qPrintable(QString::number(ticks)));
    const double mantissa = y->tickInterval() / std::pow(10.0, std::floor(std::log10(y->tickInterval())));
    QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9,
             qPrintable(QString::number(y->tickInterval())));
    QCOMPARE(chart.pointText(QStringLiteral("train"), QPointF(300, 0.0177)),
             QStringLiteral("train · Step 300: loss 0.0177"));
  }

  void statusBarElidesALongMessageBesideItsFields() {
    const QString history = directory_.filePath(QStringLiteral("history.sqlite"));
    MainWindow window(history);
    window.resize(720, 480);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The window's own first cluster load ends with a message of its own; let it end first, so that it
    // cannot replace the one under test.
    QTRY_VERIFY(window.clusterStatus()->text() != QStringLiteral("Connecting…"));
    const QString sentence = QStringLiteral(
        "HADOOP_CONF_DIR is not set and no configuration directory is chosen; open Settings and choose the "
        "directory of the cluster's core-site.xml and yarn-site.xml, or use the local YARN");
    window.clusterStatus()->setText(QStringLiteral("No cluster"));
    window.showStatus(sentence, 0);
    QCoreApplication::processEvents();
    auto* message = window.statusMessage();
    QCOMPARE(window.statusText(), sentence);
    QCOMPARE(message->toolTip(), sentence);
    // The message ends before the first permanent field starts, and is elided to fit.
    const QRect messageRect = message->geometry();
    for (auto* field : window.statusBar()->findChildren<QLabel*>()) {
      if (field == message || !field->isVisible() || field->text().isEmpty()) continue;
      QVERIFY2(messageRect.right() < field->geometry().left(),
               qPrintable(QStringLiteral("the message overlaps \"%1\"").arg(field->text())));
    }
    QVERIFY(message->fontMetrics().horizontalAdvance(sentence) > message->contentsRect().width());
    QVERIFY(window.clusterStatus()->isVisible());
    QCOMPARE(window.clusterStatus()->text(), QStringLiteral("No cluster"));
    // A timed message goes away by itself.
    window.showStatus(QStringLiteral("Copied"), 50);
    QTRY_COMPARE(window.statusText(), QString());
  }

  void screenshots_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }

  void screenshots() {
    QFETCH(bool, dark);
    applyPalette(*qApp, dark);
    const QString suffix = dark ? QStringLiteral("-dark") : QString();
    MainWindow window(directory_.filePath(QStringLiteral("history.sqlite")));
    JobView* view = nullptr;
    window.setJobViewFactory([&view](const QString& id) -> QWidget* {
      JobViewOptions options;
      options.monitor = false;
      view = new JobView(id, options);
      return view;
    });
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openJob(QStringLiteral("application_1795288567147_0042"));
    QVERIFY(view);

    JobStatus status = sampleJob();
    JobSnapshot snapshot;
    snapshot.reported = true;
    snapshot.yarnState = QStringLiteral("RUNNING");
    snapshot.finalStatus = QStringLiteral("UNDEFINED");
    snapshot.trackingUrl = QStringLiteral("http://rm.example.com:8088/proxy/application_1795288567147_0042/");
    snapshot.mlflowRunUrl = QStringLiteral("http://mlflow.example.com:5000/#/experiments/3/runs/4f2a");
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 120000;
    for (int second = 0; second <= 120; second += 2) {
      for (std::size_t i = 0; i < status.tasks.size(); ++i) {
        auto& one = status.tasks[i];
        if (one.rss_bytes == 0) continue;
        one.rss_bytes = static_cast<std::uint64_t>((300 + 100 * i + 40 * std::sin(second / (7.0 + i))) * 1024 * 1024);
        one.cpu_seconds += 2.0 * (0.4 + 0.3 * std::sin(second / (5.0 + i)) + 0.1 * i);
      }
      snapshot.status = status;
      snapshot.takenMs = start + second * 1000;
      view->applySnapshot(snapshot);
    }
    save(&window, QStringLiteral("job-containers") + suffix);

    // A stalled task, marked in the table and said over the tabs; then working again.
    const qint64 lastTaken = snapshot.takenMs;
    snapshot.takenMs = 0;  // no usage point of its own
    status.tasks[1].stalled =
        "stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a "
        "core for 10m (stall_timeout)";
    snapshot.status = status;
    view->applySnapshot(snapshot);
    save(&window, QStringLiteral("job-stalled") + suffix);
    status.tasks[1].stalled.clear();
    snapshot.status = status;
    view->applySnapshot(snapshot);
    snapshot.takenMs = lastTaken;

    view->logViewer()->setFetcher([](const LogViewer::Place&, const std::string&) -> Result<LogViewer::Fetched> {
      std::string text = "TF_CONFIG={\"cluster\": {\"chief\": [\"node-a.example.com:34211\"], ...}\n";
      for (int step = 0; step <= 300; step += 10) {
        text += "step " + std::to_string(step) + ": loss=" + std::to_string(2.0 * std::exp(-step / 90.0)) +
                " accuracy=" + std::to_string(0.4 + 0.5 * (1 - std::exp(-step / 80.0))) + "\n";
      }
      return LogViewer::Fetched{text, true};
    });
    view->showLogsOf(QStringLiteral("chief:0"));
    QTRY_VERIFY(view->logViewer()->text().contains(QLatin1String("step 300")));
    save(&window, QStringLiteral("job-logs") + suffix);

    ScalarFeed feed;
    connect(&feed, &ScalarFeed::pointsArrived, view->scalarChart(),
            [view](const ScalarBatch& batch) { view->scalarChart()->addPoints(batch.points); });
    QSignalSpy polled(&feed, &ScalarFeed::polled);
    feed.setDirectory(logDirectory_);
    feed.poll();
    QVERIFY(polled.wait(30000));
    view->scalarChart()->setCurrentTag(QStringLiteral("loss"));
    view->tabs()->setCurrentIndex(JobView::MetricsPage);
    view->scalarChart()->flush();
    save(&window, QStringLiteral("job-metrics") + suffix);

    view->tabs()->setCurrentIndex(JobView::ResourcesPage);
    view->usageChart()->flush();
    save(&window, QStringLiteral("job-resources") + suffix);
    applyPalette(*qApp, false);
  }

  // QDesktopServices' handler for http URLs while a test needs it.
 public slots:
  void openedUrl(const QUrl& url) { opened_ = url; }

 private:
  static void save(QWidget* widget, const QString& name) { saveScreenshot(widget, name); }

  QTemporaryDir directory_;
  QString logDirectory_;
  QUrl opened_;
};

SPINDLE_GUI_TEST_MAIN(JobViewTest)
#include "jobview_test.moc"
