// The job designer: core's sentences beside the fields while typing, the
// cluster's limits, YAML that round-trips with the CLI, and the
// environment preview against `spindle render-env`.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "designer/applicationpage.h"
#include "designer/environmentpreview.h"
#include "designer/jobdesignerwidget.h"
#include "designer/keyvaluetable.h"
#include "designer/tasktypepage.h"
#include "gui_test_main.h"
#include "spindle/core/quantities.h"
#include "spindle/core/spec_parser.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

QString examplesDir() {
  return QStringLiteral(SPINDLE_SOURCE_DIR "/resources/examples");
}

QStringList exampleSpecs() {
  QStringList specs;
  QDir examples(examplesDir());
  for (const QString& directory : examples.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    QDir sub(examples.filePath(directory));
    for (const QString& file : sub.entryList({QStringLiteral("*.yaml")}, QDir::Files)) specs << sub.filePath(file);
  }
  // A sweep's spec is a job and a search: the designer designs jobs, and `spindle sweep` runs sweeps.
  specs.erase(std::remove_if(specs.begin(), specs.end(),
                             [](const QString& path) { return path.contains(QStringLiteral("/wine-sweep/")); }),
              specs.end());
  return specs;
}

// `spindle ARGS...`: its standard output, or a failed QVERIFY.
QByteArray runCli(const QStringList& arguments, int expectedExit = 0) {
  QProcess cli;
  cli.start(QStringLiteral(SPINDLE_CLI_PATH), arguments);
  if (!cli.waitForFinished(60000)) return "timeout";
  if (cli.exitCode() != expectedExit) {
    qWarning() << "spindle" << arguments << "exited" << cli.exitCode() << cli.readAllStandardError();
  }
  return cli.readAllStandardOutput();
}

QJsonObject validatedJson(const QString& spec) {
  const auto document = QJsonDocument::fromJson(runCli({QStringLiteral("validate"), QStringLiteral("--json"), spec}));
  return document.object();
}

// The warnings name the file, line and column they come from, which saving
// changes; what they say must not change.
QJsonObject withoutPlaces(QJsonObject validated) {
  QJsonArray warnings;
  for (const auto& warning : validated.value(QStringLiteral("warnings")).toArray()) {
    QJsonObject said = warning.toObject();
    for (const auto* key : {"file", "line", "column"}) said.remove(QLatin1String(key));
    warnings.append(said);
  }
  validated.insert(QStringLiteral("warnings"), warnings);
  return validated;
}

ClusterInfo localLikeCluster() {
  ClusterInfo info;
  info.known = true;
  info.resourceManager = QStringLiteral("localhost:8032");
  info.queues = QStringList{QStringLiteral("default"), QStringLiteral("ml-gpu")};
  info.queueLabels.insert(QStringLiteral("default"), QStringList());
  info.queueLabels.insert(QStringLiteral("ml-gpu"), QStringList{QStringLiteral("gpu")});
  info.nodeLabels = QStringList{QStringLiteral("gpu")};
  info.maxMemoryMib = 4096;
  info.maxVcores = 4;
  info.maxGpus = 2;
  return info;
}

