// compare_tensors and merge_metrics against values computed by hand.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "parity/metrics.h"

namespace twinrt::parity {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

template <class T>
Tensor make(std::vector<int64_t> shape, const std::vector<T>& values) {
  return Tensor::from_vector<T>(std::move(shape), values).value();
}

TensorMetrics compare(const Tensor& ref, const Tensor& test, CompareOptions options = {}) {
  auto m = compare_tensors(ref, test, options);
  EXPECT_TRUE(m.is_ok()) << m.status().message();
  return m.value();
}

TEST(CompareTensors, BasicStatisticsOfOneError) {
  // ref 1 2 3 4, test 1 2 3 4.5: one error of 0.5 at index 3.
  auto m = compare(make<float>({4}, {1, 2, 3, 4}), make<float>({4}, {1, 2, 3, 4.5f}));
  EXPECT_EQ(m.dtype, "float32");
  EXPECT_EQ(m.count, 4);
  EXPECT_DOUBLE_EQ(m.max_abs, 0.5);
  EXPECT_EQ(m.max_abs_index, 3);
  EXPECT_DOUBLE_EQ(m.mean_abs, 0.125);
  EXPECT_DOUBLE_EQ(m.mse, 0.0625);
  EXPECT_DOUBLE_EQ(m.max_rel, 0.125);    // 0.5 / 4
  EXPECT_DOUBLE_EQ(m.mean_rel, 0.03125);
  // sum ref^2 = 30, sum test^2 = 34.25, sum ref*test = 32, sum err^2 = 0.25
  EXPECT_NEAR(m.cosine, 32 / std::sqrt(30 * 34.25), 1e-15);
  EXPECT_NEAR(m.rmse_relative, std::sqrt(0.25 / 30), 1e-15);
  EXPECT_NEAR(m.sqnr_db, 10 * std::log10(120.0), 1e-12);
  // float32 spacing in [4, 8) is 2^-21: 0.5 is 2^20 ulps.
  EXPECT_DOUBLE_EQ(m.max_ulp, 1048576);
  EXPECT_DOUBLE_EQ(m.p99_ulp, 1048576);  // nearest rank ceil(0.99 * 4) = 4th of 4
  EXPECT_DOUBLE_EQ(m.fraction_out_of_tolerance, 0.25);
  EXPECT_EQ(m.histogram.exact, 3);
  ASSERT_EQ(m.histogram.counts.size(), 12u);  // decade -1 is bin 11 from 10^-12
  EXPECT_EQ(m.histogram.counts[11], 1);
  EXPECT_EQ(m.nan_mismatches + m.inf_mismatches + m.exact_mismatches, 0);
}

TEST(CompareTensors, RangeAwareErrorsScaleWithTheOutput) {
  // Largest |ref| 270: float16 spacing in [256, 512) is 0.25, so 0.5 is 2 ULPs there. The
  // range is [-10, 270], an 8-bit step 280/255.
  auto m = compare(make<float>({3}, {-10, 1, 270}), make<float>({3}, {-10, 1.5f, 270.25f}));
  EXPECT_DOUBLE_EQ(m.range_ulp_fp16, 2);
  EXPECT_DOUBLE_EQ(m.range_steps_int8, 0.5 / (280.0 / 255));
  // Near zero the float16 spacing stops shrinking at the smallest subnormal, 2^-24.
  auto tiny = compare(make<float>({1}, {0}), make<float>({1}, {0x1p-23f}));
  EXPECT_DOUBLE_EQ(tiny.range_ulp_fp16, 2);
  EXPECT_EQ(tiny.range_steps_int8, kInf);  // a constant reference has no range
  // Merged cases use the range of all of them.
  auto a = compare(make<float>({1}, {1}), make<float>({1}, {1.25f}));
  auto b = compare(make<float>({1}, {300}), make<float>({1}, {300}));
  EXPECT_DOUBLE_EQ(merge_metrics({a, b}).range_ulp_fp16, 1);  // 0.25 at 300
}

TEST(CompareTensors, P99IsNearestRank) {
  // 200 elements: 198 exact, 2 at one ulp (1.0 vs next float). rank ceil(198) = 198th -> 0;
  // with 3 off by one ulp, the 198th value is 1.
  std::vector<float> ref(200, 1.0f), test(200, 1.0f);
  test[0] = test[1] = std::nextafter(1.0f, 2.0f);
  EXPECT_DOUBLE_EQ(compare(make<float>({200}, ref), make<float>({200}, test)).p99_ulp, 0);
  test[2] = std::nextafter(1.0f, 2.0f);
  auto m = compare(make<float>({200}, ref), make<float>({200}, test));
  EXPECT_DOUBLE_EQ(m.p99_ulp, 1);
  EXPECT_DOUBLE_EQ(m.max_ulp, 1);
}

TEST(CompareTensors, AllZeroAndOneSidedZero) {
  auto same = compare(make<float>({3}, {0, 0, 0}), make<float>({3}, {0, -0.0f, 0}));
  EXPECT_DOUBLE_EQ(same.cosine, 1);
  EXPECT_DOUBLE_EQ(same.rmse_relative, 0);
  EXPECT_EQ(same.sqnr_db, kInf);
  EXPECT_EQ(same.max_abs_index, -1);
  EXPECT_DOUBLE_EQ(same.max_ulp, 0);  // +0 and -0 are 0 ulp apart

  auto one = compare(make<float>({2}, {0, 0}), make<float>({2}, {0, 1e-3f}));
  EXPECT_DOUBLE_EQ(one.cosine, 0);
  EXPECT_EQ(one.rmse_relative, kInf);
  EXPECT_EQ(one.sqnr_db, -kInf);
  // rms(ref) = 0: the denominator is the smallest float32 normal.
  EXPECT_DOUBLE_EQ(one.max_rel, static_cast<double>(1e-3f) / FLT_MIN);
}

TEST(CompareTensors, RelativeDenominatorIsFlooredByReferenceRms) {
  // rms(ref) = sqrt(100^2 / 2); near zero the denominator is 1e-3 * rms.
  auto m = compare(make<double>({2}, {0, 100}), make<double>({2}, {1e-3, 100}));
  EXPECT_NEAR(m.max_rel, 1e-3 / (1e-3 * std::sqrt(5000.0)), 1e-12);
}

TEST(CompareTensors, NaNOnOneSideIsAMismatchAndBothNaNAgree) {
  auto m = compare(make<float>({3}, {kNaNf, 1, kNaNf}), make<float>({3}, {kNaNf, kNaNf, 2}));
  EXPECT_EQ(m.nan_mismatches, 2);
  EXPECT_EQ(m.inf_mismatches, 0);
  EXPECT_EQ(m.sums.finite, 0);
  EXPECT_EQ(m.histogram.non_finite, 3);
  EXPECT_NEAR(m.fraction_out_of_tolerance, 2.0 / 3, 1e-15);
  EXPECT_DOUBLE_EQ(m.max_abs, 0);
  EXPECT_DOUBLE_EQ(m.max_ulp, 0);  // no finite pair
}

TEST(CompareTensors, InfinityMismatches) {
  // same +inf agrees; +inf vs -inf, -inf vs 5 and 1 vs +inf are mismatches.
  auto m = compare(make<float>({4}, {kInff, kInff, -kInff, 1}), make<float>({4}, {kInff, -kInff, 5, kInff}));
  EXPECT_EQ(m.inf_mismatches, 3);
  EXPECT_EQ(m.nan_mismatches, 0);
  EXPECT_DOUBLE_EQ(m.fraction_out_of_tolerance, 0.75);
  EXPECT_EQ(m.histogram.non_finite, 4);
}

TEST(CompareTensors, Denormals) {
  const float tiny = 1e-45f;  // 2^-149, the smallest float32 denormal
  auto m = compare(make<float>({2}, {tiny, tiny}), make<float>({2}, {0, -tiny}));
  EXPECT_DOUBLE_EQ(m.max_abs, 2.0 * std::ldexp(1.0, -149));
  EXPECT_EQ(m.max_abs_index, 1);
  EXPECT_DOUBLE_EQ(m.max_ulp, 2);   // tiny -> 0 -> -tiny
  EXPECT_DOUBLE_EQ(m.p99_ulp, 2);
  // denominator: the smallest normal (2^-126) beats |ref| and 1e-3 * rms
  EXPECT_DOUBLE_EQ(m.max_rel, 2.0 * std::ldexp(1.0, -149) / FLT_MIN);
  EXPECT_EQ(m.histogram.below_lowest, 2);
}

TEST(CompareTensors, EmptyTensorsGiveNeutralValues) {
  auto m = compare(make<float>({0, 3}, {}), make<float>({0, 3}, {}));
  EXPECT_EQ(m.count, 0);
  EXPECT_DOUBLE_EQ(m.cosine, 1);
  EXPECT_DOUBLE_EQ(m.max_abs, 0);
  EXPECT_DOUBLE_EQ(m.mse, 0);
  EXPECT_DOUBLE_EQ(m.p99_ulp, 0);
  EXPECT_DOUBLE_EQ(m.fraction_out_of_tolerance, 0);
  EXPECT_EQ(m.max_abs_index, -1);
}

TEST(CompareTensors, ShapeOrDtypeMismatchIsAnError) {
  auto bad = compare_tensors(make<float>({2}, {1, 2}), make<float>({3}, {1, 2, 3}), {});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("float32[2]"), std::string::npos);
  EXPECT_NE(bad.status().message().find("float32[3]"), std::string::npos);
  auto mixed = compare_tensors(make<std::string>({1}, {"a"}), make<float>({1}, {1}), {});
  ASSERT_FALSE(mixed.is_ok());
  EXPECT_NE(mixed.status().message().find("string"), std::string::npos);
}

