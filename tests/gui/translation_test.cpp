// The German translation is complete: the .ts files have no unfinished
// entries, and with the German .qm loaded no visible text of any main view
// (labels, buttons, titles, tooltips, placeholders, menus, actions, tabs,
// headers, list items) is still its English source. Also the settings
// dialog these views are built from: its Kerberos login round trip, the
// sentences under its fields, and what the login does to a configuration.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDomDocument>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>
#include <memory>

#include "appsettings.h"
#include "cluster/clusterinfoloader.h"
#include "cluster/hadoopsetup.h"
#include "designer/jobdesignerwidget.h"
#include "gui_test_main.h"
#include "jobs/jobswidget.h"
#include "jobview/jobview.h"
#include "mainwindow.h"
#include "settings/firstrundialog.h"
#include "settings/settingsdialog.h"
#include "spindle/client/history_store.h"
#include "submit/submitdialog.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

using Texts = QMap<QString, QString>;  // where -> text

QString plain(QString text) {
  text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
  return text.trimmed();
}

// Texts that read the same in both languages.
bool allowed(const QString& text) {
  static const QSet<QString> same = {
      QStringLiteral("chief"),
      QStringLiteral("worker"),
      QStringLiteral("ps"),
      QStringLiteral("evaluator"),
      QStringLiteral("tensorboard"),
      QStringLiteral("loader"),
      QStringLiteral("YAML"),
      QStringLiteral("TensorFlow"),
      QStringLiteral("PyTorch"),
      QStringLiteral("English"),
      QStringLiteral("Deutsch"),
      QStringLiteral("Spindle"),
      QStringLiteral("Name"),
      QStringLiteral("Name:"),
      QStringLiteral("Job"),
      QStringLiteral("Jobs"),
      QStringLiteral("Designer"),
      QStringLiteral("Cluster"),
      QStringLiteral("Container"),
      QStringLiteral("Task"),
      QStringLiteral("Task:"),
      QStringLiteral("Phase"),
      QStringLiteral("Variable"),
      QStringLiteral("Framework:"),
      QStringLiteral("Tags:"),
      QStringLiteral("Hosts:"),
      QStringLiteral("Vcores:"),
      QStringLiteral("GPUs:"),
      QStringLiteral("GPUs"),
      QStringLiteral("Vcores"),
      QStringLiteral("Label"),
      QStringLiteral("Labels"),
      QStringLiteral("Filter:"),
      QStringLiteral("Maximum"),
      QStringLiteral("OK"),
      QStringLiteral("256 MiB"),
      QStringLiteral("application_0000000000000_0000"),
  };
  // The job view's names of things, the same in German.
  static const QSet<QString> names = {QStringLiteral("TensorBoard"), QStringLiteral("Port")};
  if (text.isEmpty() || same.contains(text) || names.contains(text)) return true;
  static const QRegularExpression noWords(QStringLiteral(R"(^[^A-Za-z]*$)"));
  static const QRegularExpression applicationId(QStringLiteral(R"(^application_\d+_\d+$)"));
  static const QRegularExpression taskId(QStringLiteral(R"(^[a-z][a-z0-9_]*:\d+$)"));
  return noWords.match(text).hasMatch() || applicationId.match(text).hasMatch() || taskId.match(text).hasMatch();
}

void add(Texts& texts, const QString& where, const QString& text) {
  if (!text.trimmed().isEmpty()) texts.insert(where, text);
}

void collectActions(Texts& texts, const QString& where, const QList<QAction*>& actions) {
  int index = 0;
  for (QAction* action : actions) {
    const QString at = where + QStringLiteral("/action") + QString::number(index++);
    if (action->isSeparator()) continue;
    add(texts, at + QStringLiteral(":text"), action->text());
    if (action->toolTip() != QString(action->text()).remove(QLatin1Char('&'))) {
      add(texts, at + QStringLiteral(":tooltip"), action->toolTip());
    }
    if (action->menu()) add(texts, at + QStringLiteral(":menu"), action->menu()->title());
  }
}

