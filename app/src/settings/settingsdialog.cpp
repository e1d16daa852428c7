#include "settings/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "appsettings.h"
#include "cluster/hadoopsetup.h"
#include "convert.h"
#include "designer/fieldmessages.h"
#include "designer/formrows.h"
#include "settings/localyarn.h"
#include "translations.h"

namespace spindle::gui {
namespace {

const QString principalField = QStringLiteral("kerberos.principal");
const QString keytabField = QStringLiteral("kerberos.keytab");
const QString mlflowField = QStringLiteral("mlflow.tracking_uri");
const QString serverAddressField = QStringLiteral("server.address");
const QString serverCertificateField = QStringLiteral("server.certificate");

// Why the keytab file cannot be read ("" when it can): checked here, where
// the path is typed, rather than at the first connection.
QString unreadableBecause(const QString& keytab) {
  const QFileInfo info(keytab);
  if (!info.exists()) return SettingsDialog::tr("there is no such file");
  if (info.isDir()) return SettingsDialog::tr("it is a directory");
  QFile file(keytab);
  if (!file.open(QIODevice::ReadOnly)) return file.errorString();
  return QString();
}

}  // namespace

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Settings"));
  confDir_ = new QLineEdit(AppSettings::hadoopConfDir());
  confDir_->setPlaceholderText(tr("empty: HADOOP_CONF_DIR of the environment"));
  confDir_->setClearButtonEnabled(true);
  auto* browse = new QPushButton(tr("&Browse…"));
  auto* local = new QPushButton(tr("Use the &local YARN"));
  local->setToolTip(tr("The configuration of the single-machine YARN that spindle local up starts"));
  effective_ = new QLabel;
  effective_->setWordWrap(true);
  effective_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* cluster = new QGroupBox(tr("Cluster"));
  auto* clusterForm = new QFormLayout(cluster);
  auto* dirRow = new QHBoxLayout;
  dirRow->addWidget(confDir_, 1);
  dirRow->addWidget(browse);
  dirRow->addWidget(local);
  auto* dirLabel = new QLabel(tr("Hadoop &configuration:"));
  dirLabel->setBuddy(confDir_);
  clusterForm->addRow(dirLabel, dirRow);
  clusterForm->addRow(QString(), effective_);

  const HadoopSetup saved = HadoopSetup::fromSettings();
  principal_ = new QLineEdit(saved.principal);
  principal_->setPlaceholderText(tr("empty: the ticket from kinit"));
  principal_->setClearButtonEnabled(true);
  keytab_ = new QLineEdit(saved.keytab);
  keytab_->setPlaceholderText(tr("the keytab file of the principal"));
  keytab_->setClearButtonEnabled(true);
  auto* browseKeytab = new QPushButton(tr("B&rowse…"));
  messages_ = new FieldMessages(this);
  auto* kerberos = new QGroupBox(tr("Kerberos login"));
  auto* kerberosForm = new QFormLayout(kerberos);
  auto* principalLabel = new QLabel(tr("&Principal:"));
  principalLabel->setBuddy(principal_);
  kerberosForm->addRow(principalLabel, fieldWithMessage(*messages_, principalField, principal_));
  auto* keytabLabel = new QLabel(tr("&Keytab:"));
  keytabLabel->setBuddy(keytab_);
  kerberosForm->addRow(keytabLabel, fieldWithMessage(*messages_, keytabField, keytab_, browseKeytab));
  auto* kerberosHint = hintLabel();
  kerberosHint->setWordWrap(true);
  kerberosHint->setText(
      tr("With a principal and its keytab, Spindle gets its own tickets and leaves the ticket cache of kinit alone."));
  kerberosForm->addRow(QString(), kerberosHint);

