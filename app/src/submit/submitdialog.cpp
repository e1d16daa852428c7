#include "submit/submitdialog.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "convert.h"
#include "spindle/core/python_env_path.h"
#include "submit/submitcontroller.h"
#include "theme.h"

namespace spindle::gui {

SubmitDialog::SubmitDialog(const JobSpec& spec, const HadoopSetup& setup, QWidget* parent)
    : QDialog(parent), spec_(spec), setup_(setup), controller_(new SubmitController(this)) {
  setWindowTitle(tr("Submit %1").arg(qs(spec.name)));
  setMinimumSize(560, 420);
  status_ =
      new QLabel(tr("Ready to submit to %1.").arg(setup.describe().isEmpty() ? tr("the cluster") : setup.describe()));
  status_->setWordWrap(true);
  QFont statusFont = status_->font();
  statusFont.setBold(true);
  status_->setFont(statusFont);
  error_ = new QLabel;
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setVisible(false);
  error_->setProperty("spindleDynamicText", true);  // core's sentence
  QPalette errorPalette = error_->palette();
  errorPalette.setColor(QPalette::WindowText, isDarkPalette() ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28));
  error_->setPalette(errorPalette);

  staged_ = new QProgressBar;
  staged_->setFormat(tr("waiting"));
  allocated_ = new QProgressBar;
  allocated_->setRange(0, spec.total_instances());
  allocated_->setValue(0);
  allocated_->setFormat(tr("%v of %m"));
  registered_ = new QProgressBar;
  registered_->setRange(0, spec.total_instances());
  registered_->setValue(0);
  registered_->setFormat(tr("%v of %m"));
  packed_ = new QProgressBar;
  packed_->setFormat(tr("waiting"));
  uploaded_ = new QProgressBar;
  uploaded_->setFormat(tr("waiting"));
  auto* form = new QFormLayout;
  // Only a job that ships a Python environment packs and uploads one.
  if (!spec.python_env.empty() && !python_env_on_nodes(spec.python_env)) {
    form->addRow(tr("Environment packed:"), packed_);
    form->addRow(tr("Environment uploaded:"), uploaded_);
  } else {
    packed_->hide();
    uploaded_->hide();
  }
  form->addRow(tr("Files staged:"), staged_);
  form->addRow(tr("Containers allocated:"), allocated_);
  form->addRow(tr("Tasks registered:"), registered_);

  log_ = new QPlainTextEdit;
  log_->setReadOnly(true);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  log_->setAccessibleName(tr("Submit log"));
  log_->setMaximumBlockCount(5000);

  auto* buttons = new QDialogButtonBox;
  openJob_ = buttons->addButton(tr("&Open job"), QDialogButtonBox::ActionRole);
  openJob_->setEnabled(false);
  close_ = buttons->addButton(QDialogButtonBox::Close);
  close_->setText(tr("&Close"));
  connect(close_, &QPushButton::clicked, this, &QDialog::close);
  connect(openJob_, &QPushButton::clicked, this, [this] {
    emit openJobRequested(applicationId_);
    close();
  });

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(status_);
  layout->addWidget(error_);
  layout->addLayout(form);
  layout->addWidget(log_, 1);
  layout->addWidget(buttons);

