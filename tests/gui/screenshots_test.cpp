// Renders each main view with QWidget::grab() into <build>/screenshots/,
// light and dark, so CI keeps a picture of what users see.
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "designer/applicationpage.h"
#include "designer/jobdesignerwidget.h"
#include "gui_test_main.h"
#include "jobs/jobswidget.h"
#include "mainwindow.h"
#include "screenshot.h"
#include "spindle/client/history_store.h"
#include "theme.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

void fillHistory(const QString& path) {
  auto store = client::HistoryStore::open(path.toStdString());
  QVERIFY(store);
  const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
  struct Row {
    const char* id;
    const char* name;
    const char* queue;
    const char* state;
    std::int64_t age;
    std::int64_t length;
  };
  const Row rows[] = {
      {"application_1795288567147_0031", "wine-parameter-server", "default", "running", 300000, 0},
      {"application_1795288567147_0030", "wine-multi-worker", "default", "succeeded", 3600000, 412000},
      {"application_1795288567147_0029", "resnet-sweep-lr-0.01", "ml-gpu", "failed", 7200000, 1260000},
      {"application_1795288567147_0028", "wine-quality", "default", "succeeded", 9000000, 201000},
      {"application_1795288567147_0027", "bert-finetune", "ml-gpu", "killed", 86400000, 5400000},
      {"application_1795288567147_0032", "nightly-eval", "default", "accepted", 20000, 0},
  };
  for (const auto& row : rows) {
    client::JobHistoryEntry entry;
    entry.application_id = row.id;
    entry.name = row.name;
    entry.user = "alice";
    entry.queue = row.queue;
    entry.submitted_ms = now - row.age;
    QVERIFY(store->record_job(entry));
    if (std::string(row.state) == "accepted") continue;
    QVERIFY(store->record_state(row.id, row.state, std::string(row.state) == "failed" ? "worker:1 exited with 1" : "",
                                now - row.age + 4000, row.length ? now - row.age + 4000 + row.length : 0));
  }
}

}  // namespace

class ScreenshotsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(directory_.isValid());
    history_ = directory_.filePath(QStringLiteral("history.sqlite"));
    fillHistory(history_);
    // As if the venv of scripts/setup were activated: the examples ship python_env: current.
    qputenv("VIRTUAL_ENV", QStringLiteral(SPINDLE_PYTHON).section(QLatin1Char('/'), 0, -3).toLocal8Bit());
  }

  void views_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }

  void views() {
    QFETCH(bool, dark);
    applyPalette(*qApp, dark);
    const QString suffix = dark ? QStringLiteral("-dark") : QString();
    MainWindow window(history_);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    window.showJobs();
    window.jobsWidget()->selectApplication(QStringLiteral("application_1795288567147_0031"));
    saveScreenshot(&window, QStringLiteral("jobs") + suffix);

    QString error;
    QVERIFY2(
        window.designer()->openFile(
            QStringLiteral(SPINDLE_SOURCE_DIR "/resources/examples/parameter-server/parameter_server.yaml"), &error),
        qPrintable(error));
    window.showDesigner();
    // The Application page describes the example's python_env (current: the venv of scripts/setup).
    window.designer()->showPage(QString());
    const QString hint = QStringLiteral(SPINDLE_PYTHON).section(QLatin1Char('/'), 0, -3) + QStringLiteral(": ");
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          for (auto* label : window.designer()->applicationPage()->findChildren<QLabel*>()) {
            if (label->text().startsWith(hint)) return true;
          }
          return false;
        }(),
        20000);
    QWidget* environmentField = window.designer()->fieldWidget(QStringLiteral("python_env"));
    for (QWidget* up = environmentField; up; up = up->parentWidget()) {
      if (auto* area = qobject_cast<QScrollArea*>(up)) {
        QCoreApplication::processEvents();  // the page grew by the hint's lines
        area->ensureWidgetVisible(environmentField, 0, 200);
      }
    }
    QCoreApplication::processEvents();
    saveScreenshot(&window, QStringLiteral("designer-application") + suffix);
    window.designer()->showPage(QStringLiteral("worker"));
    saveScreenshot(&window, QStringLiteral("designer") + suffix);

    // The same page with a mistake being typed.
    auto* memory = window.designer()->fieldWidget(QStringLiteral("tasks.worker.memory"));
    QMetaObject::invokeMethod(memory, "setText", Q_ARG(QString, QStringLiteral("2 GB")));
    window.designer()->validateNow();
    saveScreenshot(&window, QStringLiteral("designer-problem") + suffix);

    window.openJob(QStringLiteral("application_1795288567147_0029"));
    saveScreenshot(&window, QStringLiteral("job-summary") + suffix);
    applyPalette(*qApp, false);
  }

 private:
  QTemporaryDir directory_;
  QString history_;
};

SPINDLE_GUI_TEST_MAIN(ScreenshotsTest)
#include "screenshots_test.moc"
