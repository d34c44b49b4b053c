// The pieces compare_tensors is built from, each in its own file and tested through
// compare_tensors (tests/parity/metrics_test.cc). Values arrive as float64 copies of
// the tensors, flat and row-major.
#pragma once

#include <cstdint>
#include <vector>

#include "parity/metrics.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

// Every element of a numeric tensor (float, int, bool) as a double.
std::vector<double> to_doubles(const Tensor& t);

// Distance in units in the last place of `dtype` between a (already of that dtype) and b
// (rounded to it): both mapped to integers that order like the floats, so adjacent
// floats are 1 apart and +0/-0 are 0 apart. Integers: |a - b|. Neither may be NaN.
double ulp_distance(double a, double b, DataType dtype);

// The spacing of float16 values at |x| (2^-24 below the normal range; x finite).
double fp16_ulp(double x);

// Smallest positive normal of a float dtype; 1 for integers (their smallest step).
double smallest_normal(DataType dtype);

// The means, MSE, RMSE, cosine, SQNR, fraction out of tolerance and range-aware errors from
// m.sums, m.count, m.max_abs and the reference's range.
void finalize_from_sums(TensorMetrics& m);

void histogram_add(ErrorHistogram& h, double abs_error);
void histogram_merge(ErrorHistogram& into, const ErrorHistogram& from);

ProbabilityMetrics probability_metrics(const std::vector<double>& ref,
                                       const std::vector<double>& test, int64_t classes);

// `shape` is [..., N, 4]; boxes are matched within each leading index.
Result<BoxMetrics> box_metrics(const std::vector<double>& ref, const std::vector<double>& test,
                               const std::vector<int64_t>& shape, BoxFormat format,
                               double match_iou);

// Float tensors [N, C, ...]: argmax over axis 1 per position. Integer label maps: equal labels.
Result<double> pixel_agreement(const std::vector<double>& ref, const std::vector<double>& test,
                               const std::vector<int64_t>& shape, bool labels);

}  // namespace twinrt::parity
