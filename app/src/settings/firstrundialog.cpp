#include "settings/firstrundialog.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "appsettings.h"
#include "cluster/hadoopsetup.h"
#include "settings/localyarn.h"

namespace spindle::gui {

FirstRunDialog::FirstRunDialog(QWidget* parent) : QDialog(parent), localYarn_(new LocalYarn(this)) {
  setWindowTitle(tr("Welcome to Spindle"));
  auto* intro = new QLabel(
      tr("Spindle runs training jobs on a Hadoop YARN cluster. Which cluster should it use?\n\n"
         "To try it on this machine, start the local YARN: a real ResourceManager, two NodeManagers (one labelled "
         "gpu) and HDFS, in one process. Or choose the Hadoop configuration directory of your cluster."));
  intro->setWordWrap(true);
  local_ = new QPushButton(tr("Start the &local YARN"));
  local_->setDefault(true);
  choose_ = new QPushButton(tr("&Choose a configuration directory…"));
  later_ = new QPushButton(tr("&Not now"));
  state_ = new QLabel;
  state_->setWordWrap(true);
  log_ = new QPlainTextEdit;
  log_->setReadOnly(true);
  log_->setVisible(false);
  log_->setAccessibleName(tr("Output of spindle local up"));

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(local_);
  buttons->addWidget(choose_);
  buttons->addStretch();
  buttons->addWidget(later_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(buttons);
  layout->addWidget(state_);
  layout->addWidget(log_, 1);
  resize(620, 280);

  connect(local_, &QPushButton::clicked, this, &FirstRunDialog::startLocalYarn);
  connect(choose_, &QPushButton::clicked, this, &FirstRunDialog::chooseDirectory);
  connect(later_, &QPushButton::clicked, this, [this] {
    AppSettings::setFirstRunDone(true);
    reject();
  });
  connect(localYarn_, &LocalYarn::output, log_, &QPlainTextEdit::appendPlainText);
  connect(localYarn_, &LocalYarn::started, this, &FirstRunDialog::finish);
  connect(localYarn_, &LocalYarn::failed, this, [this](const QString& message) {
    state_->setText(message);
    local_->setEnabled(true);
    choose_->setEnabled(true);
  });
}

bool FirstRunDialog::isNeeded() {
  return !AppSettings::firstRunDone() && HadoopSetup::fromSettings().describe().isEmpty();
}

void FirstRunDialog::startLocalYarn() {
  const QString running = LocalYarn::runningConfDir();
  if (!running.isEmpty()) {
    finish(running);
    return;
  }
  local_->setEnabled(false);
  choose_->setEnabled(false);
  log_->setVisible(true);
  state_->setText(tr("Starting the local YARN; the first start builds it and takes a few minutes…"));
  resize(width(), 480);
  localYarn_->start();
}

void FirstRunDialog::chooseDirectory() {
  const QString directory = QFileDialog::getExistingDirectory(this, tr("Hadoop configuration directory"));
  if (!directory.isEmpty()) finish(directory);
}

void FirstRunDialog::finish(const QString& directory) {
  confDir_ = directory;
  AppSettings::setHadoopConfDir(directory);
  AppSettings::setFirstRunDone(true);
  accept();
}

}  // namespace spindle::gui
