// Value histograms for calibration, and the two ways twinrt reads a clipping range off
// one: a percentile, and the threshold of least KL divergence (--method entropy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace twinrt::quantize {

// `counts.size()` equal bins over [lo, hi]; with `magnitudes` each value counts as |v|
// (lo is then 0) and exact zeros are counted apart, in `zeros`: zero is on every
// quantization grid, so they never cost error, and in the first bin their spike (half of a
// ReLU output) would decide the KL threshold. Non-finite values are not counted; values
// outside land in the end bins.
struct Histogram {
  Histogram(double lo, double hi, int bins, bool magnitudes);
  void add(const float* values, int64_t n);
  double width() const { return (hi - lo) / static_cast<double>(counts.size()); }
  // The upper edge of the bin where `share` (0..1) of the counts lie at or below it.
  double quantile(double share) const;

  double lo, hi;
  bool magnitudes;
  std::vector<uint64_t> counts;
  uint64_t total = 0;  // values in `counts`
  uint64_t zeros = 0;  // magnitudes: exact zeros, not in `counts`
};

// How many of the first bins of a histogram of magnitudes to keep so that the clipped
// distribution (everything beyond folded into the last kept bin) and its quantization to
// `levels` equal steps are closest in KL divergence. Returns counts.size() when nothing
// should be clipped (also for an empty or tiny histogram).
size_t kl_threshold_bins(const std::vector<uint64_t>& counts, int levels);

}  // namespace twinrt::quantize
