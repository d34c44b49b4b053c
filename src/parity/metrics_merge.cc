// merge_metrics: several cases of one output as if their elements were concatenated.
#include <algorithm>
#include <cmath>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// max that keeps a NaN (a NaN KL must not disappear in the merge).
double max_nan(double a, double b) { return std::isnan(a) || std::isnan(b) ? a + b : std::max(a, b); }

void merge_probability(std::optional<ProbabilityMetrics>& into, const ProbabilityMetrics& p) {
  if (!into) { into = p; return; }
  const double rows = static_cast<double>(into->rows + p.rows);
  auto weighted = [&](double a, double b) {
    return rows > 0 ? (a * static_cast<double>(into->rows) + b * static_cast<double>(p.rows)) / rows : 0;
  };
  into->top1_agreement = weighted(into->top1_agreement, p.top1_agreement);
  into->top5_agreement = weighted(into->top5_agreement, p.top5_agreement);
  into->mean_kl = weighted(into->mean_kl, p.mean_kl);
  into->max_kl = max_nan(into->max_kl, p.max_kl);
  into->rows += p.rows;
}

void merge_boxes(std::optional<BoxMetrics>& into, const BoxMetrics& b) {
  if (!into) { into = b; return; }
  const int64_t matched = into->matched + b.matched;
  if (matched > 0)
    into->mean_matched_iou = (into->mean_matched_iou * static_cast<double>(into->matched) +
                              b.mean_matched_iou * static_cast<double>(b.matched)) /
                             static_cast<double>(matched);
  into->min_matched_iou = std::min(into->min_matched_iou, b.min_matched_iou);
  into->matched = matched;
  into->reference_boxes += b.reference_boxes;
  into->test_boxes += b.test_boxes;
}

}  // namespace

TensorMetrics merge_metrics(const std::vector<TensorMetrics>& per_case) {
  if (per_case.empty()) return {};
  TensorMetrics m = per_case.front();
  for (size_t c = 1; c < per_case.size(); ++c) {
    const TensorMetrics& x = per_case[c];
    // Count-weighted pixel agreement, before m.count grows.
    if (m.pixel_agreement && x.pixel_agreement) {
      const double total = static_cast<double>(m.count + x.count);
      if (total > 0)
        *m.pixel_agreement = (*m.pixel_agreement * static_cast<double>(m.count) +
                              *x.pixel_agreement * static_cast<double>(x.count)) / total;
    }
    m.count += x.count;
    if (x.max_abs > m.max_abs) { m.max_abs = x.max_abs; m.max_abs_index = x.max_abs_index; }
    m.max_rel = std::max(m.max_rel, x.max_rel);
    if (x.sums.finite) {
      m.ref_min = m.sums.finite ? std::min(m.ref_min, x.ref_min) : x.ref_min;
      m.ref_max = m.sums.finite ? std::max(m.ref_max, x.ref_max) : x.ref_max;
    }
    m.max_ulp = std::max(m.max_ulp, x.max_ulp);
    m.p99_ulp = std::max(m.p99_ulp, x.p99_ulp);
    m.nan_mismatches += x.nan_mismatches;
    m.inf_mismatches += x.inf_mismatches;
    m.exact_mismatches += x.exact_mismatches;
    m.shape_mismatches += x.shape_mismatches;
    histogram_merge(m.histogram, x.histogram);
    m.sums.ref_sq += x.sums.ref_sq;
    m.sums.test_sq += x.sums.test_sq;
    m.sums.ref_test += x.sums.ref_test;
    m.sums.err_sq += x.sums.err_sq;
    m.sums.abs_err += x.sums.abs_err;
    m.sums.rel_err += x.sums.rel_err;
    m.sums.finite += x.sums.finite;
    m.sums.out_of_tolerance += x.sums.out_of_tolerance;
    if (x.probability) merge_probability(m.probability, *x.probability);
    if (x.boxes) merge_boxes(m.boxes, *x.boxes);
  }
  finalize_from_sums(m);
  return m;
}

}  // namespace twinrt::parity
