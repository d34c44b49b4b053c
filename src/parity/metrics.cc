// compare_tensors: every per-element statistic in one float64 pass (plus one for the
// relative error, whose denominator needs the reference RMS), then the optional task
// metrics. Definitions in docs/parity.md, section "Metrics".
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string describe(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + shape_to_string(t.shape());
}

bool comparable(DataType d) {
  return d != DataType::kUndefined && d != DataType::kComplex64 && d != DataType::kComplex128;
}

// p-th percentile by nearest rank: the smallest value with at least p% of values <= it.
double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  size_t rank = static_cast<size_t>(std::ceil(p / 100 * static_cast<double>(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size());
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
  return v[rank - 1];
}

int64_t count_string_mismatches(const Tensor& ref, const Tensor& test) {
  const std::string* a = ref.data<std::string>();
  const std::string* b = test.data<std::string>();
  int64_t n = 0;
  for (int64_t i = 0; i < ref.numel(); ++i) n += a[i] != b[i];
  return n;
}

// Same dtype: compare the bytes (exact for int64 beyond 2^53); else compare the values.
int64_t count_value_mismatches(const Tensor& ref, const Tensor& test,
                               const std::vector<double>& r, const std::vector<double>& t) {
  int64_t n = 0;
  if (ref.dtype() == test.dtype()) {
    const size_t size = dtype_size(ref.dtype());
    const auto* a = static_cast<const unsigned char*>(ref.raw());
    const auto* b = static_cast<const unsigned char*>(test.raw());
    for (int64_t i = 0; i < ref.numel(); ++i)
      n += std::memcmp(a + static_cast<size_t>(i) * size, b + static_cast<size_t>(i) * size, size) != 0;
    return n;
  }
  for (size_t i = 0; i < r.size(); ++i) n += r[i] != t[i];
  return n;
}

void accumulate(TensorMetrics& m, const std::vector<double>& r, const std::vector<double>& t,
                const Tolerance& tol, DataType dtype) {
  auto& s = m.sums;
  std::vector<double> ulps;
  ulps.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    const double a = r[i], b = t[i];
    if (std::isfinite(a) && std::isfinite(b)) {
      const double e = std::fabs(b - a);
      m.ref_min = s.finite ? std::min(m.ref_min, a) : a;
      m.ref_max = s.finite ? std::max(m.ref_max, a) : a;
      ++s.finite;
      s.ref_sq += a * a;
      s.test_sq += b * b;
      s.ref_test += a * b;
      s.err_sq += e * e;
      s.abs_err += e;
      if (e > m.max_abs) { m.max_abs = e; m.max_abs_index = static_cast<int64_t>(i); }
      if (e > tol.atol + tol.rtol * std::fabs(a)) ++s.out_of_tolerance;
      histogram_add(m.histogram, e);
      const double ulp = ulp_distance(a, b, dtype);
      m.max_ulp = std::max(m.max_ulp, ulp);
      ulps.push_back(ulp);
      continue;
    }
    ++m.histogram.non_finite;
    const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
    if (a_nan && b_nan) continue;  // both NaN: the engines agree
    if (a_nan || b_nan) { ++m.nan_mismatches; ++s.out_of_tolerance; continue; }
    if (a == b) continue;          // the same infinity
    ++m.inf_mismatches;
    ++s.out_of_tolerance;
  }
  m.p99_ulp = percentile(ulps, 99);

  // Relative error: the denominator is floored near zero by the reference RMS and the
  // dtype's smallest normal, so exact zeros in ref do not make it infinite.
  const double rms = s.finite ? std::sqrt(s.ref_sq / static_cast<double>(s.finite)) : 0;
  const double floor = std::max(1e-3 * rms, smallest_normal(dtype));
  for (size_t i = 0; i < r.size(); ++i) {
    if (!std::isfinite(r[i]) || !std::isfinite(t[i])) continue;
    const double rel = std::fabs(t[i] - r[i]) / std::max(std::fabs(r[i]), floor);
    s.rel_err += rel;
    m.max_rel = std::max(m.max_rel, rel);
  }
}

