// quantize::Histogram, kl_window and the entropy range (--method entropy) on distributions
// whose answer is known: a uniform one keeps (nearly) everything, a Gaussian with far
// outliers is clipped between its bulk and the outliers, a few negatives do not shrink a
// positive value's window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "quantize/histogram.h"

namespace twinrt::quantize {
namespace {

// The range --method entropy gives a value whose calibration saw `v`.
std::pair<float, float> entropy_range_of(const std::vector<float>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  Histogram h = entropy_histogram(*lo, *hi);
  h.add(v.data(), static_cast<int64_t>(v.size()));
  return entropy_range(h, *lo, *hi);
}

TEST(QuantizeEntropyCalibration, UniformKeepsTheWholeRange) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(200000);
  for (float& x : v) x = u(rng);
  const auto [lo, hi] = entropy_range_of(v);
  EXPECT_LT(lo, 0.001f);
  EXPECT_GE(hi, 0.95f);
}

TEST(QuantizeEntropyCalibration, GaussianOutliersAreClipped) {
  std::mt19937 rng(2);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(200000);
  for (float& x : v) x = g(rng);
  for (int i = 0; i < 20; ++i) v[static_cast<size_t>(i)] = (i % 2 ? -1.0f : 1.0f) * (40.0f + static_cast<float>(i));
  const auto [lo, hi] = entropy_range_of(v);
  // The bulk reaches about 4.5 sigma; the outliers start at 40. One threshold for both signs.
  EXPECT_GT(hi, 2.0f);
  EXPECT_LT(hi, 10.0f);
  EXPECT_NEAR(lo, -hi, 0.1f);
}

// A long positive tail and 5% small negatives (as after a hardswish). Its grid (with a zero
// point) gives nearly all 256 levels to the positive side, so the negatives must not change
// the window much. Judged as 128 levels per side (before) the tail was cut to 0.79 of the
// window without the negatives, and PP-OCRv4's hardswish outputs to a tenth of their range.
TEST(QuantizeEntropyCalibration, AFewNegativesDoNotShrinkThePositiveWindow) {
  std::mt19937 rng(4);
  std::exponential_distribution<float> e(3.0f);
  std::uniform_real_distribution<float> small(-0.04f, 0.0f);
  std::vector<float> positive(200000), mixed(200000);
  for (size_t i = 0; i < positive.size(); ++i) {
    positive[i] = mixed[i] = e(rng);
    if (i % 20 == 0) mixed[i] = small(rng);
  }
  const float alone = entropy_range_of(positive).second;
  const auto [lo, hi] = entropy_range_of(mixed);
  EXPECT_GT(hi, 0.9f * alone) << "positive only: " << alone;
  EXPECT_GE(lo, -0.04f);
  EXPECT_LT(lo, -0.03f);
}

// A ReLU output: half of it exactly 0. The zeros must not move the window (counted in a
// bin, their spike pinned it just below 2 * levels bins).
TEST(QuantizeEntropyCalibration, ExactZerosDoNotMoveTheWindow) {
  std::mt19937 rng(3);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> half_normal(100000), relu(200000, 0.0f);
  for (size_t i = 0; i < half_normal.size(); ++i) relu[2 * i] = half_normal[i] = std::fabs(g(rng));
  const auto [hlo, hhi] = std::minmax_element(half_normal.begin(), half_normal.end());
  Histogram a = entropy_histogram(*hlo, *hhi), b = entropy_histogram(0.0f, *hhi);
  a.add(half_normal.data(), static_cast<int64_t>(half_normal.size()));
  b.add(relu.data(), static_cast<int64_t>(relu.size()));
  EXPECT_EQ(b.zeros, 100000u);
  EXPECT_EQ(a.counts, b.counts);
  const float hi = entropy_range(b, 0.0f, *hhi).second;
  EXPECT_EQ(hi, entropy_range(a, *hlo, *hhi).second);
  EXPECT_GT(hi, 2.5f);  // beyond 2.5 sigma of the non-zero half
}

TEST(QuantizeEntropyCalibration, NarrowOrEmptyHistogramsAreNotClipped) {
  std::vector<uint64_t> counts(2048, 0);
  EXPECT_EQ(kl_window(counts, 1024, 256).end, 0u);
  for (size_t j = 1100; j < 1200; ++j) counts[j] = 1 + j % 7;  // with zero: 176 bins < 256 levels
  const BinWindow w = kl_window(counts, 1024, 256);
  EXPECT_EQ(w.first, 1024u);
  EXPECT_EQ(w.end, 1200u);
  const Histogram all_zero = entropy_histogram(0.0f, 0.0f);
  EXPECT_EQ(entropy_range(all_zero, 0.0f, 0.0f), std::make_pair(0.0f, 0.0f));
}

TEST(QuantizeCalibrationHistogram, ZerosApartAndQuantiles) {
  Histogram h(-4.0, 4.0, 8, true);
  const std::vector<float> v = {-3.5f, 0.0f, 0.5f, 1.5f, 2.5f, NAN, INFINITY, 9.0f};
  h.add(v.data(), static_cast<int64_t>(v.size()));
  EXPECT_EQ(h.total, 5u);
  EXPECT_EQ(h.zeros, 1u);
  EXPECT_EQ(h.counts, (std::vector<uint64_t>{1, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(h.quantile(0.6), 2.0);
  EXPECT_DOUBLE_EQ(h.quantile(1.0), 4.0);
}

}  // namespace
}  // namespace twinrt::quantize
