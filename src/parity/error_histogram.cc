// The log-scale histogram of |test - ref|: one bin per decade.
#include <cmath>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// floor(log10(x)) corrected for log10's rounding at exact powers of ten.
int decade_of(double x) {
  int d = static_cast<int>(std::floor(std::log10(x)));
  if (std::pow(10.0, d) > x) --d;
  else if (d < 308 && std::pow(10.0, d + 1) <= x) ++d;
  return d;
}

}  // namespace

void histogram_add(ErrorHistogram& h, double abs_error) {
  if (!std::isfinite(abs_error)) { ++h.non_finite; return; }
  if (abs_error == 0) { ++h.exact; return; }
  const int d = decade_of(abs_error);
  if (d < h.lowest_decade) { ++h.below_lowest; return; }
  const size_t bin = static_cast<size_t>(d - h.lowest_decade);
  if (h.counts.size() <= bin) h.counts.resize(bin + 1, 0);
  ++h.counts[bin];
}

void histogram_merge(ErrorHistogram& into, const ErrorHistogram& from) {
  if (into.counts.size() < from.counts.size()) into.counts.resize(from.counts.size(), 0);
  for (size_t i = 0; i < from.counts.size(); ++i) into.counts[i] += from.counts[i];
  into.exact += from.exact;
  into.below_lowest += from.below_lowest;
  into.non_finite += from.non_finite;
}

}  // namespace twinrt::parity