Status add_task_metrics(TensorMetrics& m, const std::vector<double>& r,
                        const std::vector<double>& t, DataType dtype,
                        const CompareOptions& options) {
  if (options.probability) {
    const int64_t classes = m.shape.empty() ? 1 : m.shape.back();
    m.probability = probability_metrics(r, t, classes);
  }
  if (options.box_format) {
    ASSIGN_OR_RETURN(m.boxes, box_metrics(r, t, m.shape, *options.box_format,
                                          options.box_match_iou));
  }
  if (options.pixel_agreement) {
    ASSIGN_OR_RETURN(m.pixel_agreement, pixel_agreement(r, t, m.shape, !dtype_is_float(dtype)));
  }
  return Status::ok();
}

}  // namespace

void finalize_from_sums(TensorMetrics& m) {
  const auto& s = m.sums;
  const double finite = static_cast<double>(s.finite);
  m.mean_abs = s.finite ? s.abs_err / finite : 0;
  m.mean_rel = s.finite ? s.rel_err / finite : 0;
  m.mse = s.finite ? s.err_sq / finite : 0;
  if (s.err_sq == 0) m.rmse_relative = 0;
  else m.rmse_relative = s.ref_sq > 0 ? std::sqrt(s.err_sq / s.ref_sq) : kInf;
  if (s.ref_sq == 0 || s.test_sq == 0) {
    m.cosine = s.ref_sq == s.test_sq ? 1 : 0;
  } else {
    m.cosine = std::clamp(s.ref_test / (std::sqrt(s.ref_sq) * std::sqrt(s.test_sq)), -1.0, 1.0);
  }
  m.sqnr_db = s.err_sq == 0 ? kInf : 10 * std::log10(s.ref_sq / s.err_sq);
  m.fraction_out_of_tolerance =
      m.count ? static_cast<double>(s.out_of_tolerance) / static_cast<double>(m.count) : 0;
  const double largest = std::max(std::fabs(m.ref_min), std::fabs(m.ref_max));
  m.range_ulp_fp16 = m.max_abs / fp16_ulp(largest);
  const double step = (m.ref_max - m.ref_min) / 255;
  m.range_steps_int8 = m.max_abs == 0 ? 0 : step > 0 ? m.max_abs / step : kInf;
}

Result<TensorMetrics> compare_tensors(const Tensor& reference, const Tensor& test,
                                      const CompareOptions& options) {
  if (reference.shape() != test.shape())
    return invalid_argument("shape mismatch: reference " + describe(reference) + ", test " +
                            describe(test));
  const DataType dtype = reference.dtype();
  const bool ref_string = dtype == DataType::kString, test_string = test.dtype() == DataType::kString;
  if (!comparable(dtype) || !comparable(test.dtype()) || ref_string != test_string)
    return invalid_argument("cannot compare reference " + describe(reference) + " with test " +
                            describe(test));
  TensorMetrics m;
  m.dtype = dtype_name(dtype);
  m.shape = reference.shape();
  m.count = reference.numel();
  if (ref_string) {
    if (options.probability || options.box_format || options.pixel_agreement)
      return invalid_argument("task metrics need a numeric output, not " + describe(reference));
    m.exact_mismatches = count_string_mismatches(reference, test);
    return m;
  }
  const std::vector<double> r = to_doubles(reference), t = to_doubles(test);
  if (!dtype_is_float(dtype)) m.exact_mismatches = count_value_mismatches(reference, test, r, t);
  accumulate(m, r, t, options.tolerance, dtype);
  finalize_from_sums(m);
  TRY(add_task_metrics(m, r, t, dtype, options));
  return m;
}

}  // namespace twinrt::parity