TEST(CompareTensors, HalfBfloatAndDoubleUlps) {
  // float16 1.0 (0x3c00) vs 0x3c01 = 1 + 2^-10
  auto h = compare(make<Float16>({1}, {Float16{0x3c00}}), make<Float16>({1}, {Float16{0x3c01}}));
  EXPECT_EQ(h.dtype, "float16");
  EXPECT_DOUBLE_EQ(h.max_abs, std::ldexp(1.0, -10));
  EXPECT_DOUBLE_EQ(h.max_ulp, 1);
  // bfloat16 1.0 (0x3f80) vs 0x3f81 = 1 + 2^-7
  auto b = compare(make<BFloat16>({1}, {BFloat16{0x3f80}}), make<BFloat16>({1}, {BFloat16{0x3f81}}));
  EXPECT_DOUBLE_EQ(b.max_abs, std::ldexp(1.0, -7));
  EXPECT_DOUBLE_EQ(b.max_ulp, 1);
  auto d = compare(make<double>({1}, {1.0}), make<double>({1}, {std::nextafter(1.0, 2.0)}));
  EXPECT_DOUBLE_EQ(d.max_ulp, 1);
  // A float32 test against a float16 reference is rounded to float16 for the ULP:
  // 1.0004 rounds to 1.0 (half spacing 2^-10 ~ 0.000977).
  auto mixed = compare(make<Float16>({1}, {Float16{0x3c00}}), make<float>({1}, {1.0004f}));
  EXPECT_DOUBLE_EQ(mixed.max_ulp, 0);
  EXPECT_NEAR(mixed.max_abs, 0.0004, 1e-7);
}

