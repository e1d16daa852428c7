#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>
#include <QtCharts/QChartGlobal>
#include <map>

class QComboBox;
class QLabel;

QT_CHARTS_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QAbstractAxis;
QT_CHARTS_END_NAMESPACE

namespace spindle::gui {

struct NiceAxis;

// A line chart of several named series per key (a tag, or memory and CPU),
// the key chosen in a combo box. Points are kept per key and series; the
// chart shows the chosen key's, each series replaced in one call with a
// prebuilt vector. Long series are drawn from a min/max reduction per
// horizontal pixel, so 100,000 points draw as fast as a few thousand.
class SeriesChartView : public QWidget {
  Q_OBJECT

 public:
  explicit SeriesChartView(QWidget* parent = nullptr);
  ~SeriesChartView() override;

  QComboBox* chooser() const { return chooser_; }
  QtCharts::QChartView* chartView() const { return view_; }
  QtCharts::QChart* chart() const { return chart_; }

  QStringList keys() const;
  QString currentKey() const;
  void setCurrentKey(const QString& key);
  // Series names of a key, sorted.
  QStringList seriesNames(const QString& key) const;
  // Every point kept for a series, in the order they came.
  QVector<QPointF> points(const QString& key, const QString& series) const;
  // The series the chart shows for the current key, or nullptr.
  QtCharts::QLineSeries* displayedSeries(const QString& series) const;
  int pointCount() const { return pointCount_; }

  void clear();
  // Adds points; the chart follows within a moment (or at once with flush()).
  void appendPoints(const QString& key, const QString& series, const QVector<QPointF>& points);
  void setPoints(const QString& key, const QString& series, QVector<QPointF> points);
  // Brings the shown series up to date now.
  void flush();
  // The hover tooltip of one point: "train · Step 300: loss 0.0177".
  virtual QString pointText(const QString& series, const QPointF& point) const;

  // Most points a displayed series gets before it is reduced.
  static constexpr int reduceAbove = 4000;
  // Most series the legend names.
  static constexpr std::size_t maxLegendEntries = 16;

 signals:
  void currentKeyChanged(const QString& key);

 protected:
  // The name the chooser shows for a key.
  virtual QString keyLabel(const QString& key) const { return key; }
  virtual QString xTitle() const = 0;
  virtual QString yTitle(const QString& key) const = 0;
  // Whether x holds milliseconds since the epoch (a time axis).
  virtual bool timeAxis() const { return false; }
  // The key chosen first, among those there are; the first one when empty.
  virtual QString preferredKey(const QStringList& keys) const {
    Q_UNUSED(keys);
    return {};
  }
  void setEmptyText(const QString& text);
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void applyNiceAxis(QtCharts::QValueAxis* axis, const NiceAxis& nice);
  struct Series {
    QVector<QPointF> points;
    double minX = 0, maxX = 0, minY = 0, maxY = 0;
    bool dirty = true;
  };
  void scheduleFlush();
  void rebuildChart();
  void addMissingSeries();
  void updateChooser();
  void applyTheme();
  QVector<QPointF> reduced(const QVector<QPointF>& points, int buckets) const;

  QComboBox* chooser_;
  QLabel* empty_;
  QtCharts::QChart* chart_;
  QtCharts::QChartView* view_;
  QtCharts::QAbstractAxis* axisX_ = nullptr;
  QtCharts::QAbstractAxis* axisY_ = nullptr;
  std::map<QString, std::map<QString, Series>> data_;
  std::map<QString, QtCharts::QLineSeries*> shown_;
  QString shownKey_;
  QTimer flushTimer_;
  int pointCount_ = 0;
  int reducedFor_ = 0;
  bool pendingFlush_ = false;  // the plot width the shown reductions were made for
};

}  // namespace spindle::gui