  connect(controller_, &SubmitController::progress, this, &SubmitDialog::appendLog);
  auto showBytes = [](QProgressBar* bar, qint64 done, qint64 total) {
    // Large files would overflow an int range; the bar counts KiB.
    bar->setRange(0, static_cast<int>(std::max<qint64>(total / 1024, 1)));
    bar->setValue(static_cast<int>(done / 1024));
    bar->setFormat(
        tr("%1 of %2").arg(formatBytes(static_cast<quint64>(done)), formatBytes(static_cast<quint64>(total))));
  };
  connect(controller_, &SubmitController::environmentPacked, this,
          [this, showBytes](qint64 done, qint64 total) { showBytes(packed_, done, total); });
  connect(controller_, &SubmitController::environmentUploaded, this,
          [this, showBytes](qint64 done, qint64 total) { showBytes(uploaded_, done, total); });
  connect(controller_, &SubmitController::environmentShipped, this,
          [this](const QString& name, qint64 uploadedBytes, bool packedNow) {
            for (auto* bar : {packed_, uploaded_}) {
              bar->setRange(0, 1);
              bar->setValue(1);
            }
            if (!packedNow) packed_->setFormat(tr("unchanged since it was packed"));
            if (uploadedBytes == 0) uploaded_->setFormat(tr("the cluster holds %1 already").arg(name));
          });
  connect(controller_, &SubmitController::bytesStaged, this, [this](qint64 staged, qint64 total) {
    // Large files would overflow an int range; the bar counts KiB.
    staged_->setRange(0, static_cast<int>(std::max<qint64>(total / 1024, 1)));
    staged_->setValue(static_cast<int>(staged / 1024));
    staged_->setFormat(
        tr("%1 of %2").arg(formatBytes(static_cast<quint64>(staged)), formatBytes(static_cast<quint64>(total))));
  });
  connect(controller_, &SubmitController::submitted, this, [this](const QString& id, const QString& staging) {
    applicationId_ = id;
    openJob_->setEnabled(true);
    status_->setText(tr("Submitted %1; waiting for YARN.").arg(id));
    appendLog(tr("submitted %1 (files in %2)").arg(id, staging));
    emit jobSubmitted(id);
  });
  connect(controller_, &SubmitController::failed, this, &SubmitDialog::showError);
  connect(controller_, &SubmitController::stateChanged, this, [this](const QString& state) {
    status_->setText(tr("%1 is %2.").arg(applicationId_, state));
    appendLog(QStringLiteral("%1: %2").arg(applicationId_, state));
  });
  connect(controller_, &SubmitController::jobEvent, this,
          [this](const QString& task, const QString& kind, const QString& message) {
            appendLog(QStringLiteral("  %1 %2%3")
                          .arg(task.isEmpty() ? tr("job") : task, kind,
                               message.isEmpty() ? QString() : QStringLiteral(": ") + message));
          });
  connect(controller_, &SubmitController::containersChanged, this, [this](int allocated, int registered, int total) {
    allocated_->setRange(0, total);
    allocated_->setValue(std::min(allocated, total));
    registered_->setRange(0, total);
    registered_->setValue(std::min(registered, total));
  });
  connect(controller_, &SubmitController::finished, this, [this](const QString& status, const QString& diagnostics) {
    ended_ = true;
    status_->setText(status == QLatin1String("SUCCEEDED") ? tr("%1 succeeded.").arg(applicationId_)
                                                          : tr("%1 ended %2.").arg(applicationId_, status));
    if (!diagnostics.isEmpty()) appendLog(diagnostics);
  });
  connect(controller_, &SubmitController::idle, this, [this] {
    ended_ = true;
    if (!isVisible()) deleteLater();
  });
}

SubmitDialog::~SubmitDialog() {
  controller_->stop();
}

void SubmitDialog::start() {
  status_->setText(tr("Submitting %1…").arg(qs(spec_.name)));
  staged_->setRange(0, 0);
  controller_->submit(spec_, setup_);
}

QString SubmitDialog::statusText() const {
  return status_->text();
}

QString SubmitDialog::errorText() const {
  return error_->isHidden() ? QString() : error_->text();
}

void SubmitDialog::appendLog(const QString& line) {
  log_->appendPlainText(QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), line));
}

void SubmitDialog::showError(const QString& message, bool badInput) {
  error_->setText(message);
  error_->setVisible(true);
  if (!applicationId_.isEmpty()) {
    status_->setText(tr("Lost track of %1; it may still run.").arg(applicationId_));
  } else {
    status_->setText(badInput ? tr("The cluster refused the job's settings.") : tr("The job could not be submitted."));
  }
  if (staged_->maximum() == 0) staged_->setRange(0, 1);
  appendLog(message);
}

void SubmitDialog::closeEvent(QCloseEvent* event) {
  // The job runs on; the controller keeps following it into the history
  // until it ends, then the dialog goes away.
  if (ended_ || !controller_->isBusy()) deleteLater();
  event->accept();
}

}  // namespace spindle::gui