  useServer_ = new QCheckBox(tr("Connect through a Spindle &server"));
  useServer_->setChecked(!saved.server.isEmpty());
  serverAddress_ = new QLineEdit(saved.server);
  serverAddress_->setPlaceholderText(tr("the address spindle serve printed, with its ?token="));
  serverAddress_->setToolTip(
      tr("Without a token the app signs in with your Kerberos ticket, when the server takes "
         "Kerberos logins (spindle serve --keytab)."));
  serverAddress_->setClearButtonEnabled(true);
  serverAddress_->setEchoMode(QLineEdit::PasswordEchoOnEdit);  // it holds the token
  serverCertificate_ = new QLineEdit(saved.serverCertificate);
  serverCertificate_->setPlaceholderText(tr("https only: its certificate.pem; empty: the system's CAs"));
  serverCertificate_->setClearButtonEnabled(true);
  auto* browseCertificate = new QPushButton(tr("Bro&wse…"));
  auto* server = new QGroupBox(tr("Spindle server"));
  auto* serverForm = new QFormLayout(server);
  serverForm->addRow(QString(), useServer_);
  auto* serverAddressLabel = new QLabel(tr("&Address:"));
  serverAddressLabel->setBuddy(serverAddress_);
  serverForm->addRow(serverAddressLabel, fieldWithMessage(*messages_, serverAddressField, serverAddress_));
  auto* serverCertificateLabel = new QLabel(tr("C&ertificate:"));
  serverCertificateLabel->setBuddy(serverCertificate_);
  serverForm->addRow(serverCertificateLabel,
                     fieldWithMessage(*messages_, serverCertificateField, serverCertificate_, browseCertificate));
  auto* serverHint = hintLabel();
  serverHint->setWordWrap(true);
  serverHint->setText(
      tr("When the cluster is reached only from a gateway node: run spindle serve there, open an SSH tunnel "
         "(ssh -L PORT:127.0.0.1:PORT gateway) and paste the address it printed. Every view then asks that server "
         "instead of the cluster, and the Hadoop configuration above is not used."));
  serverForm->addRow(QString(), serverHint);

  mlflowUri_ = new QLineEdit(AppSettings::mlflowTrackingUri());
  mlflowUri_->setPlaceholderText(tr("empty: MLFLOW_TRACKING_URI of the environment"));
  mlflowUri_->setClearButtonEnabled(true);
  auto* tracking = new QGroupBox(tr("Experiment tracking"));
  auto* trackingForm = new QFormLayout(tracking);
  auto* mlflowLabel = new QLabel(tr("&MLflow server:"));
  mlflowLabel->setBuddy(mlflowUri_);
  trackingForm->addRow(mlflowLabel, fieldWithMessage(*messages_, mlflowField, mlflowUri_));
  auto* trackingHint = hintLabel();
  trackingHint->setWordWrap(true);
  trackingHint->setText(tr("Jobs whose spec names no MLflow server are recorded as runs there."));
  trackingForm->addRow(QString(), trackingHint);

  notify_ = new QCheckBox(tr("Notify me when my &jobs end"));
  notify_->setChecked(AppSettings::notifyJobEnds());
  closeToTray_ = new QCheckBox(tr("Keep running in the &tray when the window is closed"));
  closeToTray_->setChecked(AppSettings::closeToTray());
  auto* notifications = new QGroupBox(tr("Notifications"));
  auto* notificationsForm = new QFormLayout(notifications);
  notificationsForm->addRow(QString(), notify_);
  notificationsForm->addRow(QString(), closeToTray_);