// A spec file in `directory` with the given application-level lines and one
// worker; its path.
QString writeSpec(const QTemporaryDir& directory, const QByteArray& lines) {
  const QString path = directory.filePath(QStringLiteral("job.yaml"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return {};
  file.write("name: kerberized\n" + lines +
             "tasks:\n"
             "  worker:\n"
             "    instances: 1\n"
             "    command: python train.py\n");
  return path;
}

QString fieldText(JobDesignerWidget* designer, const QString& field) {
  auto* edit = qobject_cast<QLineEdit*>(designer->fieldWidget(field));
  return edit ? edit->text() : QStringLiteral("(no line edit for %1)").arg(field);
}

// Replaces a line edit's text the way a user does: select all, type.
void typeInto(QWidget* field, const QString& text) {
  auto* edit = qobject_cast<QLineEdit*>(field);
  if (!edit) {
    if (auto* combo = qobject_cast<QComboBox*>(field)) edit = combo->lineEdit();
  }
  QVERIFY2(edit, "the field is not a text field");
  edit->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

}  // namespace

class DesignerTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    designer_ = new JobDesignerWidget;
    designer_->resize(1200, 800);
    designer_->show();
    QVERIFY(QTest::qWaitForWindowExposed(designer_));
  }
  void cleanup() { delete designer_; }

  void newSpecIsValidAndUnmodified() {
    designer_->validateNow();
    QVERIFY2(designer_->check().valid(), qPrintable(designer_->messageFor(QStringLiteral("tasks.worker"))));
    QVERIFY(!designer_->isModified());
    QCOMPARE(designer_->taskTypes(), QStringList{QStringLiteral("worker")});
    QVERIFY(designer_->yamlPreview().contains(QStringLiteral("worker:")));
  }

  void badMemoryShowsCoresSentenceBesideTheField() {
    QWidget* memory = designer_->fieldWidget(QStringLiteral("tasks.worker.memory"));
    QVERIFY(memory);
    designer_->showPage(QStringLiteral("worker"));
    typeInto(memory, QStringLiteral("2 GB"));
    const QString expected = QString::fromStdString(parse_memory_mib("2 GB").error().message);
    // Shown after the typing pause, without any other action.
    QTRY_COMPARE(designer_->messageFor(QStringLiteral("tasks.worker.memory")), expected);
    QVERIFY(designer_->isModified());
    QVERIFY(!designer_->validSpec());
    // The label under the field is what the user sees.
    const auto labels = memory->parentWidget()->findChildren<QLabel*>(QStringLiteral("fieldMessage"));
    QCOMPARE(labels.size(), 1);
    QVERIFY(labels.front()->isVisible());
    QCOMPARE(labels.front()->text(), expected);

    typeInto(memory, QStringLiteral("2 GiB"));
    QTRY_VERIFY(designer_->messageFor(QStringLiteral("tasks.worker.memory")).isEmpty());
    QVERIFY(!labels.front()->isVisible());
    QVERIFY(designer_->validSpec());
    QCOMPARE(designer_->validSpec()->find_task("worker")->memory_mib, 2048u);
  }

  void everyMistakeGoesToItsField() {
    designer_->addTaskType(QStringLiteral("chief"));
    auto* instances = qobject_cast<QSpinBox*>(designer_->fieldWidget(QStringLiteral("tasks.chief.instances")));
    QVERIFY(instances);
    instances->setValue(2);
    designer_->validateNow();
    QVERIFY(
        designer_->messageFor(QStringLiteral("tasks.chief.instances")).contains(QLatin1String("at most one chief")));
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.chief.command")), QString());
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.worker.node_label")), QStringLiteral("-bad"));
    designer_->validateNow();
    QVERIFY(designer_->messageFor(QStringLiteral("tasks.chief")).contains(QLatin1String("has no command")));
    QVERIFY(designer_->messageFor(QStringLiteral("tasks.worker.node_label")).contains(QLatin1String("node label")));
    QCOMPARE(designer_->check().diagnostics.size(), 3u);
  }

  void reservedVariableIsFlaggedOnTheEnvironmentTable() {
    designer_->loadSpec(*load_job_spec(SPINDLE_SOURCE_DIR "/resources/examples/multi-worker/multi_worker.yaml"));
    auto* env = qobject_cast<KeyValueTable*>(designer_->fieldWidget(QStringLiteral("env")));
    QVERIFY(env);
    // The table is the field; add a variable Spindle sets itself.
    env->addRow(QStringLiteral("TF_CONFIG"), QStringLiteral("{}"));
    designer_->validateNow();
    const QString message = designer_->messageFor(QStringLiteral("env"));
    QVERIFY2(message.startsWith(QLatin1String("TF_CONFIG: ")), qPrintable(message));
  }

  void invalidCustomTypeNameIsFlaggedOnItsPage() {
    designer_->addTaskType(QStringLiteral("Data-Loader"));
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.Data-Loader.command")), QStringLiteral("python load.py"));
    designer_->validateNow();
    QVERIFY(
        designer_->messageFor(QStringLiteral("tasks.Data-Loader")).contains(QLatin1String("not a valid task type")));
    designer_->removeTaskType(QStringLiteral("Data-Loader"));
    designer_->addTaskType(QStringLiteral("loader"));
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.loader.command")), QStringLiteral("python load.py"));
    designer_->validateNow();
    QVERIFY(designer_->check().valid());
    QCOMPARE(designer_->taskTypes(), (QStringList{QStringLiteral("worker"), QStringLiteral("loader")}));
  }

  void unknownQueueIsFlaggedOnlyWhenTheClusterIsKnown() {
    QWidget* queue = designer_->fieldWidget(QStringLiteral("queue"));
    typeInto(queue, QStringLiteral("research"));
    designer_->validateNow();
    QVERIFY(designer_->messageFor(QStringLiteral("queue")).isEmpty());
    QVERIFY(designer_->validSpec());

    designer_->setClusterInfo(localLikeCluster());
    const QString message = designer_->messageFor(QStringLiteral("queue"));
    QVERIFY2(message.contains(QLatin1String("\"research\"")) && message.contains(QLatin1String("default, ml-gpu")),
             qPrintable(message));
    QVERIFY(!designer_->validSpec());
    // The queue list offers the cluster's queues.
    auto* combo = qobject_cast<QComboBox*>(queue);
    QCOMPARE(combo->count(), 2);
    typeInto(queue, QStringLiteral("ml-gpu"));
    QTRY_VERIFY(designer_->messageFor(QStringLiteral("queue")).isEmpty());
  }

  void clusterLimitsBoundTheFields() {
    designer_->setClusterInfo(localLikeCluster());
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.worker.memory")), QStringLiteral("8g"));
    designer_->validateNow();
    QVERIFY(designer_->messageFor(QStringLiteral("tasks.worker.memory")).contains(QLatin1String("4 GiB")));
    auto* vcores = qobject_cast<QSpinBox*>(designer_->fieldWidget(QStringLiteral("tasks.worker.vcores")));
    QCOMPARE(vcores->maximum(), 4);
    auto* gpus = qobject_cast<QSpinBox*>(designer_->fieldWidget(QStringLiteral("tasks.worker.gpus")));
    QCOMPARE(gpus->maximum(), 2);
    // A label the queue cannot reach, then one no node has.
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.worker.node_label")), QStringLiteral("gpu"));
    designer_->validateNow();
    QVERIFY(designer_->messageFor(QStringLiteral("tasks.worker.node_label")).contains(QLatin1String("ml-gpu")));
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.worker.node_label")), QStringLiteral("fpga"));
    designer_->validateNow();
    QVERIFY(
        designer_->messageFor(QStringLiteral("tasks.worker.node_label")).contains(QLatin1String("labels in use: gpu")));
  }

  void loadedValuesAboveTheClusterLimitAreKept() {
    JobSpec spec = *load_job_spec(SPINDLE_SOURCE_DIR "/resources/examples/multi-worker/multi_worker.yaml");
    spec.tasks.front().vcores = 8;
    designer_->setClusterInfo(localLikeCluster());
    designer_->loadSpec(spec);
    QVERIFY(designer_->check().spec);
    QCOMPARE(designer_->check().spec->tasks.front().vcores, 8);
    QVERIFY(!designer_->messageFor(QStringLiteral("tasks.worker.vcores")).isEmpty());
  }

  void roundTrip_data() {
    QTest::addColumn<QString>("spec");
    for (const QString& spec : exampleSpecs()) QTest::newRow(qPrintable(QFileInfo(spec).fileName())) << spec;
  }

  void roundTrip() {
    QFETCH(QString, spec);
    auto original = load_job_spec(spec.toStdString());
    QVERIFY2(original, original ? "" : format_diagnostics(original.error()).c_str());
    QString error;
    QVERIFY2(designer_->openFile(spec, &error), qPrintable(error));
    QVERIFY(!designer_->isModified());
    QVERIFY2(designer_->check().valid(),
             qPrintable(QString::fromStdString(designer_->check().diagnostics.empty()
                                                   ? std::string()
                                                   : designer_->check().diagnostics.front().to_string())));
    QVERIFY(*designer_->check().spec == *original);

    QTemporaryDir directory;
    const QString saved = directory.filePath(QFileInfo(spec).fileName());
    QVERIFY2(designer_->saveTo(saved, &error), qPrintable(error));
    QVERIFY(!designer_->isModified());
    auto reread = load_job_spec(saved.toStdString());
    QVERIFY2(reread, reread ? "" : format_diagnostics(reread.error()).c_str());
    QVERIFY(*reread == *original);
    // As the CLI normalizes both: the same spec.
    const QJsonObject before = validatedJson(spec);
    const QJsonObject after = validatedJson(saved);
    QVERIFY(before.value(QStringLiteral("valid")).toBool());
    QCOMPARE(withoutPlaces(after), withoutPlaces(before));
    // Opening what was saved gives the same fields again.
    QVERIFY(designer_->openFile(saved, &error));
    QVERIFY(*designer_->check().spec == *original);
  }

  // Keys the example specs do not set: what is opened must be saved again,
  // and what the spec leaves to core's default must stay unwritten.
  void timeoutsAndFileSystemsSurviveOpenAndSave() {
    QTemporaryDir directory;
    const QString spec = writeSpec(directory,
                                   "heartbeat_timeout: 30s\n"
                                   "replacement_timeout: 2m\n"
                                   "file_systems: [hdfs://nn2:8020, webhdfs://nn3:9870]\n");
    QString error;
    QVERIFY2(designer_->openFile(spec, &error), qPrintable(error));
    QVERIFY(!designer_->isModified());
    QVERIFY(designer_->check().valid());
    QCOMPARE(fieldText(designer_, QStringLiteral("heartbeat_timeout")), QStringLiteral("30s"));
    QCOMPARE(fieldText(designer_, QStringLiteral("replacement_timeout")), QStringLiteral("2m"));
    QCOMPARE(fieldText(designer_, QStringLiteral("file_systems")),
             QStringLiteral("hdfs://nn2:8020, webhdfs://nn3:9870"));

    const auto& document = designer_->check().document;
    QCOMPARE(document.value("heartbeat_timeout", std::string()), std::string("30s"));
    QCOMPARE(document.value("replacement_timeout", std::string()), std::string("2m"));
    QVERIFY(document.contains("file_systems"));
    QVERIFY2(document["file_systems"] == nlohmann::ordered_json::array({"hdfs://nn2:8020", "webhdfs://nn3:9870"}),
             document["file_systems"].dump().c_str());
    const std::vector<std::string> fileSystems = {"hdfs://nn2:8020", "webhdfs://nn3:9870"};
    QCOMPARE(designer_->check().spec->heartbeat_timeout, std::chrono::seconds(30));
    QCOMPARE(designer_->check().spec->replacement_timeout, std::chrono::seconds(120));
    QVERIFY(designer_->check().spec->file_systems == fileSystems);
    const QString preview = designer_->yamlPreview();
    QVERIFY2(preview.contains(QLatin1String("heartbeat_timeout: 30s")), qPrintable(preview));
    QVERIFY2(preview.contains(QLatin1String("replacement_timeout: 2m")), qPrintable(preview));
    QVERIFY2(preview.contains(QLatin1String("file_systems: [hdfs://nn2:8020, webhdfs://nn3:9870]")),
             qPrintable(preview));

    const QString saved = directory.filePath(QStringLiteral("saved.yaml"));
    QVERIFY2(designer_->saveTo(saved, &error), qPrintable(error));
    auto reread = load_job_spec(saved.toStdString());
    QVERIFY2(reread, reread ? "" : format_diagnostics(reread.error()).c_str());
    QCOMPARE(reread->heartbeat_timeout, std::chrono::seconds(30));
    QCOMPARE(reread->replacement_timeout, std::chrono::seconds(120));
    QVERIFY(reread->file_systems == fileSystems);
    QVERIFY(*reread == *load_job_spec(spec.toStdString()));
  }

  void defaultTimeoutsAndNoFileSystemsAreNotWritten_data() {
    QTest::addColumn<QByteArray>("lines");
    QTest::newRow("none set") << QByteArray();
    // An explicit default reads the same as none: the field stays empty.
    QTest::newRow("defaults set") << QByteArray("heartbeat_timeout: 60s\nreplacement_timeout: 10m\nfile_systems: []\n");
  }

  void defaultTimeoutsAndNoFileSystemsAreNotWritten() {
    QFETCH(QByteArray, lines);
    QTemporaryDir directory;
    const QString spec = writeSpec(directory, lines);
    QString error;
    QVERIFY2(designer_->openFile(spec, &error), qPrintable(error));
    QVERIFY(designer_->check().valid());
    for (const char* key : {"heartbeat_timeout", "replacement_timeout", "file_systems"}) {
      QVERIFY2(fieldText(designer_, QString::fromLatin1(key)).isEmpty(), key);
      QVERIFY2(!designer_->check().document.contains(key), key);
      QVERIFY2(!designer_->yamlPreview().contains(QLatin1String(key)), key);
    }
    QCOMPARE(designer_->check().spec->heartbeat_timeout, JobSpec{}.heartbeat_timeout);
    QCOMPARE(designer_->check().spec->replacement_timeout, JobSpec{}.replacement_timeout);
    QVERIFY(designer_->check().spec->file_systems.empty());
    // Zero is not the default: it turns the check off and is kept.
    typeInto(designer_->fieldWidget(QStringLiteral("heartbeat_timeout")), QStringLiteral("0"));
    designer_->validateNow();
    QVERIFY(designer_->check().valid());
    QCOMPARE(designer_->check().spec->heartbeat_timeout, std::chrono::seconds(0));
    QVERIFY(designer_->yamlPreview().contains(QLatin1String("heartbeat_timeout: 0s")));
  }

  void timeoutAndFileSystemMistakesGoToTheirFields() {
    typeInto(designer_->fieldWidget(QStringLiteral("heartbeat_timeout")), QStringLiteral("10s"));
    typeInto(designer_->fieldWidget(QStringLiteral("replacement_timeout")), QStringLiteral("soon"));
    typeInto(designer_->fieldWidget(QStringLiteral("file_systems")), QStringLiteral("hdfs://nn2:8020, nn3:9870"));
    designer_->validateNow();
    const QString heartbeat = designer_->messageFor(QStringLiteral("heartbeat_timeout"));
    QVERIFY2(heartbeat.contains(QLatin1String("15 s or more")), qPrintable(heartbeat));
    QVERIFY(!designer_->messageFor(QStringLiteral("replacement_timeout")).isEmpty());
    const QString fileSystems = designer_->messageFor(QStringLiteral("file_systems"));
    QVERIFY2(fileSystems.contains(QLatin1String("\"nn3:9870\"")), qPrintable(fileSystems));
    QCOMPARE(designer_->check().diagnostics.size(), 3u);
    // The Problems list's navigation lands in the field, list items included.
    // (The typing left the cursor in the file systems, so go elsewhere first.)
    designer_->goToField(QStringLiteral("replacement_timeout"));
    QCOMPARE(designer_->focusWidget(), designer_->fieldWidget(QStringLiteral("replacement_timeout")));
    designer_->goToField(QStringLiteral("file_systems[1]"));
    QCOMPARE(designer_->focusWidget(), designer_->fieldWidget(QStringLiteral("file_systems")));
  }

  // The job's keytab login: typed, checked as core checks it, saved as the spec's kerberos keys.
  void kerberosLoginIsTypedCheckedAndSaved() {
    QTemporaryDir directory;
    const QString keytab = directory.filePath(QStringLiteral("alice.keytab"));
    {
      QFile file(keytab);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("\x05\x02");
    }
    typeInto(designer_->fieldWidget(QStringLiteral("kerberos.principal")), QStringLiteral("alice@EXAMPLE.COM"));
    designer_->validateNow();
    QVERIFY(!designer_->check().valid());
    bool told = false;
    for (const auto& diagnostic : designer_->check().diagnostics) {
      told = told || diagnostic.message.find("principal without a keytab") != std::string::npos;
    }
    QVERIFY2(told, "a principal without a keytab is not said to be one");
    typeInto(designer_->fieldWidget(QStringLiteral("kerberos.keytab")), keytab);
    designer_->validateNow();
    QVERIFY(designer_->check().valid());
    QVERIFY(designer_->check().spec->kerberos);
    QCOMPARE(QString::fromStdString(designer_->check().spec->kerberos->principal), QStringLiteral("alice@EXAMPLE.COM"));
    QCOMPARE(QString::fromStdString(designer_->check().spec->kerberos->keytab), keytab);

    const QString saved = directory.filePath(QStringLiteral("saved.yaml"));
    QString error;
    QVERIFY2(designer_->saveTo(saved, &error), qPrintable(error));
    auto reread = load_job_spec(saved.toStdString());
    QVERIFY2(reread, reread ? "" : format_diagnostics(reread.error()).c_str());
    QVERIFY(reread->kerberos == designer_->check().spec->kerberos);
    QVERIFY2(designer_->openFile(saved, &error), qPrintable(error));
    QCOMPARE(fieldText(designer_, QStringLiteral("kerberos.principal")), QStringLiteral("alice@EXAMPLE.COM"));
    QCOMPARE(fieldText(designer_, QStringLiteral("kerberos.keytab")), keytab);
  }

  void advancedFormHasOneMnemonicPerRowAndTabsInRowOrder() {
    QGroupBox* advanced = nullptr;
    for (auto* box : designer_->applicationPage()->findChildren<QGroupBox*>()) {
      if (box->title() == QLatin1String("Advanced")) advanced = box;
    }
    QVERIFY(advanced);
    auto* form = qobject_cast<QFormLayout*>(advanced->layout());
    QVERIFY(form);
    QMap<QChar, QString> letters;
    for (int row = 0; row < form->rowCount(); ++row) {
      auto* label = qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)->widget());
      QVERIFY(label);
      const int amp = label->text().indexOf(QLatin1Char('&'));
      QVERIFY2(amp >= 0 && amp + 1 < label->text().size(), qPrintable(label->text()));
      const QChar letter = label->text().at(amp + 1).toLower();
      QVERIFY2(!letters.contains(letter), qPrintable(label->text() + QStringLiteral(" and ") + letters.value(letter)));
      letters.insert(letter, label->text());
      QVERIFY(label->buddy());
    }
    // Tab goes from each new field to the next row's, past the row's own button (the keytab's "Browse").
    const QStringList keys = {QStringLiteral("timeout"),
                              QStringLiteral("heartbeat_timeout"),
                              QStringLiteral("replacement_timeout"),
                              QStringLiteral("allocation_timeout"),
                              QStringLiteral("on_allocation_timeout"),
                              QStringLiteral("stall_timeout"),
                              QStringLiteral("on_stall"),
                              QStringLiteral("docker_image"),
                              QStringLiteral("file_systems"),
                              QStringLiteral("kerberos.principal"),
                              QStringLiteral("kerberos.keytab"),
                              QStringLiteral("application_master.memory")};
    for (int i = 0; i + 1 < keys.size(); ++i) {
      QWidget* next = designer_->fieldWidget(keys[i])->nextInFocusChain();
      while (!(next->focusPolicy() & Qt::TabFocus) || !next->isVisibleTo(designer_) ||
             (keys[i] == QLatin1String("kerberos.keytab") && qobject_cast<QPushButton*>(next))) {
        next = next->nextInFocusChain();
      }
      QVERIFY2(next == designer_->fieldWidget(keys[i + 1]), qPrintable(keys[i]));
    }
  }

  void pythonEnvironmentIsDescribedAndSaved() {
    QTemporaryDir directory;
    const QString venv = directory.filePath(QStringLiteral("train-env"));
    QProcess make;
    make.start(QStringLiteral("python3"),
               {QStringLiteral("-m"), QStringLiteral("venv"), QStringLiteral("--without-pip"), venv});
    QVERIFY(make.waitForFinished(60000) && make.exitCode() == 0);
    QWidget* field = designer_->fieldWidget(QStringLiteral("python_env"));
    QVERIFY(field);
    auto hintShowing = [this](const QString& part) {
      for (auto* label : designer_->applicationPage()->findChildren<QLabel*>()) {
        if (label->property("spindleDynamicText").toBool() && label->text().contains(part)) return true;
      }
      return false;
    };
    typeInto(field, venv);
    // Its size from a stat pass, and (without a cluster here) that nobody was asked.
    QTRY_VERIFY_WITH_TIMEOUT(hintShowing(venv + QStringLiteral(": ")), 10000);
    QVERIFY(hintShowing(QStringLiteral(" file")));
    QVERIFY(hintShowing(QStringLiteral("no cluster to ask whether it holds it")));
    const QString saved = directory.filePath(QStringLiteral("job.yaml"));
    QString error;
    QVERIFY2(designer_->saveTo(saved, &error), qPrintable(error));
    auto reread = load_job_spec(saved.toStdString());
    QVERIFY(reread);
    QCOMPARE(QString::fromStdString(reread->python_env), venv);

    QDir(directory.path()).mkdir(QStringLiteral("plain"));
    typeInto(field, directory.filePath(QStringLiteral("plain")));
    QTRY_VERIFY_WITH_TIMEOUT(hintShowing(QStringLiteral("is not a Python environment")), 10000);
  }

  void aSpecWithProblemsIsSavedAsTyped() {
    typeInto(designer_->fieldWidget(QStringLiteral("tasks.worker.memory")), QStringLiteral("2 GB"));
    QTemporaryDir directory;
    const QString saved = directory.filePath(QStringLiteral("broken.yaml"));
    QString error;
    QVERIFY2(designer_->saveTo(saved, &error), qPrintable(error));
    auto reread = load_job_spec(saved.toStdString());
    QVERIFY(!reread);
    QCOMPARE(reread.error().size(), 1u);
    QCOMPARE(QString::fromStdString(reread.error().front().field), QStringLiteral("tasks.worker.memory"));
    QCOMPARE(QString::fromStdString(reread.error().front().message),
             QString::fromStdString(parse_memory_mib("2 GB").error().message));
  }

  void environmentPreviewMatchesRenderEnv() {
    const QString spec = examplesDir() + QStringLiteral("/parameter-server/parameter_server.yaml");
    QString error;
    QVERIFY2(designer_->openFile(spec, &error), qPrintable(error));
    EnvironmentPreview* preview = designer_->environmentPreview();
    QVERIFY(preview->problem().isEmpty());
    QCOMPARE(preview->hosts(), EnvironmentPreview::placeholderHosts(*designer_->check().spec));
    const QStringList tasks = {QStringLiteral("chief:0"), QStringLiteral("worker:1"), QStringLiteral("ps:0"),
                               QStringLiteral("evaluator:0"), QStringLiteral("tensorboard:0")};
    for (const QString& task : tasks) {
      preview->setTask(task);
      QCOMPARE(preview->task(), task);
      const QJsonObject rendered =
          QJsonDocument::fromJson(runCli({QStringLiteral("render-env"), spec, QStringLiteral("--hosts"),
                                          preview->hosts(), QStringLiteral("--task"), task, QStringLiteral("--app-id"),
                                          preview->applicationId(), QStringLiteral("--json")}))
              .object();
      QVERIFY(!rendered.isEmpty());
      QCOMPARE(static_cast<int>(preview->environment().size()), rendered.size());
      for (const auto& [name, value] : preview->environment()) {
        QCOMPARE(QString::fromStdString(value), rendered.value(QString::fromStdString(name)).toString());
      }
    }
    // Real addresses typed by the user are kept, and a wrong one is core's sentence.
    preview->setHosts(QStringLiteral("chief:0=h1:1"));
    QVERIFY(!preview->problem().isEmpty());
    QVERIFY(preview->environment().empty());
  }

 private:
  JobDesignerWidget* designer_ = nullptr;
};

SPINDLE_GUI_TEST_MAIN(DesignerTest)
#include "designer_test.moc"
