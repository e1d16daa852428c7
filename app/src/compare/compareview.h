#pragma once

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>
#include <map>
#include <vector>

#include "cluster/hadoopsetup.h"

class QLabel;
class QTableWidget;

namespace spindle::gui {

class ScalarChartView;

// Several jobs side by side, as a sweep is read: one chart per scalar tag
// with one series per job and run (from each job's own event files, read
// as the job view reads them), and a table of each series' final and best
// value beside the spec keys whose values differ between the jobs (queue,
// environment, command arguments, resources).
class CompareView : public QWidget {
  Q_OBJECT

 public:
  // An empty history path reads the history where the CLI keeps it. Through
  // a Spindle server (`setup`), each job's spec and scalars come from it.
  explicit CompareView(const QStringList& applicationIds, const QString& historyPath = {},
                       const HadoopSetup& setup = {}, QWidget* parent = nullptr);
  ~CompareView() override;

  ScalarChartView* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  // The spec keys whose values differ, in the table's column order.
  const QStringList& differingKeys() const { return differingKeys_; }
  bool isLoading() const { return watcher_.isRunning(); }
  // The series name of one job's run in the chart: "<job name> (<id suffix>) · <run>".
  QString seriesName(const QString& applicationId, const QString& run) const;

 signals:
  void loaded();

 public:
  struct Job {
    QString applicationId;
    QString label;  // name and the id's last digits
    QString state;
    std::map<QString, QString> parameters;  // the spec flattened
    // tag -> run -> points (step, value)
    std::map<QString, std::map<QString, QVector<QPointF>>> scalars;
    QString problem;  // why its scalars could not be read
  };

 private:
  void showJobs(const std::vector<Job>& jobs);
  void fillTable();

  QStringList ids_;
  std::vector<Job> jobs_;
  QStringList differingKeys_;
  QLabel* note_;
  ScalarChartView* chart_;
  QTableWidget* table_;
  QFutureWatcher<std::vector<Job>> watcher_;
};

}  // namespace spindle::gui
