// Top-k agreement and KL divergence along the last axis (classification outputs).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_distribution(const double* row, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!(row[i] >= 0)) return false;  // negative or NaN
    sum += row[i];
  }
  return std::fabs(sum - 1) <= 1e-3;
}

// Softmax in float64 with the row maximum subtracted (no overflow).
std::vector<double> softmax(const double* row, int64_t n) {
  const double m = *std::max_element(row, row + n);
  std::vector<double> p(static_cast<size_t>(n));
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += p[static_cast<size_t>(i)] = std::exp(row[i] - m);
  for (double& v : p) v /= sum;
  return p;
}

// Indices of the k largest values, ties to the lower index, as a sorted set.
std::vector<int64_t> top_k(const std::vector<double>& p, int64_t k) {
  std::vector<int64_t> idx(p.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
    return p[static_cast<size_t>(a)] > p[static_cast<size_t>(b)];
  });
  idx.resize(static_cast<size_t>(k));
  std::sort(idx.begin(), idx.end());
  return idx;
}

// KL(p || q), natural log; terms with p = 0 contribute 0, q is floored at kKlFloor.
// Rounding can make the sum slightly negative for equal rows: clamped at 0.
double kl_divergence(const std::vector<double>& p, const std::vector<double>& q) {
  double kl = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0) kl += p[i] * std::log(p[i] / std::max(q[i], kKlFloor));
  }
  return std::max(kl, 0.0);
}

bool has_non_finite(const double* row, int64_t n) {
  for (int64_t i = 0; i < n; ++i) if (!std::isfinite(row[i])) return true;
  return false;
}

}  // namespace

ProbabilityMetrics probability_metrics(const std::vector<double>& ref,
                                       const std::vector<double>& test, int64_t classes) {
  ProbabilityMetrics m;
  if (classes <= 0 || ref.empty()) return m;
  m.rows = static_cast<int64_t>(ref.size()) / classes;
  const int64_t k = std::min<int64_t>(5, classes);
  int64_t top1 = 0, top5 = 0;
  double kl_sum = 0;
  for (int64_t r = 0; r < m.rows; ++r) {
    const double* a = ref.data() + r * classes;
    const double* b = test.data() + r * classes;
    if (has_non_finite(a, classes) || has_non_finite(b, classes)) {  // no ranking, no KL
      m.max_kl = kl_sum = kNaN;
      continue;
    }
    std::vector<double> p, q;
    if (is_distribution(a, classes)) {
      p.assign(a, a + classes);
      q.assign(b, b + classes);
    } else {
      p = softmax(a, classes);
      q = softmax(b, classes);
    }
    top1 += top_k(p, 1) == top_k(q, 1);
    top5 += top_k(p, k) == top_k(q, k);
    const double kl = kl_divergence(p, q);
    kl_sum += kl;
    if (!std::isnan(m.max_kl)) m.max_kl = std::max(m.max_kl, kl);
  }
  m.top1_agreement = static_cast<double>(top1) / static_cast<double>(m.rows);
  m.top5_agreement = static_cast<double>(top5) / static_cast<double>(m.rows);
  m.mean_kl = kl_sum / static_cast<double>(m.rows);
  return m;
}

}  // namespace twinrt::parity
