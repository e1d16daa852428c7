#include "settings/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
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
#include "settings/localyarn.h"
#include "translations.h"

namespace spindle::gui {

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
  buttons->button(QDialogButtonBox::Ok)->setText(tr("&OK"));
  buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Cancel"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(cluster);
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
  updateEffective();
}

QString SettingsDialog::hadoopConfDir() const {
  return confDir_->text().trimmed();
}

void SettingsDialog::setHadoopConfDir(const QString& directory) {
  confDir_->setText(directory);
}

bool SettingsDialog::darkPalette() const {
  return dark_->isChecked();
}

QString SettingsDialog::language() const {
  return language_->currentData().toString();
}

void SettingsDialog::save() const {
  AppSettings::setHadoopConfDir(hadoopConfDir());
  AppSettings::setDarkPalette(darkPalette());
  AppSettings::setLanguage(language());
}

void SettingsDialog::updateEffective() {
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
