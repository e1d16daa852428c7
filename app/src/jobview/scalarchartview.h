#pragma once

#include <vector>

#include "jobview/serieschartview.h"
#include "spindle/client/history_store.h"

namespace spindle::gui {

// Training scalars of a job: one series per run (the event files'
// subdirectory), the tag chosen above the chart; x is the step.
class ScalarChartView : public SeriesChartView {
  Q_OBJECT

 public:
  explicit ScalarChartView(QWidget* parent = nullptr);

  // Adds points of source "tfevents" (others are ignored).
  void addPoints(const std::vector<client::MetricPoint>& points);
  QStringList tags() const { return keys(); }
  void setCurrentTag(const QString& tag) { setCurrentKey(tag); }

 protected:
  QString xTitle() const override;
  QString yTitle(const QString& key) const override;
  // A loss, when there is one: what people look at first.
  QString preferredKey(const QStringList& keys) const override;
  void changeEvent(QEvent* event) override;
};

}  // namespace spindle::gui