  dark_ = new QCheckBox(tr("&Dark palette"));
  dark_->setChecked(AppSettings::darkPalette());
  language_ = new QComboBox;
  language_->addItem(tr("System language"), QString());
  for (const QString& code : availableLanguages()) language_->addItem(languageName(code), code);
  language_->setCurrentIndex(std::max(0, language_->findData(AppSettings::language())));
  auto* appearance = new QGroupBox(tr("Appearance"));
  auto* appearanceForm = new QFormLayout(appearance);
  appearanceForm->addRow(QString(), dark_);
  appearanceForm->addRow(tr("&Language:"), language_);
  appearanceForm->addRow(QString(), new QLabel(tr("A new language shows after a restart.")));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("&OK"));
  buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Cancel"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(cluster);
  layout->addWidget(kerberos);
  layout->addWidget(server);
  layout->addWidget(tracking);
  layout->addWidget(notifications);
  layout->addWidget(appearance);
  layout->addStretch();
  layout->addWidget(buttons);
  resize(640, sizeHint().height());

  connect(confDir_, &QLineEdit::textChanged, this, &SettingsDialog::updateEffective);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString directory =
        QFileDialog::getExistingDirectory(this, tr("Hadoop configuration directory"), confDir_->text());
    if (!directory.isEmpty()) confDir_->setText(directory);
  });
  connect(local, &QPushButton::clicked, this, &SettingsDialog::useLocalYarn);
  connect(principal_, &QLineEdit::textChanged, this, &SettingsDialog::updateKerberos);
  connect(keytab_, &QLineEdit::textChanged, this, &SettingsDialog::updateKerberos);
  connect(mlflowUri_, &QLineEdit::textChanged, this, &SettingsDialog::updateKerberos);
  connect(useServer_, &QCheckBox::toggled, this, [this](bool on) {
    serverAddress_->setEnabled(on);
    serverCertificate_->setEnabled(on);
    updateEffective();
    updateKerberos();
  });
  serverAddress_->setEnabled(useServer_->isChecked());
  serverCertificate_->setEnabled(useServer_->isChecked());
  connect(serverAddress_, &QLineEdit::textChanged, this, &SettingsDialog::updateKerberos);
  connect(serverCertificate_, &QLineEdit::textChanged, this, &SettingsDialog::updateKerberos);
  connect(browseCertificate, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("The Spindle server's certificate"), QDir::homePath(),
                                                      tr("PEM certificates (*.pem *.crt);;All files (*)"));
    if (!file.isEmpty()) serverCertificate_->setText(file);
  });
  connect(browseKeytab, &QPushButton::clicked, this, [this] {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Keytab file"), keytab().isEmpty() ? QDir::homePath() : keytab(),
                                     tr("Keytab files (*.keytab);;All files (*)"));
    if (!file.isEmpty()) keytab_->setText(file);
  });
  updateEffective();
  updateKerberos();
}

QString SettingsDialog::hadoopConfDir() const {
  return confDir_->text().trimmed();
}

void SettingsDialog::setHadoopConfDir(const QString& directory) {
  confDir_->setText(directory);
}

QString SettingsDialog::principal() const {
  return principal_->text().trimmed();
}

QString SettingsDialog::keytab() const {
  return keytab_->text().trimmed();
}

void SettingsDialog::setKerberos(const QString& principal, const QString& keytab) {
  principal_->setText(principal);
  keytab_->setText(keytab);
}

HadoopSetup SettingsDialog::setup() const {
  if (!useServer_->isChecked()) return HadoopSetup{hadoopConfDir(), principal(), keytab()};
  return HadoopSetup{hadoopConfDir(), principal(), keytab(), serverAddress_->text().trimmed(),
                     serverCertificate_->text().trimmed()};
}

void SettingsDialog::setServer(bool used, const QString& address, const QString& certificate) {
  useServer_->setChecked(used);
  serverAddress_->setText(address);
  serverCertificate_->setText(certificate);
}

Diagnostics SettingsDialog::checkServer(bool used, const QString& address, const QString& certificate) {
  Diagnostics problems;
  if (!used) return problems;
  const auto report = [&](const QString& field, const std::string& message) {
    Diagnostic problem;
    problem.field = ss(field);
    problem.message = message;
    problems.push_back(std::move(problem));
  };
  if (auto parsed = client::parse_dashboard_address(ss(address.trimmed())); !parsed) {
    report(serverAddressField, parsed.error().message);
  }
  if (!certificate.isEmpty()) {
    if (const QString reason = unreadableBecause(certificate); !reason.isEmpty()) {
      report(serverCertificateField, ss(tr("%1 cannot be read: %2; choose the certificate.pem that spindle serve "
                                           "keeps in its state directory's serve/")
                                            .arg(QDir::toNativeSeparators(certificate), reason)));
    }
  }
  return problems;
}

bool SettingsDialog::darkPalette() const {
  return dark_->isChecked();
}

QString SettingsDialog::language() const {
  return language_->currentData().toString();
}

QString SettingsDialog::mlflowTrackingUri() const {
  return mlflowUri_->text().trimmed();
}

