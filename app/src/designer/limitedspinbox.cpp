#include "designer/limitedspinbox.h"

#include <algorithm>

namespace spindle::gui {

LimitedSpinBox::LimitedSpinBox(int minimum, int specMaximum, QWidget* parent)
    : QSpinBox(parent), specMaximum_(specMaximum) {
  setRange(minimum, specMaximum);
  setAccelerated(true);
  connect(this, qOverload<int>(&QSpinBox::valueChanged), this, [this] { updateRange(); });
}

void LimitedSpinBox::setClusterLimit(int limit) {
  limit_ = limit < 0 ? -1 : limit;
  updateRange();
}

void LimitedSpinBox::setValueKeepingRange(int value) {
  if (value > maximum()) setMaximum(std::min(value, specMaximum_));
  setValue(value);
}

void LimitedSpinBox::updateRange() {
  const int upper = limit_ >= 0 ? std::max(std::max(limit_, minimum()), value()) : specMaximum_;
  setMaximum(std::min(upper, specMaximum_));
}

}  // namespace spindle::gui
