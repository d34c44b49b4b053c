// The vectorized elementwise steps of every tier against the formulas the separate nodes
// use (float arithmetic, ops/unary/activation_math.h in double rounded once), bit for bit:
// lengths below, at and above the vector widths, broadcast operands, in place, and values
// that include NaN, infinities, signed zeros and subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/elementwise/f32_steps.h"
#include "ops/unary/activation_math.h"

namespace twinrt::kernels {
namespace {

using Kind = F32StepKind;

float expected(const F32StepParams& s, float a, float b) {
  const double x = a;
  switch (s.kind) {
    case Kind::kAdd: return a + b;
    case Kind::kSub: return a - b;
    case Kind::kMul: return a * b;
    case Kind::kDiv: return a / b;
    case Kind::kClip: {
      float v = a < s.lo ? s.lo : a;
      return v > s.hi ? s.hi : v;
    }
    case Kind::kRelu: return static_cast<float>(activation::relu(x));
    case Kind::kHardSigmoid: return static_cast<float>(activation::hard_sigmoid(x, s.alpha, s.beta));
    case Kind::kHardSwish: return static_cast<float>(activation::hard_swish(x));
    case Kind::kLeakyRelu: return static_cast<float>(activation::leaky_relu(x, s.alpha));
    case Kind::kHardSigmoidInFloat:
      return activation::hard_sigmoid_in_float(a, static_cast<float>(s.alpha), static_cast<float>(s.beta));
    case Kind::kHardSwishInFloat: return activation::hard_swish_in_float(a);
    case Kind::kMulAdd: return a * static_cast<float>(s.alpha) + static_cast<float>(s.beta);
    case Kind::kNormalize: {  // BatchNormalization's Sub, MulAdd and Clip steps
      const float v = (a - s.centre) * static_cast<float>(s.alpha) + static_cast<float>(s.beta);
      return s.clip ? expected({Kind::kClip, s.lo, s.hi}, v, 0.0f) : v;
    }
    default: ADD_FAILURE() << "not a vectorized kind"; return 0;
  }
}

std::vector<float> values(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 3.0f, -3.0f, 3.4e38f, -2.5f};
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = gen() % 5 == 0 ? specials[gen() % std::size(specials)] : dist(gen);
  return v;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

std::vector<F32StepParams> steps() {
  std::vector<F32StepParams> out;
  for (Kind k : {Kind::kAdd, Kind::kSub, Kind::kMul, Kind::kDiv, Kind::kRelu, Kind::kHardSwish, Kind::kHardSwishInFloat})
    out.push_back({k});
  out.push_back({Kind::kClip, 0.0f, 6.0f});
  out.push_back({Kind::kClip, -std::numeric_limits<float>::infinity(), 1.5f});
  out.push_back({Kind::kHardSigmoid, 0, 0, static_cast<double>(0.2f), 0.5});
  out.push_back({Kind::kHardSigmoid, 0, 0, static_cast<double>(1.0f / 6), 0.5});
  out.push_back({Kind::kHardSigmoidInFloat, 0, 0, static_cast<double>(0.2f), 0.5});
  out.push_back({Kind::kLeakyRelu, 0, 0, static_cast<double>(0.01f)});
  out.push_back({Kind::kMulAdd, 0, 0, static_cast<double>(1.7f), static_cast<double>(-0.3f)});
  out.push_back({Kind::kNormalize, 0, 0, static_cast<double>(0.37f), static_cast<double>(-1.25f), 0.5f});
  out.push_back({Kind::kNormalize, 0.0f, 6.0f, static_cast<double>(-2.5f), static_cast<double>(0.75f), -0.125f, true});
  return out;
}

TEST(KernelsF32Steps, EveryTierGivesTheFormulasBits) {
  uint32_t seed = 7;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (!isa_supported(isa)) continue;
    const F32StepFn kernel = f32_step_kernel(isa);
    for (const F32StepParams& s : steps())
      for (int64_t n : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 256})
        for (int broadcast = 0; broadcast < 3; ++broadcast) {  // none, a scalar, b scalar
          if (broadcast > 0 && (!f32_step_is_binary(s.kind) || n == 1)) continue;
          const auto a = values(static_cast<size_t>(n), seed++), b = values(static_cast<size_t>(n), seed++);
          const F32StepOperand oa{a.data(), broadcast == 1}, ob{b.data(), broadcast == 2};
          std::vector<float> d(static_cast<size_t>(n) + 1, 42.0f), in_place = a;
          kernel(s, oa, f32_step_is_binary(s.kind) ? ob : oa, d.data(), n);
          if (broadcast != 1) kernel(s, {in_place.data(), false}, f32_step_is_binary(s.kind) ? ob : oa, in_place.data(), n);
          EXPECT_EQ(d[static_cast<size_t>(n)], 42.0f) << "wrote past n";
          for (int64_t i = 0; i < n; ++i) {
            const float want = expected(s, a[broadcast == 1 ? 0 : i], b[broadcast == 2 ? 0 : i]);
            ASSERT_TRUE(same_bits(d[i], want)) << isa_name(isa) << " kind " << static_cast<int>(s.kind) << " n=" << n
                                               << " at " << i << ": " << d[i] << " vs " << want;
            if (broadcast != 1) {
              ASSERT_TRUE(same_bits(in_place[i], want)) << isa_name(isa) << " in place, at " << i;
            }
          }
        }
  }
}

}  // namespace
}  // namespace twinrt::kernels