void SettingsDialog::save() const {
  setup().save();
  AppSettings::setMlflowTrackingUri(mlflowTrackingUri());
  AppSettings::setNotifyJobEnds(notify_->isChecked());
  AppSettings::setCloseToTray(closeToTray_->isChecked());
  AppSettings::setDarkPalette(darkPalette());
  AppSettings::setLanguage(language());
}

void SettingsDialog::updateEffective() {
  if (useServer_->isChecked()) {
    effective_->setText(tr("Not used while the app connects through a Spindle server (below)."));
    return;
  }
  const HadoopSetup setup{hadoopConfDir()};
  const QString directory = setup.describe();
  if (directory.isEmpty()) {
    effective_->setText(tr("No configuration: HADOOP_CONF_DIR is not set. Choose a directory or use the local YARN."));
  } else if (!QFileInfo(QDir(directory).filePath(QStringLiteral("yarn-site.xml"))).exists()) {
    effective_->setText(tr("%1 has no yarn-site.xml.").arg(QDir::toNativeSeparators(directory)));
  } else {
    effective_->setText(tr("Reads %1").arg(QDir::toNativeSeparators(directory)));
  }
}

Diagnostics SettingsDialog::checkKerberos(const QString& principal, const QString& keytab) {
  Diagnostics problems;
  const auto report = [&](const QString& field, const QString& message) {
    Diagnostic problem;
    problem.field = ss(field);
    problem.message = ss(message);
    problems.push_back(std::move(problem));
  };
  // One without the other would silently fall back to kinit's ticket.
  if (principal.isEmpty() && !keytab.isEmpty()) {
    report(principalField, tr("give the principal the keytab was made for (such as alice@EXAMPLE.COM), or clear "
                              "the keytab to use the ticket from kinit"));
  }
  if (!principal.isEmpty() && keytab.isEmpty()) {
    report(keytabField,
           tr("choose the keytab file of %1, or clear the principal to use the ticket from kinit").arg(principal));
  }
  if (keytab.isEmpty()) return problems;
  // The clients read the path from wherever the app happens to run.
  if (QFileInfo(keytab).isRelative()) {
    report(keytabField, tr("give the full path of the keytab file"));
    return problems;
  }
  if (const QString reason = unreadableBecause(keytab); !reason.isEmpty()) {
    report(keytabField, tr("%1 cannot be read: %2; choose the keytab file `kadmin` or your administrator gave you")
                            .arg(QDir::toNativeSeparators(keytab), reason));
  }
  return problems;
}

QString SettingsDialog::messageFor(const QString& field) const {
  return messages_->messageFor(field);
}

Diagnostics SettingsDialog::checkMlflowUri(const QString& uri) {
  Diagnostics problems;
  if (uri.isEmpty() || uri.startsWith(QLatin1String("http://")) || uri.startsWith(QLatin1String("https://"))) {
    return problems;
  }
  Diagnostic problem;
  problem.field = ss(mlflowField);
  problem.message =
      ss(tr("give the http:// or https:// address of an MLflow tracking server (such as "
            "http://mlflow.example.com:5000), or leave it empty"));
  problems.push_back(std::move(problem));
  return problems;
}

void SettingsDialog::updateKerberos() {
  Diagnostics problems = checkKerberos(principal(), keytab());
  for (auto& problem : checkMlflowUri(mlflowTrackingUri())) problems.push_back(std::move(problem));
  for (auto& problem : checkServer(useServer_->isChecked(), serverAddress_->text(), serverCertificate_->text())) {
    problems.push_back(std::move(problem));
  }
  messages_->show(problems);
  // A half-set login is never saved.
  ok_->setEnabled(problems.empty());
}

void SettingsDialog::useLocalYarn() {
  const QString directory = LocalYarn::runningConfDir();
  if (directory.isEmpty()) {
    QMessageBox::information(this, tr("Local YARN"),
                             tr("The local YARN does not run. Start it with spindle local up (or from the first-run "
                                "dialog), then choose it here."));
    return;
  }
  confDir_->setText(directory);
}

}  // namespace spindle::gui
