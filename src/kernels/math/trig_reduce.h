// Reduction of a trigonometric argument modulo pi/2. Internal to src/kernels/math.
#pragma once

#include "kernels/math/dd.h"

namespace twinrt::math::internal {

// For finite ax >= 0: writes r (|r| <= ~pi/4, as a double-double) with ax = k pi/2 + r
// and returns k mod 4.
int reduce_pio2(double ax, DD* r);

}  // namespace twinrt::math::internal
