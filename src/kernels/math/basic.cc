// The exact operations of math.h: IEEE sqrt and round-half-to-even.
#include <cmath>

#include "kernels/math/math.h"

namespace twinrt::math {

double sqrt(double x) { return std::sqrt(x); }

// nearbyint rounds ties to even in the default rounding mode, which twinrt never changes.
double round_half_even(double x) { return std::nearbyint(x); }

}  // namespace twinrt::math
