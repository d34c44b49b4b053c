// How far a tensor from one engine is from the same tensor on the baseline engine.
// Every statistic has a hand-computed test (tests/parity/metrics_test.cc); the
// definitions are in docs/parity.md (section "Metrics").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

// An element is out of tolerance when |test - ref| > atol + rtol * |ref| (numpy.isclose),
// or when exactly one side is NaN, or when the infinities differ.
struct Tolerance {
  double atol = 1e-5;
  double rtol = 1e-4;
};

// Counts of |test - ref| per decade: bin i holds errors in [10^(lo+i), 10^(lo+i+1)).
struct ErrorHistogram {
  int lowest_decade = -12;          // errors below 10^lowest_decade go to below_lowest
  std::vector<int64_t> counts;      // one per decade up to the highest error seen
  int64_t exact = 0;                // |test - ref| == 0
  int64_t below_lowest = 0;         // 0 < error < 10^lowest_decade
  int64_t non_finite = 0;           // NaN/Inf on either side
};

// Top-k agreement and KL divergence along the last axis, one row per leading index.
// Logits are turned into probabilities by softmax first; rows whose reference already is
// a distribution (non-negative, sum 1 within 1e-3) are used as they are, on both sides.
// KL floors the test probability at kKlFloor so a class the test gives 0 costs a finite
// amount; rows holding NaN or Inf give NaN KL and count as disagreeing.
struct ProbabilityMetrics {
  int64_t rows = 0;
  double top1_agreement = 0;   // fraction of rows whose argmax agrees
  double top5_agreement = 0;   // fraction of rows whose top-5 sets agree (top-k, k = min(5, classes))
  double max_kl = 0;           // max over rows of KL(ref || test), natural log
  double mean_kl = 0;
};
inline constexpr double kKlFloor = 1e-12;

// Boxes matched one to one by IoU (greedy, highest IoU first).
struct BoxMetrics {
  int64_t reference_boxes = 0;
  int64_t test_boxes = 0;
  int64_t matched = 0;         // pairs with IoU >= the match threshold
  double min_matched_iou = 1;  // over matched pairs; 1 when there are none
  double mean_matched_iou = 1;
};

enum class BoxFormat { kXYXY, kXYWH, kCXCYWH };
Result<BoxFormat> parse_box_format(const std::string& name);  // "xyxy", "xywh", "cxcywh"

struct TensorMetrics {
  std::string dtype;            // of the reference
  std::vector<int64_t> shape;
  int64_t count = 0;            // elements compared

  double max_abs = 0, mean_abs = 0;
  // Relative error with a denominator that behaves near zero:
  // |test - ref| / max(|ref|, 1e-3 * rms(ref), smallest normal of the dtype).
  double max_rel = 0, mean_rel = 0;
  double mse = 0;
  double rmse_relative = 0;     // sqrt(mse) / rms(ref); 0 when both are all zero
  double cosine = 1;            // 1 when both are all zero; 0 when exactly one is
  double sqnr_db = 0;           // 10 log10(sum ref^2 / sum err^2); +inf when err is 0
  double max_ulp = 0, p99_ulp = 0;  // distance in units in the last place of ref's dtype
  // Range-aware: max_abs in float16 ULPs of the reference's largest magnitude, and in 8-bit
  // steps of its range ((max - min) / 255), so a tolerance scales with the output.
  double range_ulp_fp16 = 0, range_steps_int8 = 0;
  double ref_min = 0, ref_max = 0;  // finite reference values (for the two above)
  double fraction_out_of_tolerance = 0;
  int64_t nan_mismatches = 0;   // NaN on one side only
  int64_t inf_mismatches = 0;   // +-Inf on one side only, or of opposite sign
  int64_t max_abs_index = -1;   // flat index of the largest error, -1 when none
  ErrorHistogram histogram;

  std::optional<ProbabilityMetrics> probability;  // when requested (classification)
  std::optional<BoxMetrics> boxes;                // when requested (detection)
  // Segmentation: fraction of positions whose argmax over axis 1 (channels) agrees; for
  // integer label maps (already argmaxed), the fraction of equal labels.
  std::optional<double> pixel_agreement;
  // Raw sums in float64 over finite pairs, kept so cases can be merged exactly.
  struct Sums {
    double ref_sq = 0, test_sq = 0, ref_test = 0, err_sq = 0, abs_err = 0, rel_err = 0;
    int64_t finite = 0;            // pairs where both sides are finite
    int64_t out_of_tolerance = 0;
  } sums;
  // Non-float outputs: number of elements that differ (ints, bools, strings compared exactly).
  int64_t exact_mismatches = 0;
  // Cases (or list items of a pipeline value) whose shapes differ, so not compared: every
  // policy fails them (evaluate). compare_tensors itself fails on a shape mismatch.
  int64_t shape_mismatches = 0;
};

struct CompareOptions {
  Tolerance tolerance;
  bool probability = false;     // fill TensorMetrics::probability
  std::optional<BoxFormat> box_format;  // fill TensorMetrics::boxes: tensor is [..., N, 4]
  double box_match_iou = 0.5;
  bool pixel_agreement = false; // fill TensorMetrics::pixel_agreement: tensor is [N, C, ...]
};

// Fails (kInvalidArgument) when the shapes differ or the dtypes cannot be compared;
// the message says both shapes/dtypes. Empty tensors give count 0 and neutral values.
Result<TensorMetrics> compare_tensors(const Tensor& reference, const Tensor& test,
                                      const CompareOptions& options);

// Several cases (inputs) of one output, merged as if concatenated: maxima of maxima,
// count-weighted means, histograms added; cosine and SQNR from the summed sums;
// p99_ulp is the largest per-case p99 (an upper bound, said so in reports);
// max_abs_index is the flat index inside the case holding the largest error; shape is the
// first case's.
// Inputs must come from compare_tensors with the same options.
TensorMetrics merge_metrics(const std::vector<TensorMetrics>& per_case);

}  // namespace twinrt::parity
