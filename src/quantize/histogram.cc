#include "quantize/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace twinrt::quantize {

Histogram::Histogram(double lo_, double hi_, int bins, bool zeros_apart_)
    : lo(lo_), hi(hi_), zeros_apart(zeros_apart_), counts(static_cast<size_t>(bins), 0) {}

void Histogram::add(const float* values, int64_t n) {
  const int last = static_cast<int>(counts.size()) - 1;
  const double scale = hi > lo ? static_cast<double>(counts.size()) / (hi - lo) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) continue;
    if (zeros_apart && values[i] == 0.0f) {
      ++zeros;
      continue;
    }
    const double v = values[i];
    ++counts[static_cast<size_t>(std::clamp(static_cast<int>((v - lo) * scale), 0, last))];
    ++total;
  }
}

double Histogram::quantile(double share) const {
  const double target = share * static_cast<double>(total);
  double seen = 0;
  for (size_t b = 0; b < counts.size(); ++b) {
    seen += static_cast<double>(counts[b]);
    if (seen >= target) return edge(b + 1);
  }
  return hi;
}

namespace {

// Q over bins [begin, end) quantized to `levels` equal chunks: each chunk's mass spread
// evenly over its non-empty bins (an empty bin stays empty, as quantization cannot put mass
// where there was none). Returns the mass.
double quantize_bins(const std::vector<uint64_t>& counts, size_t begin, size_t end, size_t levels, double* q) {
  const size_t n = end - begin;
  double total = 0;
  for (size_t c = 0; c < levels; ++c) {
    const size_t b = begin + n * c / levels, e = begin + n * (c + 1) / levels;
    double mass = 0, nonempty = 0;
    for (size_t j = b; j < e; ++j) mass += static_cast<double>(counts[j]), nonempty += counts[j] > 0;
    for (size_t j = b; j < e; ++j)
      if (counts[j] > 0) q[j - begin] = mass / nonempty;
    total += mass;
  }
  return total;
}

// KL(P || Q) for the window w of the span `used`: P is the window's bins with the mass
// outside added to its end bins; Q is the window quantized to `levels` steps. Zero is a
// grid point, so the steps are shared between the two sides of `zero` in proportion to
// their widths, and none straddles it (a symmetric window gets half per side).
double clipped_kl(const std::vector<uint64_t>& counts, BinWindow used, BinWindow w, size_t zero, int levels,
                  std::vector<double>& q) {
  q.assign(w.end - w.first, 0.0);
  size_t below_levels = (static_cast<size_t>(levels) * (zero - w.first) + (w.end - w.first) / 2) / (w.end - w.first);
  if (zero > w.first) below_levels = std::max<size_t>(below_levels, 1);  // a side with bins has a level
  if (w.end > zero) below_levels = std::min<size_t>(below_levels, static_cast<size_t>(levels) - 1);
  const double window_mass =
      quantize_bins(counts, w.first, zero, below_levels, q.data()) +
      quantize_bins(counts, zero, w.end, static_cast<size_t>(levels) - below_levels, q.data() + (zero - w.first));
  double below = 0, above = 0;
  for (size_t j = used.first; j < w.first; ++j) below += static_cast<double>(counts[j]);
  for (size_t j = w.end; j < used.end; ++j) above += static_cast<double>(counts[j]);
  const double total = window_mass + below + above;
  if (total == 0 || window_mass == 0) return std::numeric_limits<double>::infinity();
  // A reference bin that Q left empty (an end bin that only clipped values reach) gets a
  // tiny probability instead of an infinite divergence.
  constexpr double kFloor = 1e-12;
  double kl = 0;
  for (size_t j = w.first; j < w.end; ++j) {
    double p = static_cast<double>(counts[j]);
    if (j == w.first) p += below;
    if (j + 1 == w.end) p += above;
    if (p == 0) continue;
    p /= total;
    kl += p * std::log(p / std::max(q[j - w.first] / window_mass, kFloor));
  }
  return kl;
}

}  // namespace

BinWindow kl_window(const std::vector<uint64_t>& counts, size_t zero, int levels) {
  BinWindow used{counts.size(), 0};
  for (size_t j = 0; j < counts.size(); ++j)
    if (counts[j] > 0) used.first = std::min(used.first, j), used.end = j + 1;
  if (used.end == 0) return {};
  // The grid has a zero point, so every window reaches the zero edge.
  used = {std::min(used.first, zero), std::max(used.end, zero)};
  if (levels <= 0 || used.end - used.first <= static_cast<size_t>(levels)) return used;
  BinWindow best = used;
  double best_kl = std::numeric_limits<double>::infinity();
  std::vector<double> q;
  for (size_t i = 1; i <= std::max(zero - used.first, used.end - zero); ++i) {
    const BinWindow w{std::max(used.first, zero > i ? zero - i : 0), std::min(used.end, zero + i)};
    if (w.end - w.first < static_cast<size_t>(levels)) continue;
    const double kl = clipped_kl(counts, used, w, zero, levels, q);
    if (kl < best_kl) best_kl = kl, best = w;
  }
  return best;
}

namespace {
// Bins per side, as in TensorRT's description over magnitudes; the search is quadratic in it.
constexpr int kEntropyBinsPerSide = 2048;
constexpr int kActivationLevels = 256;
}  // namespace

Histogram entropy_histogram(float lo, float hi) {
  const double m = std::max(std::fabs(static_cast<double>(lo)), std::fabs(static_cast<double>(hi)));
  if (m == 0 || !std::isfinite(m)) return Histogram(0.0, 0.0, 1, true);
  const double width = m / kEntropyBinsPerSide;
  const double below = lo < 0 ? std::ceil(-static_cast<double>(lo) / width) : 0.0;
  const double above = hi > 0 ? std::ceil(static_cast<double>(hi) / width) : 0.0;
  return Histogram(-below * width, above * width, static_cast<int>(below + above), true);
}

// Judging a value with a few negatives by 128 levels per side, as for a symmetric grid,
// made its positive tail look far too coarse to keep: PP-OCRv4's recognizer had its
// hardswish outputs clipped to a tenth of their range and read 1% of the characters right.
std::pair<float, float> entropy_range(const Histogram& h, float lo, float hi) {
  if (h.total == 0) return {lo, hi};
  const auto zero = static_cast<size_t>(std::lround(-h.lo / h.width()));
  const BinWindow w = kl_window(h.counts, zero, kActivationLevels);
  if (w.end == w.first) return {lo, hi};
  return {std::max(lo, static_cast<float>(h.edge(w.first))), std::min(hi, static_cast<float>(h.edge(w.end)))};
}

}  // namespace twinrt::quantize