TEST(CompareTensors, IntegersAreComparedExactlyAndInFloat64) {
  auto m = compare(make<int64_t>({3}, {1, 5, 7}), make<int64_t>({3}, {1, 7, 7}));
  EXPECT_EQ(m.exact_mismatches, 1);
  EXPECT_DOUBLE_EQ(m.max_abs, 2);
  EXPECT_DOUBLE_EQ(m.max_ulp, 2);  // integers: one step per unit
  // 2^60 and 2^60 + 1 are the same double but different int64 values.
  const int64_t big = int64_t{1} << 60;
  auto wide = compare(make<int64_t>({1}, {big}), make<int64_t>({1}, {big + 1}));
  EXPECT_EQ(wide.exact_mismatches, 1);
  auto flags = compare(make<bool>({3}, {true, false, true}), make<bool>({3}, {true, true, true}));
  EXPECT_EQ(flags.exact_mismatches, 1);
  EXPECT_DOUBLE_EQ(flags.max_abs, 1);
}

TEST(CompareTensors, StringsCountExactMismatchesOnly) {
  auto m = compare(make<std::string>({3}, {"a", "b", "c"}), make<std::string>({3}, {"a", "x", "c"}));
  EXPECT_EQ(m.exact_mismatches, 1);
  EXPECT_EQ(m.count, 3);
  EXPECT_DOUBLE_EQ(m.max_abs, 0);
}

