// The depthwise plane kernels of every tier against the float reference kernel: the exact
// variants bit for bit (borders, tails below and above the vector width, strides,
// dilations, infinite weights and NaN inputs), the fma variants within float error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/conv/f32_dwconv.h"
#include "kernels/cpu/isa.h"
#include "kernels/ref/dwconv_ref.h"

namespace twinrt::kernels {
namespace {

struct Geometry {
  int64_t h, w, k, stride, dilation, pad;
};

std::vector<Geometry> geometries() {
  std::vector<Geometry> out;
  for (int64_t h : {5, 12, 40})  // 40 x 113 and wider: planes too large for the padded copy
    for (int64_t w : {1, 3, 7, 15, 16, 17, 40, 71, 113})
      for (int64_t k : {1, 3, 5})
        for (int64_t stride : {1, 2, 3})
          for (int64_t dilation : {1, 2})
            for (int64_t pad : {int64_t{0}, k / 2 * dilation}) out.push_back({h, w, k, stride, dilation, pad});
  out.push_back({3, 20, 17, 1, 1, 8});  // more kernel rows than the row table holds
  return out;
}

std::vector<float> random_values(int64_t n, uint32_t seed, bool specials) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  if (specials && n > 4) {
    v[1] = std::numeric_limits<float>::infinity();
    v[static_cast<size_t>(n) - 2] = std::nanf("");
  }
  return v;
}

// Runs `kernel` and the reference on one geometry; returns {got, want}.
std::pair<std::vector<float>, std::vector<float>> run(F32DwConvFn kernel, const Geometry& g, uint32_t seed,
                                                      bool specials) {
  const int64_t in[2] = {g.h, g.w}, kernel_shape[2] = {g.k, g.k}, strides[2] = {g.stride, g.stride};
  const int64_t dil[2] = {g.dilation, g.dilation}, pads[2] = {g.pad, g.pad};
  int64_t out[2];
  for (int d = 0; d < 2; ++d) out[d] = std::max<int64_t>(0, (in[d] + 2 * g.pad - (g.k - 1) * g.dilation - 1) / g.stride + 1);
  const ImageWindow win{2, in, out, kernel_shape, strides, dil, pads, pads};
  const auto x = random_values(g.h * g.w, seed, false);
  const auto weights = random_values(g.k * g.k, seed + 1, specials);
  std::vector<float> want(static_cast<size_t>(out[0] * out[1])), got(want.size(), -9.0f);
  f32_dwconv2d_ref(win, x.data(), weights.data(), 0.25f, want.data());
  kernel(win, x.data(), weights.data(), 0.25f, got.data());
  return {got, want};
}

std::vector<Isa> supported_tiers() {
  std::vector<Isa> tiers;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512})
    if (isa_supported(isa)) tiers.push_back(isa);
  return tiers;
}

TEST(KernelsDwConvTiers, ExactKernelsMatchTheReferenceBitForBit) {
  uint32_t seed = 1;
  for (Isa isa : supported_tiers())
    for (const Geometry& g : geometries())
      for (bool specials : {false, true}) {
        const auto [got, want] = run(f32_dwconv_kernel(isa, false), g, seed += 2, specials);
        // (memcmp must not see the null data of an empty output)
        ASSERT_TRUE(got.empty() || std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0)
            << isa_name(isa) << " w=" << g.w << " k=" << g.k << " stride=" << g.stride << " dilation=" << g.dilation
            << " pad=" << g.pad << (specials ? " with inf/NaN" : "");
      }
}

TEST(KernelsDwConvTiers, FmaKernelsStayWithinFloatError) {
  uint32_t seed = 500;
  for (Isa isa : supported_tiers())
    for (const Geometry& g : geometries()) {
      const auto [got, want] = run(f32_dwconv_kernel(isa, true), g, seed += 2, false);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-4f * static_cast<float>(g.k * g.k)) << isa_name(isa) << " at " << i;
    }
}

}  // namespace
}  // namespace twinrt::kernels
