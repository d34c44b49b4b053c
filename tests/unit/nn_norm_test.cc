#include "nn_op_harness.h"

#include <cstring>
#include <limits>
#include <random>

#include "kernels/cpu/isa.h"

namespace twinrt::testing {
namespace {

TEST(NnNorm, BatchNormInference) {
  for (Mode mode : kBothModes) {
    auto r = OpTest("BatchNormalization", 15).attr("epsilon", 0.0f).input<float>({1, 2, 1, 2}, {1, 2, 3, 4})
                 .input<float>({2}, {1, 2}).input<float>({2}, {0, 1}).input<float>({2}, {1, 3}).input<float>({2}, {4, 1})
                 .run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    expect_close(r->at(0), {1, 2, 1, 2}, {0, 0.5f, 1, 3});
  }
}

// Inference on every tier's vectors (planes of 35: whole vectors and a tail), default and
// exact mode: the bits of (x - mean) * (scale / sqrt(var + epsilon)) + B in float, the factor
// rounded once from double; NaN and infinities pass through.
TEST(NnNorm, BatchNormInferenceHasTheFloatFormulasBitsOnEveryTier) {
  const int64_t channels = 3, plane = 35;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(static_cast<size_t>(2 * channels * plane)), scale(3), bias(3), mean(3), var(3);
  for (float& v : x) v = dist(gen);
  x[0] = std::numeric_limits<float>::quiet_NaN();
  x[1] = std::numeric_limits<float>::infinity();
  x[2] = -0.0f;
  for (size_t c = 0; c < 3; ++c) {
    scale[c] = dist(gen);
    bias[c] = dist(gen);
    mean[c] = dist(gen);
    var[c] = std::fabs(dist(gen)) + 0.1f;
  }
  const float epsilon = 1e-3f;
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = i / plane % channels;
    const float f = static_cast<float>(double{scale[c]} / std::sqrt(double{var[c]} + double{epsilon}));
    want[i] = (x[i] - mean[c]) * f + bias[c];
  }
  for (Isa isa : kernels::supported_isas())
    for (Mode mode : {Mode::kDefault, Mode::kExact}) {
      auto r = OpTest("BatchNormalization", 15).attr("epsilon", epsilon).isa(isa)
                   .input<float>({2, channels, 5, 7}, x).input<float>({3}, scale).input<float>({3}, bias)
                   .input<float>({3}, mean).input<float>({3}, var).run(mode);
      ASSERT_TRUE(r.is_ok()) << r.status().message();
      const std::vector<float> got = values_of<float>(r->at(0));
      ASSERT_EQ(got.size(), want.size());
      EXPECT_TRUE(std::isnan(got[0]));
      EXPECT_EQ(std::memcmp(got.data() + 1, want.data() + 1, (want.size() - 1) * sizeof(float)), 0)
          << isa_name(isa) << " " << mode_name(mode);
    }
}

TEST(NnNorm, BatchNormTrainingOutputs) {
  auto r = OpTest("BatchNormalization", 15).attr("epsilon", 0.0f).attr("training_mode", 1).outputs(3)
               .input<float>({2, 1, 1, 1}, {1, 3}).input<float>({1}, {1}).input<float>({1}, {0})
               .input<float>({1}, {0}).input<float>({1}, {1}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {2, 1, 1, 1}, {-1, 1});
  expect_close(r->at(1), {1}, {0.2f});  // 0 * 0.9 + 2 * 0.1
  expect_close(r->at(2), {1}, {1.0f});  // 1 * 0.9 + 1 * 0.1
  auto old = OpTest("BatchNormalization", 9).outputs(5).input<float>({1, 1}, {1}).input<float>({1}, {1})
                 .input<float>({1}, {0}).input<float>({1}, {0}).input<float>({1}, {1}).run(Mode::kDefault);
  EXPECT_FALSE(old.is_ok());
}

TEST(NnNorm, BatchNormBadParameterShape) {
  auto r = OpTest("BatchNormalization", 15).input<float>({1, 2, 1}, {1, 2}).input<float>({3}, {1, 1, 1})
               .input<float>({2}, {0, 0}).input<float>({2}, {0, 0}).input<float>({2}, {1, 1}).run(Mode::kDefault);
  EXPECT_FALSE(r.is_ok());
}

TEST(NnNorm, InstanceNorm) {
  // mean 2.5, variance 1.25 -> (x - 2.5) / 1.1180340 * 2 + 1
  auto r = OpTest("InstanceNormalization", 6).attr("epsilon", 0.0f).input<float>({1, 1, 4}, {1, 2, 3, 4})
               .input<float>({1}, {2}).input<float>({1}, {1}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 1, 4}, {-1.6832816f, 0.1055728f, 1.8944272f, 3.6832816f});
}