TEST(CompareTensors, HistogramBinsByDecade) {
  auto m = compare(make<double>({7}, {0, 0, 0, 0, 0, 0, 0}),
                   make<double>({7}, {0, 1e-13, 1e-12, 5e-12, 0.1, 1, 1e3}));
  EXPECT_EQ(m.histogram.exact, 1);
  EXPECT_EQ(m.histogram.below_lowest, 1);
  ASSERT_EQ(m.histogram.counts.size(), 16u);  // up to 10^3 = bin 15
  EXPECT_EQ(m.histogram.counts[0], 2);        // [1e-12, 1e-11)
  EXPECT_EQ(m.histogram.counts[11], 1);       // 0.1
  EXPECT_EQ(m.histogram.counts[12], 1);       // 1
  EXPECT_EQ(m.histogram.counts[15], 1);       // 1000
  EXPECT_EQ(m.histogram.counts[1] + m.histogram.counts[10] + m.histogram.counts[14], 0);
}

double softmax_at(std::vector<double> row, size_t i) {
  double sum = 0;
  for (double v : row) sum += std::exp(v);
  return std::exp(row[i]) / sum;
}

TEST(ProbabilityMetrics, LogitsGoThroughSoftmax) {
  CompareOptions o;
  o.probability = true;
  auto m = compare(make<float>({2, 3}, {1, 2, 3, 3, 2, 1}), make<float>({2, 3}, {1, 2, 3.5f, 1, 2, 3}), o);
  ASSERT_TRUE(m.probability);
  EXPECT_EQ(m.probability->rows, 2);
  EXPECT_DOUBLE_EQ(m.probability->top1_agreement, 0.5);  // row 1: argmax 0 vs 2
  EXPECT_DOUBLE_EQ(m.probability->top5_agreement, 1);    // k = 3 classes: same set
  double kl0 = 0, kl1 = 0;
  for (size_t i = 0; i < 3; ++i) {
    const double p0 = softmax_at({1, 2, 3}, i), q0 = softmax_at({1, 2, 3.5}, i);
    const double p1 = softmax_at({3, 2, 1}, i), q1 = softmax_at({1, 2, 3}, i);
    kl0 += p0 * std::log(p0 / q0);
    kl1 += p1 * std::log(p1 / q1);
  }
  EXPECT_NEAR(m.probability->max_kl, kl1, 1e-6);
  EXPECT_NEAR(m.probability->mean_kl, (kl0 + kl1) / 2, 1e-6);
}

TEST(ProbabilityMetrics, DistributionsAreUsedAsTheyAre) {
  CompareOptions o;
  o.probability = true;
  auto m = compare(make<float>({1, 3}, {0.5f, 0.5f, 0}), make<float>({1, 3}, {0.25f, 0.75f, 0}), o);
  // KL = 0.5 ln(0.5/0.25) + 0.5 ln(0.5/0.75) = 0.5 ln(4/3); ties go to the lower index.
  EXPECT_NEAR(m.probability->max_kl, 0.5 * std::log(4.0 / 3), 1e-7);
  EXPECT_DOUBLE_EQ(m.probability->top1_agreement, 0);
  // A zero test probability costs ln(p / 1e-12), not infinity.
  auto z = compare(make<float>({1, 2}, {0.5f, 0.5f}), make<float>({1, 2}, {1, 0}), o);
  EXPECT_NEAR(z.probability->max_kl, 0.5 * std::log(0.5) + 0.5 * std::log(0.5 / kKlFloor), 1e-6);
}

TEST(ProbabilityMetrics, NaNRowGivesNaNKlAndDisagrees) {
  CompareOptions o;
  o.probability = true;
  auto m = compare(make<float>({2, 2}, {1, 2, 1, 2}), make<float>({2, 2}, {1, 2, kNaNf, 2}), o);
  EXPECT_TRUE(std::isnan(m.probability->max_kl));
  EXPECT_DOUBLE_EQ(m.probability->top1_agreement, 0.5);
}

