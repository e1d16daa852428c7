// A job designed in the designer and submitted through the GUI's code path
// (SubmitController, as the Submit action runs it) to the real local YARN:
// files staged with progress, containers allocated and registered, the job
// followed to SUCCEEDED, and the history holding it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
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

namespace {

// A port on 127.0.0.1 nobody listens on now; with `connect`, whether one does.
quint16 loopback_port(quint16 port = 0, bool connect = false) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  quint16 found = 0;
  if (connect) {
    found = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 ? port : 0;
  } else if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) {
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    found = ntohs(address.sin_port);
  }
  ::close(fd);
  return found;
}

}  // namespace

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

  // The cluster connection of a cluster whose web servers speak only HTTPS: RPC to the real
  // local YARN, the ResourceManager's web address a TLS server (openssl s_server) with a
  // certificate this machine must refuse, each refusal said in one sentence.
  void clusterConnectionRefusesWebCertificatesItCannotTrust() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString dir = directory.path();
    auto openssl = [&](const QStringList& arguments) {
      QProcess process;
      process.start(QStringLiteral("openssl"), arguments);
      QVERIFY2(process.waitForFinished(60'000) && process.exitCode() == 0, process.readAllStandardError().constData());
    };
    const QString ext = dir + QStringLiteral("/server.ext");
    {
      QFile file(ext);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n");
    }
    for (const QString& ca : {QStringLiteral("trusted-ca"), QStringLiteral("other-ca")}) {
      openssl({"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + ca, "-keyout",
               dir + "/" + ca + ".key", "-out", dir + "/" + ca + ".pem"});
    }
    // Made out right but by a CA nobody here trusts; and by the trusted CA but expired.
    const QStringList certificates = {QStringLiteral("untrusted"), QStringLiteral("expired")};
    for (const QString& name : certificates) {
      const QString ca = name == QLatin1String("untrusted") ? QStringLiteral("other-ca") : QStringLiteral("trusted-ca");
      openssl({"req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", dir + "/" + name + ".key",
               "-out", dir + "/" + name + ".csr"});
      openssl({"x509", "-req", "-in", dir + "/" + name + ".csr", "-CA", dir + "/" + ca + ".pem", "-CAkey",
               dir + "/" + ca + ".key", "-CAcreateserial", "-days", name == QLatin1String("expired") ? "0" : "2",
               "-extfile", ext, "-out", dir + "/" + name + ".pem"});
    }
    QTest::qWait(1100);  // the expired one's validity, begun and ended this second, is over

    const struct {
      QString certificate;
      QString sentence;
    } cases[] = {{QStringLiteral("untrusted"), QStringLiteral(" is not signed by a CA in the truststore ")},
                 {QStringLiteral("expired"), QStringLiteral(" has expired; whoever runs that server must renew it")}};
    for (const auto& each : cases) {
      const quint16 port = loopback_port();
      QVERIFY(port != 0);
      QProcess server;
      server.start(QStringLiteral("openssl"),
                   {"s_server", "-quiet", "-www", "-accept", QStringLiteral("127.0.0.1:%1").arg(port), "-cert",
                    dir + "/" + each.certificate + ".pem", "-key", dir + "/" + each.certificate + ".key"});
      QVERIFY(server.waitForStarted());
      QTRY_VERIFY_WITH_TIMEOUT(loopback_port(port, true) == port, 30'000);
      // The local YARN's client configuration, its web servers said to be HTTPS-only there.
      const QString conf = dir + "/conf-" + each.certificate;
      QDir().mkpath(conf);
      for (const QString& name : QDir(qEnvironmentVariable("HADOOP_CONF_DIR")).entryList({"*.xml"}, QDir::Files)) {
        QFile::copy(qEnvironmentVariable("HADOOP_CONF_DIR") + "/" + name, conf + "/" + name);
      }
      QFile yarn(conf + "/yarn-site.xml");
      QVERIFY(yarn.open(QIODevice::ReadOnly));
      QString site = QString::fromUtf8(yarn.readAll());
      yarn.close();
      site.replace(QStringLiteral("</configuration>"),
                   QStringLiteral("<property><name>yarn.http.policy</name><value>HTTPS_ONLY</value></property>"
                                  "<property><name>yarn.resourcemanager.webapp.https.address</name>"
                                  "<value>127.0.0.1:%1</value></property></configuration>")
                       .arg(port));
      QVERIFY(yarn.open(QIODevice::WriteOnly | QIODevice::Truncate));
      yarn.write(site.toUtf8());
      yarn.close();
      QFile client(conf + "/ssl-client.xml");
      QVERIFY(client.open(QIODevice::WriteOnly));
      client.write(QStringLiteral("<configuration><property><name>ssl.client.truststore.location</name><value>%1"
                                  "</value></property><property><name>ssl.client.truststore.type</name><value>pem"
                                  "</value></property></configuration>")
                       .arg(dir + "/trusted-ca.pem")
                       .toUtf8());
      client.close();

      const auto outcome = ClusterInfoLoader::fetch(HadoopSetup{conf});
      server.kill();
      server.waitForFinished();
      QVERIFY2(
          outcome.error.contains(QStringLiteral("the certificate of https://127.0.0.1:%1").arg(port) + each.sentence),
          qPrintable(outcome.error));
      QVERIFY(!outcome.info.known);
    }
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

    // Bytes staged grow to the total: the container binary when this build's was not on the
    // cluster yet (an earlier test may have staged it). The spec travels in the credentials,
    // and this job has no files, so otherwise nothing is staged at all.
    const bool binaryUploaded = log.filter(QStringLiteral("container binary: uploaded hdfs://")).size() == 1;
    QVERIFY2(binaryUploaded || log.filter(QStringLiteral("container binary: the cluster holds hdfs://")).size() == 1,
             qPrintable(log.join(QLatin1Char('\n'))));
    if (binaryUploaded) {
      QVERIFY(!staged.isEmpty());
      const qint64 total = staged.back().at(1).toLongLong();
      QCOMPARE(staged.back().at(0).toLongLong(), total);
      QVERIFY(total > 1024 * 1024);
    } else {
      QVERIFY2(staged.isEmpty(), "bytes staged for a job without files whose binary the cluster holds");
    }
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
