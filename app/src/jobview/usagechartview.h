#pragma once

#include <QHash>
#include <vector>

#include "jobview/serieschartview.h"
#include "spindle/client/history_store.h"
#include "spindle/core/job_status.h"

namespace spindle::gui {

// Memory and CPU of a job's containers over time, one series per task, as
// the executors report them in their heartbeats: memory in MiB, CPU in
// cores used between two samples.
class UsageChartView : public SeriesChartView {
  Q_OBJECT

 public:
  static inline const QString memoryKey = QStringLiteral("memory");
  static inline const QString cpuKey = QStringLiteral("cpu");

  explicit UsageChartView(QWidget* parent = nullptr);

  // A status seen at `takenMs` (ms since the epoch); tasks not running add nothing.
  void addStatus(const JobStatus& status, qint64 takenMs);
  // Points the history kept (source "container": memory_bytes, cpu_seconds).
  void addHistory(const std::vector<client::MetricPoint>& points);

 protected:
  QString keyLabel(const QString& key) const override;
  QString xTitle() const override;
  QString yTitle(const QString& key) const override;
  bool timeAxis() const override { return true; }
  QString preferredKey(const QStringList&) const override { return memoryKey; }
  void changeEvent(QEvent* event) override;

 private:
  struct LastCpu {
    double ms = 0;
    double seconds = 0;
  };
  void addSample(const QString& task, double ms, std::optional<double> memoryBytes, std::optional<double> cpuSeconds,
                 QHash<QString, QVector<QPointF>>& memory, QHash<QString, QVector<QPointF>>& cpu);
  QHash<QString, LastCpu> lastCpu_;
  QHash<QString, double> lastMs_;
};

}  // namespace spindle::gui