void collectModel(Texts& texts, const QString& where, QAbstractItemModel* model, bool items) {
  if (!model) return;
  for (int column = 0; column < model->columnCount(); ++column) {
    add(texts, where + QStringLiteral(":header") + QString::number(column),
        model->headerData(column, Qt::Horizontal).toString());
  }
  if (!items) return;
  for (int row = 0; row < model->rowCount(); ++row) {
    add(texts, where + QStringLiteral(":item") + QString::number(row), model->index(row, 0).data().toString());
  }
}

void collect(QWidget* widget, const QString& where, Texts& texts) {
  // Hidden widgets count too: pages not shown yet, labels shown on some state.
  if (widget->property("spindleDynamicText").toBool()) return;
  // Qt's own helpers (the menu bar's overflow menu) repeat texts from elsewhere.
  // The tab bar's close and scroll buttons are Qt's own, translated by
  // qtbase_*.qm where the system has it.
  if (qobject_cast<QTabBar*>(widget->parentWidget())) return;
  if (auto* bar = qobject_cast<QMenuBar*>(widget->parentWidget()); bar && qobject_cast<QMenu*>(widget)) {
    bool ours = false;
    for (QAction* action : bar->actions()) ours = ours || action->menu() == widget;
    if (!ours) return;
  }
  if (widget->isWindow() || qobject_cast<QMenu*>(widget))
    add(texts, where + QStringLiteral(":title"), widget->windowTitle());
  add(texts, where + QStringLiteral(":tooltip"), widget->toolTip());
  add(texts, where + QStringLiteral(":statustip"), widget->statusTip());
  add(texts, where + QStringLiteral(":whatsthis"), widget->whatsThis());
  add(texts, where + QStringLiteral(":accessible"), widget->accessibleName());
  if (auto* label = qobject_cast<QLabel*>(widget)) add(texts, where + QStringLiteral(":text"), label->text());
  if (auto* button = qobject_cast<QAbstractButton*>(widget))
    add(texts, where + QStringLiteral(":text"), button->text());
  if (auto* box = qobject_cast<QGroupBox*>(widget)) add(texts, where + QStringLiteral(":title"), box->title());
  if (auto* edit = qobject_cast<QLineEdit*>(widget))
    add(texts, where + QStringLiteral(":placeholder"), edit->placeholderText());
  if (auto* bar = qobject_cast<QProgressBar*>(widget)) add(texts, where + QStringLiteral(":format"), bar->format());
  if (auto* combo = qobject_cast<QComboBox*>(widget); combo && !combo->isEditable()) {
    for (int i = 0; i < combo->count(); ++i)
      add(texts, where + QStringLiteral(":item") + QString::number(i), combo->itemText(i));
  }
  if (auto* tabs = qobject_cast<QTabWidget*>(widget)) {
    for (int i = 0; i < tabs->count(); ++i) {
      add(texts, where + QStringLiteral(":tab") + QString::number(i), tabs->tabText(i));
      add(texts, where + QStringLiteral(":tabtip") + QString::number(i), tabs->tabToolTip(i));
    }
  }
  if (auto* view = qobject_cast<QAbstractItemView*>(widget)) {
    collectModel(texts, where, view->model(), qobject_cast<QListWidget*>(widget) != nullptr);
  }
  if (auto* menuBar = qobject_cast<QMenuBar*>(widget)) collectActions(texts, where, menuBar->actions());
  collectActions(texts, where, widget->actions());

  QHash<QString, int> seen;
  for (QObject* child : widget->children()) {
    auto* childWidget = qobject_cast<QWidget*>(child);
    if (!childWidget) continue;
    const QString name = QString::fromLatin1(child->metaObject()->className());
    collect(childWidget, where + QLatin1Char('/') + name + QLatin1Char('#') + QString::number(seen[name]++), texts);
  }
}

