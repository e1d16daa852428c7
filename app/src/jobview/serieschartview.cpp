#include "jobview/serieschartview.h"

#include "jobview/niceaxis.h"

#include <QApplication>
#include <QComboBox>
#include <QCursor>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

using namespace QtCharts;

namespace spindle::gui {
namespace {

bool darkPalette(const QWidget* widget) {
  const QPalette palette = widget->palette();
  return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

}  // namespace

SeriesChartView::SeriesChartView(QWidget* parent) : QWidget(parent) {
  chooser_ = new QComboBox;
  chooser_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  chooser_->setMinimumContentsLength(16);
  // Its items are the job's own tags and series.
  chooser_->setProperty("spindleDynamicText", true);
  empty_ = new QLabel;
  empty_->setProperty("spindleDynamicText", true);
  empty_->setStyleSheet(QStringLiteral("color: palette(mid);"));

  chart_ = new QChart;
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  view_ = new QChartView(chart_);
  view_->setRenderHint(QPainter::Antialiasing, true);
  view_->setMinimumHeight(240);

  auto* top = new QHBoxLayout;
  auto* label = new QLabel(tr("Show:"));
  label->setBuddy(chooser_);
  top->addWidget(label);
  top->addWidget(chooser_);
  top->addWidget(empty_);
  top->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(view_, 1);

  flushTimer_.setSingleShot(true);
  flushTimer_.setInterval(100);
  // Hidden charts wait until they are shown.
  connect(&flushTimer_, &QTimer::timeout, this, [this] {
    if (isVisible()) {
      flush();
    } else {
      pendingFlush_ = true;
    }
  });
  connect(chooser_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int) {
    flush();
    emit currentKeyChanged(currentKey());
  });
  applyTheme();
}

SeriesChartView::~SeriesChartView() = default;

QStringList SeriesChartView::keys() const {
  QStringList out;
  for (const auto& [key, series] : data_) out << key;
  return out;
}

QString SeriesChartView::currentKey() const {
  return chooser_->currentData().toString();
}

void SeriesChartView::setCurrentKey(const QString& key) {
  updateChooser();
  const int index = chooser_->findData(key);
  if (index >= 0) chooser_->setCurrentIndex(index);
  flush();
}

QStringList SeriesChartView::seriesNames(const QString& key) const {
  QStringList out;
  const auto found = data_.find(key);
  if (found == data_.end()) return out;
  for (const auto& [name, series] : found->second) out << name;
  return out;
}

QVector<QPointF> SeriesChartView::points(const QString& key, const QString& series) const {
  const auto found = data_.find(key);
  if (found == data_.end()) return {};
  const auto one = found->second.find(series);
  return one == found->second.end() ? QVector<QPointF>() : one->second.points;
}

QLineSeries* SeriesChartView::displayedSeries(const QString& series) const {
  const auto found = shown_.find(series);
  return found == shown_.end() ? nullptr : found->second;
}

void SeriesChartView::clear() {
  data_.clear();
  pointCount_ = 0;
  chooser_->clear();
  flush();
}

void SeriesChartView::appendPoints(const QString& key, const QString& series, const QVector<QPointF>& points) {
  if (points.isEmpty()) return;
  Series& one = data_[key][series];
  if (one.points.isEmpty()) {
    one.minX = one.maxX = points.front().x();
    one.minY = one.maxY = points.front().y();
  }
  one.points.reserve(one.points.size() + points.size());
  for (const QPointF& point : points) {
    one.minX = std::min(one.minX, point.x());
    one.maxX = std::max(one.maxX, point.x());
    one.minY = std::min(one.minY, point.y());
    one.maxY = std::max(one.maxY, point.y());
    one.points.append(point);
  }
  one.dirty = true;
  pointCount_ += points.size();
  scheduleFlush();
}

void SeriesChartView::setPoints(const QString& key, const QString& series, QVector<QPointF> points) {
  Series& one = data_[key][series];
  pointCount_ -= one.points.size();
  one.points.clear();
  one.dirty = true;
  if (points.isEmpty()) {
    scheduleFlush();
    return;
  }
  one.points = std::move(points);
  pointCount_ += one.points.size();
  one.minX = one.maxX = one.points.front().x();
  one.minY = one.maxY = one.points.front().y();
  for (const QPointF& point : std::as_const(one.points)) {
    one.minX = std::min(one.minX, point.x());
    one.maxX = std::max(one.maxX, point.x());
    one.minY = std::min(one.minY, point.y());
    one.maxY = std::max(one.maxY, point.y());
  }
  scheduleFlush();
}

void SeriesChartView::setEmptyText(const QString& text) {
  empty_->setText(text);
  empty_->setVisible(data_.empty());
}

void SeriesChartView::scheduleFlush() {
  if (!flushTimer_.isActive()) flushTimer_.start();
}

void SeriesChartView::updateChooser() {
  if (chooser_->count() == static_cast<int>(data_.size())) return;
  const QSignalBlocker blocker(chooser_);
  const QString current = currentKey();
  chooser_->clear();
  for (const auto& [key, series] : data_) chooser_->addItem(keyLabel(key), key);
  int index = chooser_->findData(current);
  if (index < 0 && !current.isEmpty()) index = 0;
  if (index < 0) index = std::max(0, chooser_->findData(preferredKey(keys())));
  chooser_->setCurrentIndex(index);
}

void SeriesChartView::rebuildChart() {
  chart_->removeAllSeries();
  shown_.clear();
  if (!axisX_) {
    if (timeAxis()) {
      auto* axis = new QDateTimeAxis;
      axis->setFormat(QStringLiteral("HH:mm:ss"));
      axis->setTickCount(6);
      axisX_ = axis;
    } else {
      auto* axis = new QValueAxis;
      axis->setLabelFormat(QStringLiteral("%g"));
      axisX_ = axis;
    }
    axisY_ = new QValueAxis;
    chart_->addAxis(axisX_, Qt::AlignBottom);
    chart_->addAxis(axisY_, Qt::AlignLeft);
  }
  axisX_->setTitleText(xTitle());
  shownKey_ = currentKey();
  axisY_->setTitleText(shownKey_.isEmpty() ? QString() : yTitle(shownKey_));
  addMissingSeries();
}

void SeriesChartView::addMissingSeries() {
  const auto found = data_.find(shownKey_);
  if (found == data_.end()) return;
  for (auto& [name, series] : found->second) {
    if (shown_.count(name)) continue;
    auto* line = new QLineSeries;
    line->setName(name);
    line->setUseOpenGL(false);
    // Hovering a line says which series, where and what value.
    connect(line, &QLineSeries::hovered, this, [this, name](const QPointF& point, bool state) {
      if (!state) {
        QToolTip::hideText();
        return;
      }
      QToolTip::showText(QCursor::pos(), pointText(name, point), this);
    });
    chart_->addSeries(line);
    line->attachAxis(axisX_);
    line->attachAxis(axisY_);
    shown_[name] = line;
    series.dirty = true;
  }
  // A legend of dozens of entries hides the chart; their names are in the tooltips then.
  chart_->legend()->setVisible(shown_.size() <= maxLegendEntries);
}

QVector<QPointF> SeriesChartView::reduced(const QVector<QPointF>& points, int buckets) const {
  if (points.size() <= reduceAbove || buckets <= 0) return points;
  double low = points.front().x(), high = low;
  for (const QPointF& point : points) {
    low = std::min(low, point.x());
    high = std::max(high, point.x());
  }
  const double width = high > low ? (high - low) / buckets : 1.0;
  QVector<QPointF> out;
  out.reserve(buckets * 2 + 2);
  // The first and last point of each bucket's run, and its lowest and highest, in order.
  int start = 0;
  while (start < points.size()) {
    const int bucket = static_cast<int>(std::floor((points[start].x() - low) / width));
    int end = start;
    int minAt = start, maxAt = start;
    while (end < points.size() && static_cast<int>(std::floor((points[end].x() - low) / width)) == bucket) {
      if (points[end].y() < points[minAt].y()) minAt = end;
      if (points[end].y() > points[maxAt].y()) maxAt = end;
      ++end;
    }
    int picks[4] = {start, std::min(minAt, maxAt), std::max(minAt, maxAt), end - 1};
    int last = -1;
    for (int pick : picks) {
      if (pick != last) out.append(points[pick]);
      last = pick;
    }
    start = end;
  }
  return out;
}

void SeriesChartView::flush() {
  flushTimer_.stop();
  pendingFlush_ = false;
  updateChooser();
  empty_->setVisible(data_.empty());
  const QString key = currentKey();
  if (key != shownKey_ || !axisX_) {
    rebuildChart();
  } else if (shown_.size() != (data_.count(key) ? data_[key].size() : 0)) {
    addMissingSeries();
  }
  const auto found = data_.find(key);
  if (found == data_.end()) return;
  const int buckets = std::max(200, static_cast<int>(chart_->plotArea().width()));
  reducedFor_ = buckets;
  double minX = std::numeric_limits<double>::max(), maxX = std::numeric_limits<double>::lowest();
  double minY = minX, maxY = maxX;
  for (auto& [name, series] : found->second) {
    if (series.points.isEmpty()) continue;
    minX = std::min(minX, series.minX);
    maxX = std::max(maxX, series.maxX);
    minY = std::min(minY, series.minY);
    maxY = std::max(maxY, series.maxY);
    if (!series.dirty) continue;
    series.dirty = false;
    if (QLineSeries* line = shown_[name]) {
      line->replace(reduced(series.points, buckets));
      // A series of one point (an evaluation at the end) is no line: show the point.
      line->setPointsVisible(series.points.size() == 1);
    }
  }
  if (minX > maxX) return;
  if (maxX == minX) maxX = minX + 1;
  double span = maxY - minY;
  if (span <= 0) span = std::max(std::abs(maxY), 1.0);
  if (timeAxis()) {
    static_cast<QDateTimeAxis*>(axisX_)->setRange(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(minX)),
                                                  QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(maxX)));
  } else {
    applyNiceAxis(static_cast<QValueAxis*>(axisX_), niceAxis(minX, maxX, 8));
  }
  (void)span;
  applyNiceAxis(static_cast<QValueAxis*>(axisY_), niceAxis(minY, maxY, 6));
}

