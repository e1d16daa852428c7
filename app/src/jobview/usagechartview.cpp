#include "jobview/usagechartview.h"

#include <QEvent>
#include <map>

#include "convert.h"

namespace spindle::gui {

UsageChartView::UsageChartView(QWidget* parent) : SeriesChartView(parent) {
  setEmptyText(tr("No container use yet: executors report it while their tasks run."));
}

void UsageChartView::addSample(const QString& task, double ms, std::optional<double> memoryBytes,
                               std::optional<double> cpuSeconds, QHash<QString, QVector<QPointF>>& memory,
                               QHash<QString, QVector<QPointF>>& cpu) {
  if (memoryBytes) memory[task].append(QPointF(ms, *memoryBytes / (1024.0 * 1024.0)));
  if (!cpuSeconds) return;
  auto last = lastCpu_.find(task);
  if (last != lastCpu_.end() && ms > last->ms && *cpuSeconds >= last->seconds) {
    cpu[task].append(QPointF(ms, (*cpuSeconds - last->seconds) / ((ms - last->ms) / 1000.0)));
  }
  if (last == lastCpu_.end() || ms > last->ms) lastCpu_[task] = LastCpu{ms, *cpuSeconds};
}

void UsageChartView::addStatus(const JobStatus& status, qint64 takenMs) {
  QHash<QString, QVector<QPointF>> memory, cpu;
  const double ms = static_cast<double>(takenMs);
  for (const auto& task : status.tasks) {
    if (task.phase != "running" && task.phase != "registered") continue;
    if (task.rss_bytes == 0 && task.cpu_seconds == 0) continue;
    const QString name = qs(task.task);
    if (lastMs_.value(name, -1) >= ms) continue;
    lastMs_[name] = ms;
    addSample(name, ms, static_cast<double>(task.rss_bytes), task.cpu_seconds, memory, cpu);
  }
  for (auto it = memory.constBegin(); it != memory.constEnd(); ++it) appendPoints(memoryKey, it.key(), it.value());
  for (auto it = cpu.constBegin(); it != cpu.constEnd(); ++it) appendPoints(cpuKey, it.key(), it.value());
}

void UsageChartView::addHistory(const std::vector<client::MetricPoint>& points) {
  // Memory and CPU of one look at the job share their time; in time order.
  std::map<std::pair<QString, double>, std::pair<std::optional<double>, std::optional<double>>> samples;
  for (const auto& point : points) {
    if (point.source != "container") continue;
    auto& sample = samples[{qs(point.run), point.wall_time * 1000.0}];
    if (point.tag == "memory_bytes") sample.first = point.value;
    if (point.tag == "cpu_seconds") sample.second = point.value;
  }
  std::vector<std::pair<std::pair<QString, double>, std::pair<std::optional<double>, std::optional<double>>>> ordered(
      samples.begin(), samples.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first.second < b.first.second; });
  QHash<QString, QVector<QPointF>> memory, cpu;
  for (const auto& [key, values] : ordered) {
    if (lastMs_.value(key.first, -1) >= key.second) continue;
    lastMs_[key.first] = key.second;
    addSample(key.first, key.second, values.first, values.second, memory, cpu);
  }
  for (auto it = memory.constBegin(); it != memory.constEnd(); ++it) appendPoints(memoryKey, it.key(), it.value());
  for (auto it = cpu.constBegin(); it != cpu.constEnd(); ++it) appendPoints(cpuKey, it.key(), it.value());
}

QString UsageChartView::keyLabel(const QString& key) const {
  if (key == memoryKey) return tr("Memory");
  if (key == cpuKey) return tr("CPU use");
  return key;
}

QString UsageChartView::xTitle() const {
  return tr("Time");
}

QString UsageChartView::yTitle(const QString& key) const {
  if (key == memoryKey) return tr("Resident memory (MiB)");
  if (key == cpuKey) return tr("CPU (cores)");
  return key;
}

void UsageChartView::changeEvent(QEvent* event) {
  SeriesChartView::changeEvent(event);
  if (event->type() == QEvent::LanguageChange) {
    setEmptyText(tr("No container use yet: executors report it while their tasks run."));
  }
}

}  // namespace spindle::gui
