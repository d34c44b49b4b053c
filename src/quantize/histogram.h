// Value histograms for calibration, and the two ways twinrt reads a clipping range off
// one: a percentile, and the window of least KL divergence (--method entropy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace twinrt::quantize {

// `counts.size()` equal bins over [lo, hi]. With `zeros_apart`, exact zeros are counted in
// `zeros` instead of a bin: zero is on every quantization grid, so they never cost error,
// and their spike (half of a ReLU output) would otherwise decide the KL window.
// Non-finite values are not counted; values outside land in the end bins.
struct Histogram {
  Histogram(double lo, double hi, int bins, bool zeros_apart);
  void add(const float* values, int64_t n);
  double width() const { return (hi - lo) / static_cast<double>(counts.size()); }
  double edge(size_t bin) const { return lo + width() * static_cast<double>(bin); }
  // The upper edge of the bin where `share` (0..1) of the counts lie at or below it.
  double quantile(double share) const;

  double lo, hi;
  bool zeros_apart;
  std::vector<uint64_t> counts;
  uint64_t total = 0;  // values in `counts`
  uint64_t zeros = 0;  // zeros_apart: exact zeros, not in `counts`
};

// Bins [first, end) of a histogram.
struct BinWindow {
  size_t first = 0, end = 0;
};

// The clipping window for a grid of `levels` equal steps with a zero point: windows reach
// `i` bins to each side of bin edge `zero` (one threshold T clips both signs), cut to the
// span of the occupied bins and `zero`; the one whose clipped distribution (the mass
// outside folded into its end bins) is closest in KL divergence to that distribution
// quantized to `levels` steps over the window wins. The whole span when nothing should be
// clipped or when it is narrower than `levels` bins; {0, 0} for an empty histogram.
BinWindow kl_window(const std::vector<uint64_t>& counts, size_t zero, int levels);

// --method entropy for a value seen within [lo, hi]: the histogram its second pass fills
// (bins of M / 2048, M = max |v|, over [lo, hi] rounded out to them, so that zero is a bin
// edge: 2048 bins when nothing is negative, 4096 for a symmetric value) and the range read
// off it: the KL window for the 256 levels of an activation grid with a zero point, which span
// the window whatever its signs, within [lo, hi].
Histogram entropy_histogram(float lo, float hi);
std::pair<float, float> entropy_range(const Histogram& h, float lo, float hi);

}  // namespace twinrt::quantize