TEST(BoxMetrics, GreedyMatchingInEachFormat) {
  CompareOptions o;
  o.box_format = BoxFormat::kXYXY;
  o.box_match_iou = 0.5;
  // ref box 0 = test box 1 (IoU 1); ref box 1 vs test box 0: 100 / 110.
  auto m = compare(make<float>({2, 4}, {0, 0, 10, 10, 20, 20, 30, 30}),
                   make<float>({2, 4}, {20, 20, 30, 31, 0, 0, 10, 10}), o);
  ASSERT_TRUE(m.boxes);
  EXPECT_EQ(m.boxes->matched, 2);
  EXPECT_EQ(m.boxes->reference_boxes, 2);
  EXPECT_NEAR(m.boxes->min_matched_iou, 100.0 / 110, 1e-12);
  EXPECT_NEAR(m.boxes->mean_matched_iou, (1 + 100.0 / 110) / 2, 1e-12);

  o.box_format = BoxFormat::kXYWH;  // [0,0,10,10] vs [1,0,11,10]: 90 / 110
  auto w = compare(make<float>({1, 1, 4}, {0, 0, 10, 10}), make<float>({1, 1, 4}, {1, 0, 10, 10}), o);
  EXPECT_NEAR(w.boxes->min_matched_iou, 90.0 / 110, 1e-12);

  o.box_format = BoxFormat::kCXCYWH;  // [0,0,10,10] vs [0,-1,10,11]: 100 / 120
  o.box_match_iou = 0.9;
  auto c = compare(make<float>({1, 4}, {5, 5, 10, 10}), make<float>({1, 4}, {5, 5, 10, 12}), o);
  EXPECT_EQ(c.boxes->matched, 0);  // 0.833 < 0.9
  EXPECT_DOUBLE_EQ(c.boxes->min_matched_iou, 1);

  auto bad = compare_tensors(make<float>({2, 3}, {0, 0, 0, 0, 0, 0}), make<float>({2, 3}, {0, 0, 0, 0, 0, 0}), o);
  EXPECT_FALSE(bad.is_ok());
  EXPECT_TRUE(parse_box_format("cxcywh").is_ok());
  EXPECT_FALSE(parse_box_format("yxyx").is_ok());
}

TEST(PixelAgreement, ArgmaxOverChannelsAndLabelMaps) {
  CompareOptions o;
  o.pixel_agreement = true;
  // [1, 2, 2, 2]: ref classes 0 0 1 1, test classes 0 1 1 1.
  auto m = compare(make<float>({1, 2, 2, 2}, {1, 1, 0, 0, 0, 0, 1, 1}),
                   make<float>({1, 2, 2, 2}, {1, 0, 0, 0, 0, 1, 1, 1}), o);
  ASSERT_TRUE(m.pixel_agreement);
  EXPECT_DOUBLE_EQ(*m.pixel_agreement, 0.75);
  auto labels = compare(make<int64_t>({1, 4}, {0, 1, 2, 3}), make<int64_t>({1, 4}, {0, 1, 2, 2}), o);
  EXPECT_DOUBLE_EQ(*labels.pixel_agreement, 0.75);
}

TEST(MergeMetrics, CasesMergeAsIfConcatenated) {
  CompareOptions o;
  o.probability = true;
  auto a = compare(make<float>({1, 2}, {1, 2}), make<float>({1, 2}, {1, 3}), o);
  auto b = compare(make<float>({1, 1}, {3}), make<float>({1, 1}, {3.5f}), o);
  auto m = merge_metrics({a, b});
  EXPECT_EQ(m.count, 3);
  EXPECT_DOUBLE_EQ(m.max_abs, 1);
  EXPECT_EQ(m.max_abs_index, 1);
  EXPECT_DOUBLE_EQ(m.mean_abs, 0.5);          // (1 + 0.5) / 3
  EXPECT_DOUBLE_EQ(m.mse, 1.25 / 3);
  // sums: ref^2 = 14, test^2 = 22.25, ref*test = 17.5, err^2 = 1.25
  EXPECT_NEAR(m.cosine, 17.5 / std::sqrt(14 * 22.25), 1e-15);
  EXPECT_NEAR(m.sqnr_db, 10 * std::log10(14 / 1.25), 1e-12);
  EXPECT_EQ(m.histogram.exact, 1);
  EXPECT_EQ(m.probability->rows, 2);
  EXPECT_DOUBLE_EQ(m.probability->top1_agreement, 1);  // row a: argmax 1 vs 1; b: 1 class
  EXPECT_DOUBLE_EQ(m.fraction_out_of_tolerance, 2.0 / 3);
}

}  // namespace
}  // namespace twinrt::parity
