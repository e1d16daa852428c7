#pragma once

#include <QTimer>
#include <QWidget>
#include <optional>

#include "spindle/client/history_store.h"

class QLabel;
class QTableWidget;
class QFormLayout;

namespace spindle::gui {

// What the history knows about one job: its state, each task's attempts and
// the job's events. Read-only; refreshed while the job runs. The job view
// replaces it when the app has one (MainWindow::setJobViewFactory).
class JobSummaryWidget : public QWidget {
  Q_OBJECT

 public:
  // An empty path reads the history where the CLI keeps it.
  explicit JobSummaryWidget(const QString& applicationId, const QString& historyPath = {}, QWidget* parent = nullptr);

  const QString& applicationId() const { return applicationId_; }
  int attemptCount() const;
  int eventCount() const;
  QString stateText() const;

 public slots:
  void refresh();

 private:
  QString applicationId_;
  QString historyPath_;
  std::optional<client::HistoryStore> store_;
  QLabel* title_;
  QLabel* state_;
  QLabel* queue_;
  QLabel* user_;
  QLabel* submitted_;
  QLabel* duration_;
  QLabel* tracking_;
  QLabel* diagnostics_;
  QTableWidget* attempts_;
  QTableWidget* events_;
  QTimer timer_;
};

}  // namespace spindle::gui
