#pragma once

#include <QDialog>

#include "cluster/hadoopsetup.h"
#include "spindle/core/job_spec.h"

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace spindle::gui {

class SubmitController;

// A submit as it happens: bytes staged, the application id, containers
// allocated and tasks registered, the job's events, and its end; or the
// sentence core gives for why it was refused. Closing it while the job runs
// leaves the job running and followed.
class SubmitDialog : public QDialog {
  Q_OBJECT

 public:
  SubmitDialog(const JobSpec& spec, const HadoopSetup& setup, QWidget* parent = nullptr);
  ~SubmitDialog() override;

  void start();
  SubmitController* controller() const { return controller_; }
  QString statusText() const;
  QString errorText() const;

 signals:
  void openJobRequested(const QString& applicationId);
  void jobSubmitted(const QString& applicationId);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void appendLog(const QString& line);
  void showError(const QString& message, bool badInput);

  JobSpec spec_;
  HadoopSetup setup_;
  SubmitController* controller_;
  QLabel* status_;
  QLabel* error_;
  QProgressBar* packed_;
  QProgressBar* uploaded_;
  QProgressBar* staged_;
  QProgressBar* allocated_;
  QProgressBar* registered_;
  QPlainTextEdit* log_;
  QPushButton* openJob_;
  QPushButton* close_;
  QString applicationId_;
  bool ended_ = false;
};

}  // namespace spindle::gui