// Every main view and dialog, in one fixed state, as texts by place.
Texts collectViews(const QString& historyPath) {
  Texts texts;
  MainWindow window(historyPath);
  window.resize(1280, 800);
  window.show();
  // The cluster answer (here: none configured) changes the status bar.
  if (!QTest::qWaitFor([&] { return !window.clusterLoader()->isLoading(); }, 10000)) {
    qWarning("the cluster information did not arrive within 10 s");
  }
  JobDesignerWidget* designer = window.designer();
  for (const char* type : {"chief", "ps", "evaluator", "tensorboard", "loader"}) {
    designer->addTaskType(QString::fromLatin1(type));
  }
  designer->validateNow();
  // Jobs open in the job view, as in the app.
  JobView::install(window, historyPath);
  window.openJob(QStringLiteral("application_1795288567147_0001"));
  collect(&window, QStringLiteral("MainWindow"), texts);

  SettingsDialog settings;
  collect(&settings, QStringLiteral("SettingsDialog"), texts);
  FirstRunDialog firstRun;
  collect(&firstRun, QStringLiteral("FirstRunDialog"), texts);
  JobSpec spec;
  spec.name = "wine";
  spec.tasks.push_back(default_task("worker"));
  spec.tasks.back().instances = 2;
  auto* submit = new SubmitDialog(spec, HadoopSetup{QStringLiteral("/etc/hadoop")});
  collect(submit, QStringLiteral("SubmitDialog"), texts);
  delete submit;
  return texts;
}