QString SeriesChartView::pointText(const QString& series, const QPointF& point) const {
  const QString x =
      timeAxis() ? QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(point.x())).toString(QStringLiteral("HH:mm:ss"))
                 : xTitle() + QLatin1Char(' ') + QString::number(point.x(), 'g', 10);
  return QStringLiteral("%1 · %2: %3 %4").arg(series, x, yTitle(shownKey_), QString::number(point.y(), 'g', 6));
}

void SeriesChartView::applyNiceAxis(QValueAxis* axis, const NiceAxis& nice) {
  axis->setRange(nice.low, nice.high);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(nice.low);
  axis->setTickInterval(nice.step);
  axis->setLabelFormat(nice.labelFormat());
}

void SeriesChartView::applyTheme() {
  const bool dark = darkPalette(this);
  chart_->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart_->setBackgroundBrush(palette().color(QPalette::Base));
  const QColor text = palette().color(QPalette::Text);
  chart_->legend()->setLabelColor(text);
  for (QAbstractAxis* axis : {axisX_, axisY_}) {
    if (!axis) continue;
    axis->setLabelsColor(text);
    axis->setTitleBrush(text);
  }
}

void SeriesChartView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyTheme();
  if (event->type() == QEvent::LanguageChange && axisX_) {
    axisX_->setTitleText(xTitle());
    if (!shownKey_.isEmpty()) axisY_->setTitleText(yTitle(shownKey_));
  }
}

void SeriesChartView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (pendingFlush_) scheduleFlush();
}

void SeriesChartView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Long series were reduced for the old width; redo them for the new one.
  const int buckets = std::max(200, static_cast<int>(chart_->plotArea().width()));
  if (std::abs(buckets - reducedFor_) < 32) return;
  const auto found = data_.find(shownKey_);
  if (found == data_.end()) return;
  bool any = false;
  for (auto& [name, series] : found->second) {
    if (series.points.size() > reduceAbove) series.dirty = any = true;
  }
  if (any) scheduleFlush();
}

}  // namespace spindle::gui