TEST(NnNorm, LayerNormWithStatistics) {
  for (Mode mode : kBothModes) {
    auto r = OpTest("LayerNormalization", 17).outputs(3).input<float>({2, 2}, {1, 3, 2, 2})
                 .input<float>({2}, {2, 3}).input<float>({2}, {0, 1}).run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    expect_close(r->at(0), {2, 2}, {-2, 4, 0, 1}, 1e-4);
    expect_close(r->at(1), {2, 1}, {2, 2});
    expect_close(r->at(2), {2, 1}, {0.99999500f, 316.22776f});  // 1/sqrt(1 + 1e-5), 1/sqrt(1e-5)
  }
  auto bad_axis = OpTest("LayerNormalization", 17).attr("axis", 2).input<float>({2, 2}, {1, 3, 2, 2})
                      .input<float>({2}, {1, 1}).run(Mode::kDefault);
  EXPECT_FALSE(bad_axis.is_ok());
}

TEST(NnNorm, Lrn) {
  // alpha / size = 1, beta = 1, bias = 1: y = x / (1 + sum of squares in the window)
  auto r = OpTest("LRN", 13).attr("size", 3).attr("alpha", 3.0f).attr("beta", 1.0f).attr("bias", 1.0f)
               .input<float>({1, 3, 1, 1}, {1, 2, 3}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 3, 1, 1}, {1.0f / 6, 2.0f / 15, 3.0f / 14});
}

TEST(NnNorm, MeanVarianceNormalization) {
  auto r = OpTest("MeanVarianceNormalization", 13).input<float>({1, 2, 1, 2}, {1, 3, 5, 5}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 2, 1, 2}, {-1, 1, 0, 0});
}

TEST(NnDropout, InferenceIsIdentityWithTrueMask) {
  auto r = OpTest("Dropout", 13).outputs(2).input<float>({3}, {1, 2, 3}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {3}, {1, 2, 3});
  EXPECT_EQ(values_of<bool>(r->at(1)), (std::vector<bool>{true, true, true}));
  auto old = OpTest("Dropout", 7).outputs(2).attr("ratio", 0.3f).input<float>({2}, {1, 2}).run(Mode::kDefault);
  ASSERT_TRUE(old.is_ok()) << old.status().message();
  expect_close(old->at(1), {2}, {1, 1});  // opset 7: the mask has the data's type
}

TEST(NnDropout, TrainingKeepsAndScales) {
  std::vector<float> x(1000, 1.0f);
  auto run = [&](int64_t seed) {
    return OpTest("Dropout", 13).attr("seed", seed).outputs(2).input<float>({1000}, x).input<float>({}, {0.25f})
        .input<bool>({}, {true}).run(Mode::kDefault);
  };
  auto a = run(7), b = run(7);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  auto y = values_of<float>(a->at(0));
  auto mask = values_of<bool>(a->at(1));
  int kept = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    EXPECT_EQ(y[i], mask[i] ? 1.0f / 0.75f : 0.0f);
    kept += mask[i];
  }
  EXPECT_GT(kept, 680);
  EXPECT_LT(kept, 820);
  EXPECT_EQ(values_of<float>(b->at(0)), y);  // same seed, same draws
  auto zero = OpTest("Dropout", 13).input<float>({2}, {1, 2}).input<float>({}, {0.0f}).input<bool>({}, {true}).run(Mode::kDefault);
  ASSERT_TRUE(zero.is_ok());
  expect_close(zero->at(0), {2}, {1, 2});
  auto bad = OpTest("Dropout", 13).input<float>({2}, {1, 2}).input<float>({}, {1.0f}).input<bool>({}, {true}).run(Mode::kDefault);
  EXPECT_FALSE(bad.is_ok());
}

TEST(NnDepthSpace, DcrCrdAndInverse) {
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  auto dcr = OpTest("DepthToSpace", 13).attr("blocksize", 2).input<float>({1, 8, 1, 1}, x).run(Mode::kDefault);
  ASSERT_TRUE(dcr.is_ok()) << dcr.status().message();
  expect_close(dcr->at(0), {1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7});
  auto crd = OpTest("DepthToSpace", 13).attr("blocksize", 2).attr("mode", "CRD").input<float>({1, 8, 1, 1}, x).run(Mode::kDefault);
  ASSERT_TRUE(crd.is_ok()) << crd.status().message();
  expect_close(crd->at(0), {1, 2, 2, 2}, x);
  auto s2d = OpTest("SpaceToDepth", 13).attr("blocksize", 2).input<int64_t>({1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7}).run(Mode::kDefault);
  ASSERT_TRUE(s2d.is_ok()) << s2d.status().message();
  EXPECT_EQ(values_of<int64_t>(s2d->at(0)), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(OpTest("DepthToSpace", 13).attr("blocksize", 2).input<float>({1, 3, 1, 1}, {1, 2, 3}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("SpaceToDepth", 13).attr("blocksize", 2).input<float>({1, 1, 3, 1}, {1, 2, 3}).run(Mode::kDefault).is_ok());
}

}  // namespace
}  // namespace twinrt::testing
