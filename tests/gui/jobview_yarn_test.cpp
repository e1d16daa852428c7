// A real job on the local YARN (the wine-quality example: chief,
// evaluator, TensorBoard; real TensorFlow) opened in the job view: the
// container table shows each task's transitions up to SUCCEEDED, the log
// viewer follows the chief, and the charts show the job's loss from its
// event files and its containers' memory.
#include <QAction>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <functional>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "cluster/clusterinfoloader.h"
#include "cluster/clusterview.h"
#include "compare/compareview.h"
#include "designer/jobdesignerwidget.h"
#include "gui_test_main.h"
#include "jobview/containertablemodel.h"
#include "jobview/jobview.h"
#include "jobview/logviewer.h"
#include "jobview/scalarchartview.h"
#include "jobview/scalarfeed.h"
#include "jobview/usagechartview.h"
#include "mainwindow.h"
#include "notify/jobendwatcher.h"
#include "screenshot.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/tfevents.h"
#include "submit_job.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

// A port on loopback where connections are taken into the backlog and never
// answered; close() makes them refused.
struct SilentListener {
  int fd = -1;
  quint16 port = 0;
  SilentListener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(fd, 64) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return;
    }
    port = ntohs(address.sin_port);
  }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  ~SilentListener() { close(); }
};

}  // namespace

class JobViewYarnTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("HADOOP_CONF_DIR"), "needs the local YARN's HADOOP_CONF_DIR");
    setup_ = HadoopSetup{qEnvironmentVariable("HADOOP_CONF_DIR")};
    QVERIFY(directory_.isValid());
    QFile::setPermissions(directory_.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                 QFileDevice::ReadGroup | QFileDevice::ExeGroup |
                                                 QFileDevice::ReadOther | QFileDevice::ExeOther);
  }

  // A job ending on the local YARN produces exactly one notification with
  // its state: through the app's own seam, and over a real D-Bus
  // notification service (dunst, on a session bus and an Xvfb display of
  // this test's own). Its default action, as a click invokes it, opens the
  // job. First of the tests: the session bus is chosen at its first use.
  void aJobThatEndsIsNotifiedOnceOverDBus() {
    int display = 0;
    for (int candidate = 151; candidate < 200 && !display; ++candidate) {
      if (!QFile::exists(QStringLiteral("/tmp/.X%1-lock").arg(candidate))) display = candidate;
    }
    QVERIFY(display);
    const QString displayName = QStringLiteral(":%1").arg(display);
    QProcess xvfb;
    xvfb.start(QStringLiteral("Xvfb"),
               {displayName, QStringLiteral("-screen"), QStringLiteral("0"), QStringLiteral("1024x768x24"),
                QStringLiteral("-nolisten"), QStringLiteral("tcp")});
    QVERIFY(xvfb.waitForStarted());
    QProcess bus;
    bus.start(QStringLiteral("dbus-daemon"),
              {QStringLiteral("--session"), QStringLiteral("--nofork"), QStringLiteral("--print-address=1")});
    QVERIFY(bus.waitForReadyRead(10000));
    const QString address = QString::fromUtf8(bus.readLine()).trimmed();
    QVERIFY2(address.startsWith(QLatin1String("unix:")), qPrintable(address));
    qputenv("DBUS_SESSION_BUS_ADDRESS", address.toUtf8());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DISPLAY"), displayName);
    environment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address);
    QProcess dunst;
    dunst.setProcessEnvironment(environment);
    dunst.start(QStringLiteral("dunst"), QStringList{});
    QVERIFY(dunst.waitForStarted());
    const auto dunstctl = [&](const QStringList& arguments) {
      QProcess control;
      control.setProcessEnvironment(environment);
      control.start(QStringLiteral("dunstctl"), arguments);
      control.waitForFinished(30000);
      return QString::fromUtf8(control.readAllStandardOutput()).trimmed();
    };
    // dunst owns the notification service once it answers.
    QTRY_VERIFY_WITH_TIMEOUT(dunstctl({QStringLiteral("count"), QStringLiteral("displayed")}) == QLatin1String("0"),
                             20000);
    const auto stop = qScopeGuard([&] {
      dunst.kill();
      bus.kill();
      xvfb.kill();
      dunst.waitForFinished();
      bus.waitForFinished();
      xvfb.waitForFinished();
    });

    MainWindow window;
    window.setSetup(setup_);
    JobView::install(window);
    QSignalSpy notified(&window, &MainWindow::jobEndNotified);
    QTest::qWait(3000);  // the jobs list's first look: what ended before is not news
    QProcess submit;
    submit.start(QStringLiteral(SPINDLE_CLI_PATH),
                 {QStringLiteral("submit"), QStringLiteral("--json"), QStringLiteral("-r"), QStringLiteral("worker:1"),
                  QStringLiteral("-n"), QStringLiteral("notify-me"), QStringLiteral("-m"), QStringLiteral("256 MiB"),
                  QStringLiteral("--"), QStringLiteral("sleep 2")});
    QVERIFY(submit.waitForFinished(300000));
    QCOMPARE(submit.exitCode(), 0);
    const QString id =
        QJsonDocument::fromJson(submit.readAllStandardOutput()).object()[QStringLiteral("application_id")].toString();
    QVERIFY(notified.wait(180000));
    QTest::qWait(5000);  // and no second one for the same end
    QCOMPARE(notified.count(), 1);
    const auto notice = notified.front().front().value<JobEndNotice>();
    QCOMPARE(notice.applicationId, id);
    QCOMPARE(notice.state, QStringLiteral("succeeded"));
    QTRY_COMPARE_WITH_TIMEOUT(dunstctl({QStringLiteral("count"), QStringLiteral("displayed")}), QStringLiteral("1"),
                              20000);
    // Clicking it (its default action) opens the job in the window.
    dunstctl({QStringLiteral("action"), QStringLiteral("0")});
    QTRY_VERIFY_WITH_TIMEOUT(window.jobTab(id) != nullptr, 20000);
    dunstctl({QStringLiteral("close-all")});
    const QString history = dunstctl({QStringLiteral("history")});
    QCOMPARE(history.count(QStringLiteral("\"notify-me succeeded\"")), 1);
    QVERIFY2(history.contains(id), qPrintable(history.left(2000)));
  }

  // The Cluster tab shows what `spindle cluster nodes|queues|labels --json`
  // say, also while a job holds the GPUs; when the cluster stops answering
  // it keeps the last answer, says when it was heard, and the event loop
  // never stalls meanwhile.
  void clusterViewShowsWhatTheCliSays() {
    ClusterView view;
    QSignalSpy refreshed(&view, &ClusterView::refreshed);
    view.setSetup(setup_);
    view.setIntervalMs(600000);  // the test asks itself
    view.resize(1280, 800);
    view.show();
    QVERIFY(refreshed.wait(60000));
    QCOMPARE(refreshed.takeFirst().front().toBool(), true);

    const auto cli = [](const QStringList& arguments) {
      QProcess process;
      process.start(QStringLiteral(SPINDLE_CLI_PATH), arguments);
      process.waitForFinished(120000);
      return QJsonDocument::fromJson(process.readAllStandardOutput());
    };
    // Node id -> "containers gpus-used/gpus memory-used/memory", as each side says it.
    const auto fromCli = [&] {
      QMap<QString, QString> nodes;
      for (const auto& value :
           cli({QStringLiteral("cluster"), QStringLiteral("nodes"), QStringLiteral("--json")}).array()) {
        const QJsonObject node = value.toObject();
        const QJsonObject used = node[QStringLiteral("used")].toObject();
        const QJsonObject capability = node[QStringLiteral("capability")].toObject();
        nodes[node[QStringLiteral("id")].toString()] = QStringLiteral("%1 %2 / %3 %4 / %5")
                                                           .arg(node[QStringLiteral("containers")].toInt())
                                                           .arg(used[QStringLiteral("yarn.io/gpu")].toInt())
                                                           .arg(capability[QStringLiteral("yarn.io/gpu")].toInt())
                                                           .arg(used[QStringLiteral("memory_mib")].toInt())
                                                           .arg(capability[QStringLiteral("memory_mib")].toInt());
      }
      return nodes;
    };
    const auto fromView = [&] {
      QMap<QString, QString> nodes;
      auto* model = view.nodesModel();
      for (int row = 0; row < model->rowCount(); ++row) {
        nodes[model->item(row, 0)->text()] = model->item(row, 3)->text() + QLatin1Char(' ') +
                                             model->item(row, 6)->text() + QLatin1Char(' ') +
                                             model->item(row, 4)->text();
      }
      return nodes;
    };
    QCOMPARE(fromView(), fromCli());

    // Queues: the same tree, leaf by leaf.
    QStringList cliQueues;
    std::function<void(const QJsonObject&)> walk = [&](const QJsonObject& queue) {
      cliQueues << queue[QStringLiteral("name")].toString();
      for (const auto& child : queue[QStringLiteral("children")].toArray()) walk(child.toObject());
    };
    walk(cli({QStringLiteral("cluster"), QStringLiteral("queues"), QStringLiteral("--json")}).object());
    QStringList viewQueues;
    for (QTreeWidgetItemIterator it(view.queues()); *it; ++it) viewQueues << (*it)->text(0);
    cliQueues.sort();
    viewQueues.sort();
    QCOMPARE(viewQueues, cliQueues);
    // Labels: every label the CLI lists, with its number of nodes.
    for (const auto& value :
         cli({QStringLiteral("cluster"), QStringLiteral("labels"), QStringLiteral("--json")}).array()) {
      const QJsonObject label = value.toObject();
      const auto found = view.labelsModel()->findItems(label[QStringLiteral("name")].toString());
      QCOMPARE(found.size(), 1);
      QCOMPARE(view.labelsModel()->item(found.front()->row(), 1)->text().toInt(),
               label[QStringLiteral("nodes")].toArray().size());
    }

    // A job takes both GPUs: the GPUs used change in the view as in the CLI.
    QString id;
    submitGpuHolder(&id);
    if (QTest::currentTestFailed()) return;
    bool taken = false;
    for (int round = 0; round < 60 && !taken; ++round) {
      view.refresh();
      QVERIFY(refreshed.wait(60000));
      taken = fromView().values().join(QLatin1Char(' ')).contains(QLatin1String(" 2 / 2 "));
      if (!taken) QTest::qWait(1000);
    }
    const auto viewed = fromView();
    const auto said = fromCli();
    // Running and pending applications per queue, as the scheduler counts them.
    QMap<QString, QString> cliApps;
    std::function<void(const QJsonObject&)> count = [&](const QJsonObject& queue) {
      cliApps[queue[QStringLiteral("name")].toString()] = QStringLiteral("%1 %2")
                                                              .arg(queue[QStringLiteral("apps_running")].toInt())
                                                              .arg(queue[QStringLiteral("apps_pending")].toInt());
      for (const auto& child : queue[QStringLiteral("children")].toArray()) count(child.toObject());
    };
    count(cli({QStringLiteral("cluster"), QStringLiteral("queues"), QStringLiteral("--json")}).object());
    QMap<QString, QString> viewApps;
    for (QTreeWidgetItemIterator it(view.queues()); *it; ++it) {
      viewApps[(*it)->text(0)] = (*it)->text(5) + QLatin1Char(' ') + (*it)->text(6);
    }
    QProcess kill;
    kill.start(QStringLiteral(SPINDLE_CLI_PATH), {QStringLiteral("kill"), id});
    QVERIFY(kill.waitForFinished(120000));
    QVERIFY2(taken, qPrintable(QStringList(viewed.values()).join(QLatin1Char('\n'))));
    QCOMPARE(viewed, said);
    QCOMPARE(viewApps, cliApps);
    QCOMPARE(viewApps.value(QStringLiteral("ml-gpu")), QStringLiteral("1 0"));
    saveScreenshot(&view, QStringLiteral("cluster-view"));

    // The cluster goes away: a ResourceManager address where a socket accepts and never answers.
    SilentListener silent;
    QVERIFY(silent.port != 0);
    const QString deadConf = directory_.filePath(QStringLiteral("dead-conf"));
    QDir().mkpath(deadConf);
    for (const QString& name : QDir(setup_.directory).entryList(QDir::Files)) {
      QFile::copy(QDir(setup_.directory).filePath(name), QDir(deadConf).filePath(name));
    }
    QFile yarnSite(QDir(deadConf).filePath(QStringLiteral("yarn-site.xml")));
    QVERIFY(yarnSite.open(QIODevice::ReadOnly));
    QString xml = QString::fromUtf8(yarnSite.readAll());
    yarnSite.close();
    xml.replace(
        QRegularExpression(QStringLiteral("(<name>yarn\\.resourcemanager\\.address</name>\\s*<value>)[^<]*(</value>)")),
        QStringLiteral("\\1127.0.0.1:%1\\2").arg(silent.port));
    QVERIFY(yarnSite.open(QIODevice::WriteOnly | QIODevice::Truncate));
    yarnSite.write(xml.toUtf8());
    yarnSite.close();
    const QString lastAnswer = view.heard()->text();
    view.setSetup(HadoopSetup{deadConf});  // asks at once, since it is visible
    // An event-loop watchdog: the longest gap between 10 ms ticks while the view asks.
    qint64 longest = 0;
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
      longest = std::max(longest, clock.elapsed() - last);
      last = clock.elapsed();
    });
    tick.start(10);
    QTest::qWait(3000);
    tick.stop();
    QVERIFY2(longest < 100, qPrintable(QStringLiteral("the event loop stalled for %1 ms").arg(longest)));
    QVERIFY(view.isAsking());
    QCOMPARE(view.heard()->text(), lastAnswer);  // the last answer stays while it waits
    QVERIFY(view.nodesModel()->rowCount() > 0);
    silent.close();  // now refused: the asking fails and says so
    QVERIFY(refreshed.wait(300000));
    QCOMPARE(refreshed.takeLast().front().toBool(), false);
    QVERIFY2(view.heard()->text().startsWith(QLatin1String("Last heard from the cluster at ")),
             qPrintable(view.heard()->text()));
    QVERIFY(view.nodesModel()->rowCount() > 0);
  }

  // Three real short jobs at different learning rates, compared: each job's
  // series equals TensorBoard's own reading of its event files, the table
  // has their final and best losses, and the spec keys that differ are the
  // ones the runs were given differently.
  void comparingThreeLearningRates() {
    QStringList ids;
    QMap<QString, QString> outputs;
    for (const QString& rate : {QStringLiteral("0.01"), QStringLiteral("0.05"), QStringLiteral("0.2")}) {
      const QString output = directory_.filePath(QStringLiteral("lr-") + rate);
      QDir().mkpath(output);
      QFile::setPermissions(output, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                        QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
      const QString spec = directory_.filePath(QStringLiteral("lr-%1.json").arg(rate));
      QFile file(spec);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(
          QJsonDocument(
              QJsonObject{
                  {QStringLiteral("name"), QStringLiteral("sweep-lr-") + rate},
                  {QStringLiteral("output"), output},
                  {QStringLiteral("files"),
                   QJsonObject{{QStringLiteral("learning_rate_run.py"),
                                QStringLiteral(SPINDLE_SOURCE_DIR "/tests/python/learning_rate_run.py")}}},
                  {QStringLiteral("tasks"),
                   QJsonObject{{QStringLiteral("chief"),
                                QJsonObject{{QStringLiteral("memory"), QStringLiteral("1 GiB")},
                                            {QStringLiteral("command"), QStringLiteral("python learning_rate_run.py "
                                                                                       "\"$DTF_OUTPUT_PATH\" "
                                                                                       "--learning-rate ") +
                                                                            rate}}}}}})
              .toJson());
      file.close();
      QProcess submit;
      submit.start(QStringLiteral(SPINDLE_CLI_PATH),
                   {QStringLiteral("submit"), QStringLiteral("--wait"), QStringLiteral("--json"), spec});
      QVERIFY(submit.waitForFinished(300000));
      const QByteArray answer = submit.readAllStandardOutput();
      QVERIFY2(submit.exitCode() == 0, submit.readAllStandardError().constData());
      const QString id = QJsonDocument::fromJson(answer).object()[QStringLiteral("application_id")].toString();
      QVERIFY(!id.isEmpty());
      ids << id;
      outputs[id] = output;
    }

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.compareJobs(ids);
    auto* view = qobject_cast<CompareView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QSignalSpy loaded(view, &CompareView::loaded);
    QVERIFY(loaded.wait(120000));
    QVERIFY2(view->differingKeys().contains(QStringLiteral("tasks.chief.command")),
             qPrintable(view->differingKeys().join(QLatin1Char(' '))));
    QVERIFY(view->differingKeys().contains(QStringLiteral("name")));
    QVERIFY(view->differingKeys().contains(QStringLiteral("output")));
    QVERIFY(!view->differingKeys().contains(QStringLiteral("tasks.chief.memory")));  // the same in all three
    view->chart()->setCurrentTag(QStringLiteral("loss"));
    QCOMPARE(view->table()->rowCount(), 3);
    for (const QString& id : ids) {
      QProcess tensorboard;
      tensorboard.start(QStringLiteral(SPINDLE_PYTHON),
                        {QStringLiteral(SPINDLE_SOURCE_DIR "/tests/python/tensorboard_read.py"), outputs[id]});
      QVERIFY(tensorboard.waitForFinished(120000));
      const QJsonArray expected = QJsonDocument::fromJson(tensorboard.readAllStandardOutput())
                                      .object()[QStringLiteral("train")]
                                      .toObject()[QStringLiteral("loss")]
                                      .toArray();
      QCOMPARE(expected.size(), 40);
      const QVector<QPointF> shown = view->chart()->points(QStringLiteral("loss"), view->seriesName(id, "train"));
      QCOMPARE(shown.size(), expected.size());
      for (int i = 0; i < shown.size(); ++i) {
        QCOMPARE(shown[i].x(), expected[i].toArray()[0].toDouble());
        QVERIFY(qFuzzyCompare(shown[i].y(), expected[i].toArray()[1].toDouble()));
      }
      // Its row: the final loss is the last step's, the best the lowest.
      const auto rows = view->table()->findItems(view->seriesName(id, "train"), Qt::MatchExactly);
      QCOMPARE(rows.size(), 1);
      const int row = rows.front()->row();
      QVERIFY(qFuzzyCompare(view->table()->item(row, 2)->data(Qt::DisplayRole).toDouble(),
                            expected.last().toArray()[1].toDouble()));
      double lowest = expected.first().toArray()[1].toDouble();
      for (const auto& point : expected) lowest = std::min(lowest, point.toArray()[1].toDouble());
      QVERIFY(qFuzzyCompare(view->table()->item(row, 3)->data(Qt::DisplayRole).toDouble(), lowest));
    }
    saveScreenshot(&window, QStringLiteral("compare-runs"));
  }

  // The designer's "Fit now" tab on the real cluster: a job asking for a GPU
  // fits; once a job the app submitted holds both GPUs of the gpu node, it
  // waits, and the tab says how many are free, as `spindle validate --cluster`
  // does.
  void designerSaysAJobWaitsWhileTheGpusAreTaken() {
    JobDesignerWidget designer;
    ClusterInfoLoader loader;
    QSignalSpy loaded(&loader, &ClusterInfoLoader::loaded);
    connect(&loader, &ClusterInfoLoader::loaded, &designer, &JobDesignerWidget::setClusterInfo);
    connect(&designer, &JobDesignerWidget::clusterRefreshRequested, &loader, [&] { loader.load(setup_); });
    auto wanted = parse_job_spec(
        "name: wants-a-gpu\nqueue: ml-gpu\ntasks: {worker: {memory: 256 MiB, gpus: 1, node_label: gpu, command: "
        "'true'}}\n",
        {});
    QVERIFY(wanted);
    designer.loadSpec(*wanted);
    loader.load(setup_);
    QVERIFY(loaded.wait(60000));
    designer.validateNow();
    QVERIFY2(designer.fitLines().contains(
                 QStringLiteral("worker: fits now (1 container of 256 MiB, 1 vcore, 1 GPU on label gpu)")),
             qPrintable(designer.fitLines().join(QLatin1Char('\n'))));

    QString id;
    submitGpuHolder(&id);
    if (QTest::currentTestFailed()) return;
    const QRegularExpression waits(QStringLiteral(
        "^worker: waits: 0 of 1 container fit now; label gpu has 0 of its 2 GPUs free \\(2 in use\\), and each worker "
        "container needs 1; queue ml-gpu runs [1-9]\\d* applications?"));
    bool seen = false;
    for (int round = 0; round < 60 && !seen; ++round) {
      emit designer.clusterRefreshRequested();
      QVERIFY(loaded.wait(60000));
      designer.validateNow();
      seen = !designer.fitLines().filter(waits).isEmpty();
      if (!seen) QTest::qWait(1000);
    }
    const QStringList lines = designer.fitLines();
    QProcess kill;
    kill.start(QStringLiteral(SPINDLE_CLI_PATH), {QStringLiteral("kill"), id});
    QVERIFY(kill.waitForFinished(120000));
    QVERIFY2(seen, qPrintable(lines.join(QLatin1Char('\n'))));
    designer.resize(1280, 800);
    designer.show();
    auto* tabs = designer.findChildren<QTabWidget*>().constLast();
    for (int index = 0; index < tabs->count(); ++index) {
      if (tabs->tabText(index).contains(QLatin1String("it now"))) tabs->setCurrentIndex(index);
    }
    saveScreenshot(&designer, QStringLiteral("designer-fit-waits"));
  }

  void realJobInTheJobView() {
    auto spec = load_job_spec(SPINDLE_SOURCE_DIR "/resources/examples/wine-quality/wine_quality.yaml");
    // This cluster's nodes run containers with the venv of scripts/setup; shipping the
    // environment is proven on the bare nodes of the hosts cluster.
    if (spec) spec->python_env.clear();
    QVERIFY2(spec, spec ? "" : format_diagnostics(spec.error()).c_str());
    const QString output = directory_.filePath(QStringLiteral("output"));
    spec->output = output.toStdString();
    spec->name = "gui-jobview-test";

    QString id;
    submitThroughTheApp(*spec, setup_, &id);
    if (QTest::currentTestFailed()) return;

    JobViewOptions options;
    options.setup = setup_;
    options.pollIntervalMs = 500;
    options.scalarIntervalMs = 2000;
    JobView view(id, options);
    view.resize(1280, 800);
    view.show();

    // Every phase each task's row shows, in order, without repeats.
    QMap<QString, QStringList> seen;
    bool darkNow = false;  // while a dark screenshot is taken, the colours are the dark ones
    auto record = [&] {
      for (int row = 0; row < view.model()->rowCount(); ++row) {
        const QModelIndex state = view.model()->index(row, ContainerTableModel::StateColumn);
        const QString task = state.data(ContainerTableModel::TaskRole).toString();
        const QString phase = state.data(ContainerTableModel::PhaseRole).toString();
        auto& phases = seen[task];
        if (phases.isEmpty() || phases.back() != phase) phases << phase;
        // The colour of each state is the one its phase has.
        if (!darkNow && state.data(Qt::BackgroundRole).value<QColor>() != phaseColors(phase, false).background) {
          qWarning() << "wrong colour for" << task << phase;
          seen[QStringLiteral("colour")] << phase;
        }
      }
    };
    connect(view.model(), &QAbstractItemModel::dataChanged, this, record);
    connect(view.model(), &QAbstractItemModel::rowsInserted, this, record);
    QStringList states;
    connect(&view, &JobView::stateChanged, this, [&states](const QString& state) { states << state; });

    // Follow the chief's stderr while it runs.
    bool following = false;
    auto printSeen = qScopeGuard([&] {
      if (QTest::currentTestFailed()) {
        for (auto it = seen.constBegin(); it != seen.constEnd(); ++it)
          qWarning().noquote() << it.key() << it.value().join(QStringLiteral(" -> "));
        qWarning().noquote() << "job states:" << states.join(QStringLiteral(" -> "));
      }
    });
    bool runningShot = false;
    QVERIFY(QTest::qWaitFor(
        [&] {
          // The running job's containers, in both palettes, once the chief runs.
          const int chiefRow = view.model()->rowOfTask(QStringLiteral("chief:0"));
          if (!runningShot && chiefRow >= 0 &&
              view.model()->index(chiefRow, ContainerTableModel::StateColumn).data(ContainerTableModel::PhaseRole) ==
                  QStringLiteral("running")) {
            runningShot = true;
            const int page = view.tabs()->currentIndex();
            view.tabs()->setCurrentIndex(JobView::ContainersPage);
            for (const bool dark : {false, true}) {
              darkNow = dark;
              applyPalette(*qApp, dark);
              saveScreenshot(&view,
                             dark ? QStringLiteral("yarn-job-running-dark") : QStringLiteral("yarn-job-running"));
            }
            applyPalette(*qApp, false);
            darkNow = false;
            view.tabs()->setCurrentIndex(page);
          }
          if (!following && view.model()->rowOfTask(QStringLiteral("chief:0")) >= 0) {
            const int row = view.model()->rowOfTask(QStringLiteral("chief:0"));
            if (!view.model()->index(row, 0).data(ContainerTableModel::ContainerRole).toString().isEmpty()) {
              view.showLogsOf(QStringLiteral("chief:0"));
              view.logViewer()->selectFile(QStringLiteral("stderr"));
              view.logViewer()->setFollow(true);
              following = true;
            }
          }
          return view.state() == QLatin1String("succeeded") || view.state() == QLatin1String("failed") ||
                 view.state() == QLatin1String("killed");
        },
        480000));
    QCOMPARE(view.state(), QStringLiteral("succeeded"));
    record();
    QVERIFY(!seen.contains(QStringLiteral("colour")));

    // The chief was seen starting (launching, registered or running) and then succeeding.
    const QStringList chief = seen.value(QStringLiteral("chief:0"));
    qInfo().noquote() << "chief:0" << chief.join(QStringLiteral(" -> "));
    qInfo().noquote() << "evaluator:0" << seen.value(QStringLiteral("evaluator:0")).join(QStringLiteral(" -> "));
    qInfo().noquote() << "tensorboard:0" << seen.value(QStringLiteral("tensorboard:0")).join(QStringLiteral(" -> "));
    QVERIFY2(chief.size() >= 2, qPrintable(chief.join(QLatin1Char(' '))));
    QCOMPARE(chief.back(), QStringLiteral("succeeded"));
    const int started = std::max({static_cast<int>(chief.indexOf(QStringLiteral("launching"))),
                                  static_cast<int>(chief.indexOf(QStringLiteral("registered"))),
                                  static_cast<int>(chief.indexOf(QStringLiteral("running")))});
    QVERIFY2(started >= 0 && started < chief.size() - 1, qPrintable(chief.join(QLatin1Char(' '))));
    // Phases only move forward for a task that was not restarted.
    const QStringList order = {QStringLiteral("requested"), QStringLiteral("launching"), QStringLiteral("registered"),
                               QStringLiteral("running"), QStringLiteral("succeeded")};
    for (int i = 1; i < chief.size(); ++i) QVERIFY(order.indexOf(chief[i - 1]) < order.indexOf(chief[i]));
    QVERIFY(states.contains(QStringLiteral("running")));
    QCOMPARE(states.back(), QStringLiteral("succeeded"));
    // Every task of the spec has its row; exit code 0 for the chief.
    QCOMPARE(view.model()->rowCount(), 3);
    const int chiefRow = view.model()->rowOfTask(QStringLiteral("chief:0"));
    QCOMPARE(view.model()->index(chiefRow, ContainerTableModel::ExitCodeColumn).data().toString(), QStringLiteral("0"));
    QVERIFY(!view.model()->index(chiefRow, ContainerTableModel::HostColumn).data().toString().isEmpty());
    QVERIFY(!view.killAction()->isEnabled());

    // The log viewer followed the chief's stderr from its NodeManager.
    QVERIFY(following);
    QVERIFY2(!view.logViewer()->text().isEmpty(), "nothing was read of the chief's stderr");
    QCOMPARE(view.logViewer()->currentTask(), QStringLiteral("chief:0"));
    // Once the job ended and its logs were collected, the viewer holds the
    // whole file, read from the aggregated logs, down to the executor's last line.
    QVERIFY2(QTest::qWaitFor([&] { return view.logViewer()->isComplete(); }, 180000),
             qPrintable(view.logViewer()->status()));
    QVERIFY2(view.logViewer()->text().endsWith(QStringLiteral("spindle executor: chief:0 exited with 0\n")),
             qPrintable(view.logViewer()->text().right(300)));
    // How the ended job's log looks, in both themes.
    view.tabs()->setCurrentIndex(JobView::LogsPage);
    for (const bool dark : {false, true}) {
      applyPalette(*qApp, dark);
      saveScreenshot(&view, dark ? QStringLiteral("yarn-job-logs-dark") : QStringLiteral("yarn-job-logs"));
    }
    applyPalette(*qApp, false);

    // The charts: the job's loss, as its event files hold it.
    QVERIFY(
        QTest::qWaitFor([&] { return !view.scalarFeed()->isBusy() && !view.scalarChart()->tags().isEmpty(); }, 60000));
    LocalLogFileSystem files;
    LogDirectoryReader reader(files, output.toStdString());
    auto update = reader.poll();
    QVERIFY(update);
    std::map<std::pair<QString, QString>, QVector<QPointF>> expected;
    for (const auto& run : update->runs) {
      for (const auto& point : run.points) {
        expected[{QString::fromStdString(point.tag), QString::fromStdString(run.run)}].append(
            QPointF(static_cast<double>(point.step), point.value));
      }
    }
    QVERIFY(!expected.empty());
    // The last poll after the end may still be on its way.
    QVERIFY(QTest::qWaitFor(
        [&] {
          for (const auto& [key, points] : expected) {
            if (view.scalarChart()->points(key.first, key.second) != points) return false;
          }
          return true;
        },
        30000));
    QString lossTag;
    for (const QString& tag : view.scalarChart()->tags()) {
      if (tag.contains(QLatin1String("loss"))) lossTag = tag;
    }
    QVERIFY2(!lossTag.isEmpty(), qPrintable(view.scalarChart()->tags().join(QLatin1Char(' '))));
    view.tabs()->setCurrentIndex(JobView::MetricsPage);
    view.scalarChart()->setCurrentTag(lossTag);
    int lossPoints = 0;
    for (const QString& run : view.scalarChart()->seriesNames(lossTag)) {
      QVERIFY(view.scalarChart()->displayedSeries(run));
      lossPoints += view.scalarChart()->points(lossTag, run).size();
    }
    QVERIFY(lossPoints > 1);
    qInfo().noquote() << "tags:" << view.scalarChart()->tags().join(QStringLiteral(", ")) << "|" << lossPoints
                      << "points of" << lossTag;
    // Memory of the containers while they ran.
    view.usageChart()->flush();
    const QStringList withMemory = view.usageChart()->seriesNames(UsageChartView::memoryKey);
    QVERIFY2(withMemory.contains(QStringLiteral("chief:0")), qPrintable(withMemory.join(QLatin1Char(' '))));
    for (const QPointF& point : view.usageChart()->points(UsageChartView::memoryKey, QStringLiteral("chief:0"))) {
      QVERIFY(point.y() > 1.0);  // MiB
    }
    // The ended real job, page by page: what the README and docs/desktop-app.md show.
    for (const auto& [page, name] : {std::pair{JobView::ContainersPage, "yarn-job-containers"},
                                     std::pair{JobView::MetricsPage, "yarn-job-metrics"},
                                     std::pair{JobView::ResourcesPage, "yarn-job-resources"}}) {
      view.tabs()->setCurrentIndex(page);
      for (const bool dark : {false, true}) {
        applyPalette(*qApp, dark);
        saveScreenshot(&view, QString::fromLatin1(name) + (dark ? QStringLiteral("-dark") : QString()));
      }
      applyPalette(*qApp, false);
    }
  }

 private:
  // Submits, through the app, a job that holds both GPUs of the gpu node for 10 minutes.
  void submitGpuHolder(QString* id) {
    auto holder = parse_job_spec(
        "name: holds-the-gpus\nqueue: ml-gpu\ntasks: {worker: {memory: 256 MiB, gpus: 2, node_label: gpu, "
        "command: 'sleep 600'}}\n",
        {});
    QVERIFY(holder);
    submitThroughTheApp(*holder, setup_, id);
  }

  HadoopSetup setup_;
  QTemporaryDir directory_;
};

SPINDLE_GUI_TEST_MAIN(JobViewYarnTest)
#include "jobview_yarn_test.moc"
