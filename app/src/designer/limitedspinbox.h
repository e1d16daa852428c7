#pragma once

#include <QSpinBox>

namespace spindle::gui {

// A spin box whose range comes from the cluster (the largest container it
// grants) without ever changing a value it was given: a larger value widens
// the range until it is lowered, and is reported by the cluster checks.
class LimitedSpinBox : public QSpinBox {
  Q_OBJECT

 public:
  LimitedSpinBox(int minimum, int specMaximum, QWidget* parent = nullptr);

  // Negative: no cluster limit known.
  void setClusterLimit(int limit);
  int clusterLimit() const { return limit_; }
  void setValueKeepingRange(int value);

 private:
  void updateRange();

  int specMaximum_;
  int limit_ = -1;
};

}  // namespace spindle::gui
