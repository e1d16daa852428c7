#pragma once

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>
#include <functional>

#include "cluster/hadoopsetup.h"
#include "spindle/client/job_service.h"
#include "spindle/client/sweeps.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace spindle::gui {

class ScalarChartView;

// Sweeps (docs/sweeps.md), as a tab beside Jobs and Cluster: the sweeps of
// this machine's history (or the server's), and the chosen one in full:
// every trial's parameters, state, best metric and why it ended, a chart of
// every trial's metric by step, the comparison view for the ticked trials,
// and stopping or killing a trial or the sweep. Asked again every few
// seconds while visible, off the UI thread.
class SweepsView : public QWidget {
  Q_OBJECT

 public:
  explicit SweepsView(QWidget* parent = nullptr);
  ~SweepsView() override;

  void setSetup(const HadoopSetup& setup);
  void setIntervalMs(int milliseconds) { timer_.setInterval(milliseconds); }
  // Shows this sweep (and keeps it shown as the list refreshes).
  void showSweep(const QString& sweepId);

  // For tests: what the views hold.
  QTableWidget* sweepsTable() const { return sweeps_; }
  QTableWidget* trialsTable() const { return trials_; }
  ScalarChartView* chart() const { return chart_; }
  QLabel* summary() const { return summary_; }
  QPushButton* compareButton() const { return compare_; }
  QPushButton* stopButton() const { return stop_; }
  QPushButton* killTrialButton() const { return killTrial_; }
  bool isAsking() const { return watcher_.isRunning(); }
  // The trials ticked for comparison, by their application ids.
  QStringList checkedTrials() const;

 public slots:
  void refresh();

 signals:
  void refreshed(bool answered);
  void compareRequested(const QStringList& applicationIds);
  void openJobRequested(const QString& applicationId);

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  struct Answer {
    QString problem;
    std::vector<client::SweepView> sweeps;
    std::optional<client::SweepDetail> shown;
  };
  void showAnswer(const Answer& answer);
  void fillSweeps(const std::vector<client::SweepView>& sweeps);
  void fillDetail(const client::SweepDetail& detail);
  void endTrial(bool stop);
  void killSweep();
  // Runs a change through the service; its refusal in a message box, else a refresh.
  void act(const std::function<Result<void>(client::JobService&)>& action);
  void retranslate();
  int selectedTrial() const;

  HadoopSetup setup_;
  QTimer timer_;
  QFutureWatcher<Answer> watcher_;
  QString shownId_;
  QString metric_;
  QLabel* heading_;
  QTableWidget* sweeps_;
  QLabel* summary_;
  QTableWidget* trials_;
  ScalarChartView* chart_;
  QPushButton* compare_;
  QPushButton* stop_;
  QPushButton* killTrial_;
  QPushButton* killSweep_;
  QPushButton* mlflowRun_;
  QString mlflowRunUrl_;
  QStringList checked_;  // application ids, kept across refreshes
};

}  // namespace spindle::gui
