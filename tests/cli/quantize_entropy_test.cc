// quantize::Histogram and kl_threshold_bins (--method entropy) on distributions whose
// answer is known: a uniform one keeps (nearly) everything, a Gaussian with far outliers
// is clipped between its bulk and the outliers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "quantize/histogram.h"

namespace twinrt::quantize {
namespace {

Histogram magnitudes_of(const std::vector<float>& v, int bins) {
  double top = 0;
  for (float x : v) top = std::max(top, std::fabs(static_cast<double>(x)));
  Histogram h(0.0, top, bins, true);
  h.add(v.data(), static_cast<int64_t>(v.size()));
  return h;
}

TEST(QuantizeEntropyCalibration, UniformKeepsTheWholeRange) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(200000);
  for (float& x : v) x = u(rng);
  const Histogram h = magnitudes_of(v, 2048);
  const size_t kept = kl_threshold_bins(h.counts, 256);
  EXPECT_GE(kept, 2048u * 95 / 100) << "threshold " << h.width() * static_cast<double>(kept);
}

TEST(QuantizeEntropyCalibration, GaussianOutliersAreClipped) {
  std::mt19937 rng(2);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(200000);
  for (float& x : v) x = g(rng);
  for (int i = 0; i < 20; ++i) v[static_cast<size_t>(i)] = (i % 2 ? -1.0f : 1.0f) * (40.0f + static_cast<float>(i));
  const Histogram h = magnitudes_of(v, 2048);
  const double threshold = h.width() * static_cast<double>(kl_threshold_bins(h.counts, 128));
  // The bulk reaches about 4.5 sigma; the outliers start at 40.
  EXPECT_GT(threshold, 2.0);
  EXPECT_LT(threshold, 10.0);
}

// A ReLU output: half of it exactly 0. The zeros must not move the threshold (before they
// were counted apart, their spike in bin 0 pinned it just below 2 * levels bins).
TEST(QuantizeEntropyCalibration, ExactZerosDoNotMoveTheThreshold) {
  std::mt19937 rng(3);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> half_normal(100000), relu(200000, 0.0f);
  for (size_t i = 0; i < half_normal.size(); ++i) relu[2 * i] = half_normal[i] = std::fabs(g(rng));
  const Histogram a = magnitudes_of(half_normal, 2048), b = magnitudes_of(relu, 2048);
  EXPECT_EQ(b.zeros, 100000u);
  EXPECT_EQ(a.counts, b.counts);
  const size_t kept = kl_threshold_bins(b.counts, 256);
  EXPECT_EQ(kept, kl_threshold_bins(a.counts, 256));
  EXPECT_GT(b.width() * static_cast<double>(kept), 2.5);  // beyond 2.5 sigma of the non-zero half
}

TEST(QuantizeEntropyCalibration, SmallHistogramsAreNotClipped) {
  EXPECT_EQ(kl_threshold_bins(std::vector<uint64_t>(100, 1), 128), 100u);
  EXPECT_EQ(kl_threshold_bins(std::vector<uint64_t>(2048, 0), 128), 2048u);
}

TEST(QuantizeCalibrationHistogram, MagnitudesAndQuantiles) {
  Histogram h(0.0, 4.0, 4, true);
  const std::vector<float> v = {-3.5f, 0.5f, 1.5f, 2.5f, NAN, INFINITY};
  h.add(v.data(), static_cast<int64_t>(v.size()));
  EXPECT_EQ(h.total, 4u);
  EXPECT_EQ(h.counts, (std::vector<uint64_t>{1, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(h.quantile(0.5), 2.0);
  EXPECT_DOUBLE_EQ(h.quantile(1.0), 4.0);
}

}  // namespace
}  // namespace twinrt::quantize
