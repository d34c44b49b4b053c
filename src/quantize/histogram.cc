#include "quantize/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace twinrt::quantize {

Histogram::Histogram(double lo_, double hi_, int bins, bool magnitudes_)
    : lo(lo_), hi(hi_), magnitudes(magnitudes_), counts(static_cast<size_t>(bins), 0) {}

void Histogram::add(const float* values, int64_t n) {
  const int last = static_cast<int>(counts.size()) - 1;
  const double scale = hi > lo ? static_cast<double>(counts.size()) / (hi - lo) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) continue;
    const double v = magnitudes ? std::fabs(static_cast<double>(values[i])) : values[i];
    if (magnitudes && v == 0.0) {
      ++zeros;
      continue;
    }
    ++counts[static_cast<size_t>(std::clamp(static_cast<int>((v - lo) * scale), 0, last))];
    ++total;
  }
}

double Histogram::quantile(double share) const {
  const double target = share * static_cast<double>(total);
  double seen = 0;
  for (size_t b = 0; b < counts.size(); ++b) {
    seen += static_cast<double>(counts[b]);
    if (seen >= target) return lo + width() * static_cast<double>(b + 1);
  }
  return hi;
}

namespace {

// KL(P || Q) for keeping the first `kept` bins: P is those bins with the rest of the mass
// added to the last one; Q spreads each of `levels` merged chunks of the kept bins evenly
// over the chunk's non-empty bins (an empty bin stays empty, as quantization cannot put
// mass where there was none).
double clipped_kl(const std::vector<uint64_t>& counts, size_t kept, int levels, std::vector<double>& q) {
  q.assign(kept, 0.0);
  double kept_mass = 0;
  for (int c = 0; c < levels; ++c) {
    const size_t begin = kept * static_cast<size_t>(c) / static_cast<size_t>(levels);
    const size_t end = kept * static_cast<size_t>(c + 1) / static_cast<size_t>(levels);
    double mass = 0, nonempty = 0;
    for (size_t j = begin; j < end; ++j) mass += static_cast<double>(counts[j]), nonempty += counts[j] > 0;
    for (size_t j = begin; j < end; ++j)
      if (counts[j] > 0) q[j] = mass / nonempty;
    kept_mass += mass;
  }
  double total = kept_mass;
  for (size_t j = kept; j < counts.size(); ++j) total += static_cast<double>(counts[j]);
  if (total == 0 || kept_mass == 0) return std::numeric_limits<double>::infinity();
  // A reference bin that Q left empty (the last bin when only clipped values reach it) gets
  // a tiny probability instead of an infinite divergence.
  constexpr double kFloor = 1e-12;
  double kl = 0;
  for (size_t j = 0; j < kept; ++j) {
    double p = static_cast<double>(counts[j]);
    if (j + 1 == kept)
      for (size_t k = kept; k < counts.size(); ++k) p += static_cast<double>(counts[k]);
    if (p == 0) continue;
    p /= total;
    kl += p * std::log(p / std::max(q[j] / kept_mass, kFloor));
  }
  return kl;
}

}  // namespace

size_t kl_threshold_bins(const std::vector<uint64_t>& counts, int levels) {
  const size_t n = counts.size();
  if (levels <= 0 || n <= static_cast<size_t>(levels)) return n;
  size_t best = n;
  double best_kl = std::numeric_limits<double>::infinity();
  std::vector<double> q;
  for (size_t kept = static_cast<size_t>(levels); kept <= n; ++kept) {
    const double kl = clipped_kl(counts, kept, levels, q);
    if (kl < best_kl) best_kl = kl, best = kept;
  }
  return best;
}

}  // namespace twinrt::quantize
