#include "jobview/scalarchartview.h"

#include <QEvent>
#include <QHash>

#include "convert.h"

namespace spindle::gui {

ScalarChartView::ScalarChartView(QWidget* parent) : SeriesChartView(parent) {
  setEmptyText(tr("No training scalars yet: they appear as the job writes TensorFlow event files to its output."));
}

void ScalarChartView::addPoints(const std::vector<client::MetricPoint>& points) {
  // One vector per (tag, run), handed over at once.
  QHash<QPair<QString, QString>, QVector<QPointF>> batches;
  for (const auto& point : points) {
    if (point.source != "tfevents") continue;
    batches[{qs(point.tag), qs(point.run)}].append(QPointF(static_cast<double>(point.step), point.value));
  }
  for (auto it = batches.constBegin(); it != batches.constEnd(); ++it) {
    appendPoints(it.key().first, it.key().second, it.value());
  }
}

QString ScalarChartView::xTitle() const {
  return tr("Step");
}

QString ScalarChartView::yTitle(const QString& key) const {
  return key;
}

QString ScalarChartView::preferredKey(const QStringList& keys) const {
  for (const QString& key : keys) {
    if (key == QLatin1String("loss")) return key;
  }
  for (const QString& key : keys) {
    if (key.contains(QLatin1String("loss"))) return key;
  }
  return {};
}

void ScalarChartView::changeEvent(QEvent* event) {
  SeriesChartView::changeEvent(event);
  if (event->type() == QEvent::LanguageChange) {
    setEmptyText(tr("No training scalars yet: they appear as the job writes TensorFlow event files to its output."));
  }
}

}  // namespace spindle::gui
