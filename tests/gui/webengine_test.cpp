// The job view's TensorBoard tab: real TensorBoard over event files real
// TensorFlow wrote, reached through the app's in-process proxy
// (http://127.0.0.1:PORT/tb/<application id>/), loaded in the web view; and
// through a Spindle server's port, as the app connected to one shows it,
// with the token traded for a cookie on the first load.
#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QWebEnginePage>
#include <QWebEngineView>
#include <QtTest>
#include <atomic>

#include "gui_test_main.h"
#include "jobview/jobview.h"
#include "jobview/tensorboardproxy.h"
#include "jobview/tensorboardtab.h"
#include "spindle/client/dashboard_client.h"
#include "spindle/serve/dashboard.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

// Offscreen there is no OpenGL: Qt Quick's software renderer draws the
// pages (Chromium runs with --disable-gpu, see CMakeLists.txt).
const bool softwareRendering = [] {
  if (qEnvironmentVariableIsEmpty("QT_QUICK_BACKEND")) qputenv("QT_QUICK_BACKEND", "software");
  return true;
}();

quint16 freePort() {
  QTcpServer server;
  if (!server.listen(QHostAddress::LocalHost, 0)) return 0;
  return server.serverPort();
}

// Whether an HTTP GET of `path` answers 200.
bool answers(quint16 port, const QByteArray& path) {
  QTcpSocket socket;
  socket.connectToHost(QHostAddress::LocalHost, port);
  if (!socket.waitForConnected(1000)) return false;
  socket.write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  QByteArray answer;
  while (socket.waitForReadyRead(5000)) answer += socket.readAll();
  return answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.0 200");
}

QVariant runJavaScript(QWebEnginePage* page, const QString& script) {
  QVariant result;
  bool done = false;
  page->runJavaScript(script, [&](const QVariant& value) {
    result = value;
    done = true;
  });
  if (!QTest::qWaitFor([&] { return done; }, 10000)) qWarning("the script gave no answer within 10 s");
  return result;
}

// A cluster that knows one job, whose TensorBoard is the test's; the
// server's screen, proxy and token are the real ones.
class OneTensorBoard final : public serve::ClusterAccess {
 public:
  explicit OneTensorBoard(quint16 port) : port_(port) {}
  serve::ApiReply session() override { return {200, {{"user", "tester"}}}; }
  serve::ApiReply jobs(bool, const std::string&) override { return unused(); }
  serve::ApiReply job(const std::string&) override { return unused(); }
  serve::ApiReply spec(const std::string&) override { return unused(); }
  serve::ApiReply metrics(const std::string&, std::uint64_t) override { return unused(); }
  serve::ApiReply logs(const std::string&, const std::string&, const std::string&, std::uint64_t) override {
    return unused();
  }
  serve::ApiReply kill(const std::string&) override { return unused(); }
  serve::ApiReply cluster() override { return unused(); }
  serve::ApiReply validate(const std::string&) override { return unused(); }
  serve::ApiReply submit(const std::string&, const std::vector<serve::UploadedFile>&,
                         const std::optional<serve::UploadedKeytab>&) override {
    return unused();
  }
  serve::ApiReply sweeps() override { return unused(); }
  serve::ApiReply sweep(const std::string&) override { return unused(); }
  serve::ApiReply sweep_kill(const std::string&) override { return unused(); }
  serve::ApiReply trial_end(const std::string&, int, bool) override { return unused(); }
  tbproxy::UpstreamResolver tensorboards() override {
    return [port = port_](const std::string& application) -> tbproxy::UpstreamLookup {
      if (application != "application_1795288567147_0008") {
        return tbproxy::UpstreamUnavailable{tbproxy::UpstreamState::unknown, "no such job"};
      }
      return tbproxy::UpstreamAddress{"127.0.0.1", port};
    };
  }

 private:
  static serve::ApiReply unused() { return serve::refusal(404, "not part of this test"); }
  quint16 port_;
};

}  // namespace

class WebEngineTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(directory_.isValid());
    const QString logdir = directory_.filePath(QStringLiteral("logs"));
    QProcess writer;
    writer.start(QStringLiteral(SPINDLE_PYTHON),
                 {QStringLiteral(SPINDLE_SOURCE_DIR "/tests/python/write_scalar_events.py"), logdir,
                  QStringLiteral("--steps"), QStringLiteral("30")});
    QVERIFY(writer.waitForFinished(240000));
    QVERIFY2(writer.exitCode() == 0, writer.readAllStandardError().constData());

    port_ = freePort();
    QVERIFY(port_ != 0);
    tensorboard_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    tensorboard_.start(
        QStringLiteral(SPINDLE_PYTHON),
        {QStringLiteral("-m"), QStringLiteral("tensorboard.main"), QStringLiteral("--logdir"), logdir,
         QStringLiteral("--port"), QString::number(port_), QStringLiteral("--host"), QStringLiteral("127.0.0.1")});
    QVERIFY(tensorboard_.waitForStarted(10000));
    QVERIFY2(QTest::qWaitFor([&] { return answers(port_, "/data/runs"); }, 120000), "TensorBoard did not come up");

    // The app's proxy, resolving our one job to that TensorBoard.
    TensorBoardProxy::shared().setResolver(
        [port = port_, this](const std::string& application) -> tbproxy::UpstreamLookup {
          ++lookups_;
          if (application != "application_1795288567147_0007") {
            return tbproxy::UpstreamUnavailable{tbproxy::UpstreamState::unknown, "no such job"};
          }
          return tbproxy::UpstreamAddress{"127.0.0.1", port};
        });
  }

  void cleanupTestCase() {
    TensorBoardProxy::shared().stop();
    tensorboard_.terminate();
    if (!tensorboard_.waitForFinished(10000)) tensorboard_.kill();
  }

  void tensorBoardTabLoadsThroughTheProxy() {
    const QString id = QStringLiteral("application_1795288567147_0007");
    JobViewOptions options;
    options.monitor = false;
    TensorBoardTab* tab = nullptr;
    options.tensorBoardTab = [&tab](const QUrl& url) -> QWidget* {
      tab = new TensorBoardTab(url);
      return tab;
    };
    JobView view(id, options);
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.tabs()->setCurrentIndex(JobView::TensorBoardPage);
    QVERIFY(tab);
    QCOMPARE(view.tensorBoardWidget(), static_cast<QWidget*>(tab));

    const QUrl url = tab->url();
    QCOMPARE(url.host(), QStringLiteral("127.0.0.1"));
    QCOMPARE(url.port(), static_cast<int>(TensorBoardProxy::shared().port()));
    QVERIFY(url.port() != port_);
    QCOMPARE(url.path(), QStringLiteral("/tb/%1/").arg(id));

    QSignalSpy loaded(tab, &TensorBoardTab::loadFinished);
    QVERIFY(loaded.count() > 0 || loaded.wait(120000));
    QCOMPARE(loaded.back().front().toBool(), true);
    QVERIFY(lookups_ > 0);
    QVERIFY(tab->view()->url().toString().startsWith(url.toString()));

    // TensorBoard's own page, its scripts running: the title and the app element.
    QVERIFY(QTest::qWaitFor([&] { return tab->view()->title().contains(QLatin1String("TensorBoard")); }, 30000));
    const QString html =
        runJavaScript(tab->view()->page(), QStringLiteral("document.documentElement.outerHTML")).toString();
    QVERIFY2(html.contains(QLatin1String("TensorBoard")) || html.contains(QLatin1String("tensorboard")),
             qPrintable(html.left(400)));
    // Its data API answers through the same proxy, as the page asks it.
    const QString runs =
        runJavaScript(tab->view()->page(),
                      QStringLiteral("(function(){var r=new XMLHttpRequest();r.open('GET','data/runs',false);"
                                     "r.send();return r.status+' '+r.responseText;})()"))
            .toString();
    QVERIFY2(runs.startsWith(QLatin1String("200")) && runs.contains(QLatin1String("train")), qPrintable(runs));

    // A picture of the tab, for CI.
    QTest::qWait(3000);
    QDir().mkpath(QStringLiteral(SPINDLE_SCREENSHOT_DIR));
    const QImage image = view.grab().toImage();
    QVERIFY(!image.isNull());
    const QString path = QDir(QStringLiteral(SPINDLE_SCREENSHOT_DIR)).filePath(QStringLiteral("job-tensorboard.png"));
    QVERIFY(image.save(path));
    qInfo().noquote() << "saved" << path;
  }

  void tensorBoardTabLoadsThroughASpindleServer() {
    serve::DashboardOptions options;
    auto server = serve::Dashboard::start(options, std::make_shared<OneTensorBoard>(port_));
    QVERIFY2(server, server ? "" : server.error().message.c_str());
    const auto address = client::parse_dashboard_address("http://127.0.0.1:" + std::to_string((*server)->port()) +
                                                         "/?token=" + (*server)->access_token());
    QVERIFY(address);
    const client::DashboardClient dashboard(*address);
    // The address the job view gives its tab through a server (see JobView::tensorBoardUrl).
    const QUrl url(QString::fromStdString(dashboard.browser_url("/tb/application_1795288567147_0008/")));
    QVERIFY(url.query().startsWith(QLatin1String("token=")));

    TensorBoardTab tab(url);
    tab.resize(1280, 800);
    tab.show();
    QSignalSpy loaded(&tab, &TensorBoardTab::loadFinished);
    tab.load();
    QVERIFY(loaded.wait(120000));
    QCOMPARE(loaded.back().front().toBool(), true);
    QVERIFY(QTest::qWaitFor([&] { return tab.view()->title().contains(QLatin1String("TensorBoard")); }, 30000));
    // The token went into a cookie: the page's address no longer holds it, and TensorBoard's own requests
    // (which carry only the cookie) are answered.
    QVERIFY2(!tab.view()->url().toString().contains(QLatin1String("token=")), qPrintable(tab.view()->url().toString()));
    const QString runs =
        runJavaScript(tab.view()->page(),
                      QStringLiteral("(function(){var r=new XMLHttpRequest();r.open('GET','data/runs',false);"
                                     "r.send();return r.status+' '+r.responseText;})()"))
            .toString();
    QVERIFY2(runs.startsWith(QLatin1String("200")) && runs.contains(QLatin1String("train")), qPrintable(runs));
    (*server)->stop();
  }

  void unknownJobGetsTheProxysPage() {
    TensorBoardTab tab(TensorBoardProxy::shared().url(QStringLiteral("application_1795288567147_0099")));
    tab.resize(800, 600);
    tab.show();
    QSignalSpy loaded(&tab, &TensorBoardTab::loadFinished);
    tab.load();
    QVERIFY(loaded.wait(60000));
    const QString text =
        runJavaScript(tab.view()->page(), QStringLiteral("document.body ? document.body.innerText : ''")).toString();
    QVERIFY2(text.contains(QLatin1String("no such job")), qPrintable(text));
  }

 private:
  QTemporaryDir directory_;
  QProcess tensorboard_;
  quint16 port_ = 0;
  std::atomic<int> lookups_{0};
};

SPINDLE_GUI_TEST_MAIN(WebEngineTest)
#include "webengine_test.moc"