// A stand-in keytab: the dialog only checks that the file can be read.
QString writeKeytab(const QTemporaryDir& directory) {
  const QString path = directory.filePath(QStringLiteral("alice.keytab"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write("\x05\x02");
  return path;
}

bool okEnabled(const SettingsDialog& dialog) {
  auto* buttons = dialog.findChild<QDialogButtonBox*>();
  return buttons && buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

QString cannotBeRead(const QString& path, const QString& reason) {
  return QStringLiteral("%1 cannot be read: %2; choose the keytab file `kadmin` or your administrator gave you")
      .arg(QDir::toNativeSeparators(path), reason);
}

QDomDocument readTs(const QString& language) {
  QFile file(qEnvironmentVariable("SPINDLE_TRANSLATIONS_DIR", QStringLiteral(SPINDLE_SOURCE_DIR "/translations")) +
             QStringLiteral("/spindle_gui_%1.ts").arg(language));
  QDomDocument document;
  if (file.open(QIODevice::ReadOnly)) document.setContent(&file);
  return document;
}

}  // namespace

class TranslationTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qunsetenv("HADOOP_CONF_DIR");
    qunsetenv("HADOOP_HOME");
    QVERIFY(directory_.isValid());
    history_ = directory_.filePath(QStringLiteral("history.sqlite"));
    auto store = client::HistoryStore::open(history_.toStdString());
    QVERIFY(store);
    client::JobHistoryEntry entry;
    entry.application_id = "application_1795288567147_0001";
    entry.name = "wine-quality";
    entry.user = "alice";
    entry.queue = "default";
    entry.submitted_ms = QDateTime::currentMSecsSinceEpoch() - 60000;
    QVERIFY(store->record_job(entry));
  }

  void tsFilesAreFinished_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("de") << QStringLiteral("de");
    QTest::newRow("en") << QStringLiteral("en");
  }

  void tsFilesAreFinished() {
    QFETCH(QString, language);
    const QDomDocument document = readTs(language);
    const QDomNodeList messages = document.elementsByTagName(QStringLiteral("message"));
    QVERIFY(messages.size() > 200);
    QStringList unfinished;
    for (int i = 0; i < messages.size(); ++i) {
      const QDomElement message = messages.at(i).toElement();
      const QString source = message.firstChildElement(QStringLiteral("source")).text();
      const QDomElement translation = message.firstChildElement(QStringLiteral("translation"));
      bool empty = translation.text().trimmed().isEmpty();
      if (message.attribute(QStringLiteral("numerus")) == QLatin1String("yes")) {
        const QDomNodeList forms = translation.elementsByTagName(QStringLiteral("numerusform"));
        empty = forms.size() != 2;
        for (int f = 0; f < forms.size(); ++f) empty = empty || forms.at(f).toElement().text().trimmed().isEmpty();
      }
      if (translation.hasAttribute(QStringLiteral("type")) || empty) unfinished << source;
    }
    QVERIFY2(unfinished.isEmpty(), qPrintable(QStringLiteral("unfinished: ") + unfinished.join(QStringLiteral(" | "))));
  }

  void everyVisibleTextIsTranslated() {
    const Texts english = collectViews(history_);
    QVERIFY2(english.size() > 250, qPrintable(QString::number(english.size())));

    QTranslator german;
    QVERIFY(german.load(QStringLiteral("spindle_gui_de"), QStringLiteral(SPINDLE_GUI_QM_DIR)));
    QCoreApplication::installTranslator(&german);
    const Texts translated = collectViews(history_);
    QCoreApplication::removeTranslator(&german);

    QStringList onlyOne;
    for (const QString& key : english.keys()) {
      if (!translated.contains(key)) onlyOne << QStringLiteral("only in English: ") + key;
    }
    for (const QString& key : translated.keys()) {
      if (!english.contains(key)) onlyOne << QStringLiteral("only in German: ") + key + " = " + translated.value(key);
    }
    QVERIFY2(onlyOne.isEmpty(), qPrintable(onlyOne.join(QLatin1Char('\n'))));
    QStringList untranslated;
    for (auto it = english.constBegin(); it != english.constEnd(); ++it) {
      const QString text = plain(translated.value(it.key()));
      if (text == plain(it.value()) && !allowed(text)) untranslated << it.key() + QStringLiteral(" = \"") + text + '"';
    }
    QVERIFY2(untranslated.isEmpty(), qPrintable(QStringLiteral("\n") + untranslated.join(QLatin1Char('\n'))));
  }

  void englishHasPluralForms() {
    QTranslator english;
    QVERIFY(english.load(QStringLiteral("spindle_gui_en"), QStringLiteral(SPINDLE_GUI_QM_DIR)));
    QCOMPARE(english.translate("spindle::gui::MainWindow", "Spec: %n problem(s)", nullptr, 1),
             QStringLiteral("Spec: %n problem"));
    QCOMPARE(english.translate("spindle::gui::MainWindow", "Spec: %n problem(s)", nullptr, 3),
             QStringLiteral("Spec: %n problems"));
  }

  void kerberosLoginSurvivesTheSettings() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString keytab = writeKeytab(directory);
    QVERIFY(!keytab.isEmpty());
    {
      SettingsDialog dialog;
      dialog.setHadoopConfDir(directory.path());
      dialog.setKerberos(QStringLiteral(" alice@EXAMPLE.COM "), keytab);
      QVERIFY(dialog.messageFor(QStringLiteral("kerberos.principal")).isEmpty());
      QVERIFY2(dialog.messageFor(QStringLiteral("kerberos.keytab")).isEmpty(),
               qPrintable(dialog.messageFor(QStringLiteral("kerberos.keytab"))));
      QVERIFY(okEnabled(dialog));
      dialog.save();
    }
    const HadoopSetup saved = HadoopSetup::fromSettings();
    QCOMPARE(saved.directory, directory.path());
    QCOMPARE(saved.principal, QStringLiteral("alice@EXAMPLE.COM"));
    QCOMPARE(saved.keytab, keytab);
    QVERIFY(saved.usesKeytab());

    // A new dialog shows what was saved; clearing both goes back to kinit.
    SettingsDialog reopened;
    QCOMPARE(reopened.hadoopConfDir(), directory.path());
    QCOMPARE(reopened.principal(), QStringLiteral("alice@EXAMPLE.COM"));
    QCOMPARE(reopened.keytab(), keytab);
    reopened.setHadoopConfDir(QString());
    reopened.setKerberos(QString(), QString());
    QVERIFY(okEnabled(reopened));
    reopened.save();
    const HadoopSetup cleared = HadoopSetup::fromSettings();
    QVERIFY(cleared.directory.isEmpty());
    QVERIFY(cleared.principal.isEmpty());
    QVERIFY(cleared.keytab.isEmpty());
    QVERIFY(!cleared.usesKeytab());
  }

  void mlflowServerIsCheckedAndSaved() {
    {
      SettingsDialog dialog;
      QLineEdit* uri = nullptr;
      for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->placeholderText().contains(QLatin1String("MLFLOW_TRACKING_URI"))) uri = edit;
      }
      QVERIFY(uri);
      uri->setText(QStringLiteral("file:./mlruns"));
      QCOMPARE(dialog.messageFor(QStringLiteral("mlflow.tracking_uri")),
               QStringLiteral("give the http:// or https:// address of an MLflow tracking server (such as "
                              "http://mlflow.example.com:5000), or leave it empty"));
      QVERIFY(!okEnabled(dialog));
      uri->setText(QStringLiteral(" http://mlflow.example.com:5000 "));
      QVERIFY(dialog.messageFor(QStringLiteral("mlflow.tracking_uri")).isEmpty());
      QVERIFY(okEnabled(dialog));
      dialog.save();
    }
    QCOMPARE(AppSettings::mlflowTrackingUri(), QStringLiteral("http://mlflow.example.com:5000"));
    SettingsDialog reopened;
    QCOMPARE(reopened.mlflowTrackingUri(), QStringLiteral("http://mlflow.example.com:5000"));
    AppSettings::setMlflowTrackingUri(QString());
  }

  void kerberosLoginNeedsBothOrNeither() {
    QTemporaryDir directory;
    const QString keytab = writeKeytab(directory);
    SettingsDialog dialog;
    QVERIFY(okEnabled(dialog));

    dialog.setKerberos(QStringLiteral("alice@EXAMPLE.COM"), QString());
    QCOMPARE(dialog.messageFor(QStringLiteral("kerberos.keytab")),
             QStringLiteral("choose the keytab file of alice@EXAMPLE.COM, or clear the principal to use the ticket "
                            "from kinit"));
    QVERIFY(dialog.messageFor(QStringLiteral("kerberos.principal")).isEmpty());
    QVERIFY(!okEnabled(dialog));
    // The sentence is in the label under the field.
    QStringList shown;
    for (const QLabel* label : dialog.findChildren<QLabel*>(QStringLiteral("fieldMessage"))) {
      if (!label->isHidden()) shown << label->text();
    }
    QCOMPARE(shown, QStringList{dialog.messageFor(QStringLiteral("kerberos.keytab"))});

    dialog.setKerberos(QString(), keytab);
    QCOMPARE(dialog.messageFor(QStringLiteral("kerberos.principal")),
             QStringLiteral("give the principal the keytab was made for (such as alice@EXAMPLE.COM), or clear the "
                            "keytab to use the ticket from kinit"));
    QVERIFY(dialog.messageFor(QStringLiteral("kerberos.keytab")).isEmpty());
    QVERIFY(!okEnabled(dialog));

    dialog.setKerberos(QStringLiteral("alice@EXAMPLE.COM"), keytab);
    QVERIFY(dialog.messageFor(QStringLiteral("kerberos.principal")).isEmpty());
    QVERIFY(dialog.messageFor(QStringLiteral("kerberos.keytab")).isEmpty());
    QVERIFY(okEnabled(dialog));
  }

  void unreadableKeytabIsNamed() {
    QTemporaryDir directory;
    const QString principal = QStringLiteral("alice@EXAMPLE.COM");
    const auto keytabMessage = [&](const QString& keytab) {
      const Diagnostics problems = SettingsDialog::checkKerberos(principal, keytab);
      QStringList messages;
      for (const auto& problem : problems) {
        if (problem.field == "kerberos.keytab") messages << QString::fromStdString(problem.message);
      }
      return messages.join(QLatin1Char('\n'));
    };
    const QString missing = directory.filePath(QStringLiteral("missing.keytab"));
    QCOMPARE(keytabMessage(missing), cannotBeRead(missing, QStringLiteral("there is no such file")));
    QCOMPARE(keytabMessage(directory.path()), cannotBeRead(directory.path(), QStringLiteral("it is a directory")));
    QCOMPARE(keytabMessage(QStringLiteral("alice.keytab")), QStringLiteral("give the full path of the keytab file"));

    // The dialog shows the same sentence and does not save it.
    SettingsDialog dialog;
    dialog.setKerberos(principal, missing);
    QCOMPARE(dialog.messageFor(QStringLiteral("kerberos.keytab")), keytabMessage(missing));
    QVERIFY(!okEnabled(dialog));

    // A file without read permission, with the system's reason; root reads
    // it anyway, and then there is nothing to report.
    const QString locked = writeKeytab(directory);
    QVERIFY(QFile::setPermissions(locked, QFileDevice::WriteOwner));
    QFile probe(locked);
    if (probe.open(QIODevice::ReadOnly)) {
      QVERIFY(keytabMessage(locked).isEmpty());
    } else {
      QCOMPARE(keytabMessage(locked), cannotBeRead(locked, probe.errorString()));
    }
  }

  void loadPutsTheKeytabLoginIntoTheConfiguration() {
    QTemporaryDir directory;
    QFile coreSite(directory.filePath(QStringLiteral("core-site.xml")));
    QVERIFY(coreSite.open(QIODevice::WriteOnly));
    coreSite.write(R"(<?xml version="1.0"?>
<configuration>
  <property><name>hadoop.security.authentication</name><value>kerberos</value></property>
  <property><name>spindle.kerberos.principal</name><value>bob@EXAMPLE.COM</value></property>
</configuration>
)");
    coreSite.close();

    const HadoopSetup login{directory.path(), QStringLiteral("alice@EXAMPLE.COM"),
                            QStringLiteral("/home/alice/alice.keytab")};
    auto loaded = login.load();
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->get_or("hadoop.security.authentication", ""), std::string("kerberos"));
    // The settings' choice wins over the file's.
    QCOMPARE(loaded->get_or("spindle.kerberos.principal", ""), std::string("alice@EXAMPLE.COM"));
    QCOMPARE(loaded->get_or("spindle.kerberos.keytab", ""), std::string("/home/alice/alice.keytab"));

    // Half a login (or none) leaves the files to decide.
    for (const HadoopSetup& setup : {HadoopSetup{directory.path(), QStringLiteral("alice@EXAMPLE.COM"), QString()},
                                     HadoopSetup{directory.path()}}) {
      auto plain = setup.load();
      QVERIFY(plain);
      QCOMPARE(plain->get_or("spindle.kerberos.principal", ""), std::string("bob@EXAMPLE.COM"));
      QCOMPARE(plain->get_or("spindle.kerberos.keytab", ""), std::string());
    }
  }

  void refusedLoginPointsToTheSettings() {
    const Error refused = authentication_error("there is no Kerberos ticket for the cluster; run `kinit` to get one");
    QCOMPARE(HadoopSetup{}.explain(refused),
             QStringLiteral("there is no Kerberos ticket for the cluster; run `kinit` to get one, or set a keytab "
                            "in Settings"));
    const HadoopSetup login{QString(), QStringLiteral("alice@EXAMPLE.COM"), QStringLiteral("/k/alice.keytab")};
    QVERIFY(login.explain(refused).endsWith(QLatin1String("; the keytab and principal are in Settings")));
    // Other failures are core's sentence alone.
    QCOMPARE(HadoopSetup{}.explain(make_error("cannot reach the ResourceManager")),
             QStringLiteral("cannot reach the ResourceManager"));

    QTranslator german;
    QVERIFY(german.load(QStringLiteral("spindle_gui_de"), QStringLiteral(SPINDLE_GUI_QM_DIR)));
    QCoreApplication::installTranslator(&german);
    const QString translated = HadoopSetup{}.explain(refused);
    QCoreApplication::removeTranslator(&german);
    QVERIFY2(translated.endsWith(QLatin1String("legen Sie in den Einstellungen eine Keytab fest")),
             qPrintable(translated));
  }

 private:
  QTemporaryDir directory_;
  QString history_;
};

SPINDLE_GUI_TEST_MAIN(TranslationTest)
#include "translation_test.moc"
