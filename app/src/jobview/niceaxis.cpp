#include "jobview/niceaxis.h"

#include <algorithm>
#include <cmath>

namespace spindle::gui {
namespace {

// 1, 2, 5 or 10 times a power of ten, at least `rough`.
double niceStep(double rough) {
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  const double fraction = rough / power;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

}  // namespace

QString NiceAxis::labelFormat() const {
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 10);
  return QStringLiteral("%.%1f").arg(decimals);
}

NiceAxis niceAxis(double low, double high, int maxTicks) {
  if (!std::isfinite(low) || !std::isfinite(high)) return {};
  if (high < low) std::swap(low, high);
  if (high == low) {
    const double pad = low == 0 ? 1 : std::abs(low) * 0.1;
    low -= pad;
    high += pad;
  }
  maxTicks = std::max(maxTicks, 1);
  NiceAxis axis;
  axis.step = niceStep((high - low) / maxTicks);
  axis.low = std::floor(low / axis.step) * axis.step;
  axis.high = std::ceil(high / axis.step) * axis.step;
  // Rounding both ends may add an interval; take the next step up if it went over.
  if ((axis.high - axis.low) / axis.step > maxTicks + 0.5) {
    axis.step = niceStep(axis.step * 1.01);
    axis.low = std::floor(low / axis.step) * axis.step;
    axis.high = std::ceil(high / axis.step) * axis.step;
  }
  return axis;
}

}  // namespace spindle::gui
