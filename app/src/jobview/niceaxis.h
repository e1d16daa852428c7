#pragma once

#include <QString>

namespace spindle::gui {

// An axis range that starts and ends on round numbers, with ticks 1, 2 or 5
// times a power of ten apart, as people draw them: 0 to 0.8 by 0.1 for
// losses between 0.018 and 0.79, not 0.83 and 0.61.
struct NiceAxis {
  double low = 0;
  double high = 1;
  double step = 0.2;

  // printf format for tick labels with as many decimals as the step needs.
  QString labelFormat() const;
};

// At most `maxTicks` intervals over [low, high]; an empty range is widened.
NiceAxis niceAxis(double low, double high, int maxTicks = 6);

}  // namespace spindle::gui
