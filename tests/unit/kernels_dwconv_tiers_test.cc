// The depthwise plane kernels of every tier against the float reference kernel (then the
// clamp): the exact variants bit for bit (borders, tails below and above the vector width,
// strides, dilations, infinite weights and NaN inputs, batches of planes, the fused clamp),
// the fma variants within float error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
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

struct Case {
  Geometry g;
  int64_t planes = 1;
  std::optional<std::pair<float, float>> clamp;  // min, max after the bias
};

// Runs `kernel` on c.planes planes and the reference (then the clamp) on each; returns
// {got, want}.
std::pair<std::vector<float>, std::vector<float>> run(F32DwConvFn kernel, const Case& c, uint32_t seed, bool specials) {
  const Geometry& g = c.g;
  const int64_t in[2] = {g.h, g.w}, kernel_shape[2] = {g.k, g.k}, strides[2] = {g.stride, g.stride};
  const int64_t dil[2] = {g.dilation, g.dilation}, pads[2] = {g.pad, g.pad};
  int64_t out[2];
  for (int d = 0; d < 2; ++d) out[d] = std::max<int64_t>(0, (in[d] + 2 * g.pad - (g.k - 1) * g.dilation - 1) / g.stride + 1);
  const ImageWindow win{2, in, out, kernel_shape, strides, dil, pads, pads};
  const int64_t in_size = g.h * g.w, out_size = out[0] * out[1], taps = g.k * g.k;
  const auto x = random_values(in_size * c.planes, seed, false);
  const auto weights = random_values(taps * c.planes, seed + 1, specials);
  const auto bias = random_values(c.planes, seed + 2, false);
  std::vector<float> want(static_cast<size_t>(out_size * c.planes)), got(want.size(), -9.0f);
  for (int64_t i = 0; i < c.planes; ++i) {
    float* y = want.data() + i * out_size;
    f32_dwconv2d_ref(win, x.data() + i * in_size, weights.data() + i * taps, bias[i], y);
    if (c.clamp)
      for (int64_t j = 0; j < out_size; ++j) {
        y[j] = y[j] < c.clamp->first ? c.clamp->first : y[j];
        y[j] = y[j] > c.clamp->second ? c.clamp->second : y[j];
      }
  }
  F32DwConvPlanes planes;
  planes.in = x.data();
  planes.weights = weights.data();
  planes.bias = bias.data();
  planes.out = got.data();
  planes.count = c.planes;
  if (c.clamp) {
    planes.clamp = true;
    planes.min = c.clamp->first;
    planes.max = c.clamp->second;
  }
  kernel(win, planes);
  return {got, want};
}

// Every geometry on one plane, and on three planes with a clamp (with specials the first and
// last planes' weights hold inf/NaN, so a batch mixes finite and non-finite weights). Planes
// narrower than 16 columns also in a batch of 37: two blocks of 16 channels and 5 left over
// for the channel-blocked path (AVX-512), its first and last blocks with the specials.
std::vector<Case> cases() {
  std::vector<Case> out;
  for (const Geometry& g : geometries()) {
    out.push_back({g, 1, std::nullopt});
    out.push_back({g, 3, std::pair<float, float>(-0.5f, 1.0f)});
    if (g.w < 16 && g.h < 40) out.push_back({g, 37, std::pair<float, float>(-0.5f, 1.0f)});
  }
  return out;
}

// Bit for bit, except that any NaN matches any NaN: docs/numerics.md leaves a NaN's sign and
// payload open (an operation on an infinite weight makes x86's negative default NaN, and
// which NaN an addition of two returns depends on the operand order the compiler chose).
bool same_bits_any_nan(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i]) || std::isnan(want[i])) {
      if (std::isnan(got[i]) != std::isnan(want[i])) return false;
      continue;
    }
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) return false;
  }
  return true;
}

TEST(KernelsDwConvTiers, ExactKernelsMatchTheReferenceBitForBit) {
  uint32_t seed = 1;
  for (Isa isa : supported_isas())
    for (const Case& c : cases())
      for (bool specials : {false, true}) {
        const auto [got, want] = run(f32_dwconv_kernel(isa, false), c, seed += 3, specials);
        const Geometry& g = c.g;
        ASSERT_TRUE(same_bits_any_nan(got, want))
            << isa_name(isa) << " h=" << g.h << " w=" << g.w << " k=" << g.k << " stride=" << g.stride
            << " dilation=" << g.dilation << " pad=" << g.pad << " planes=" << c.planes
            << (specials ? " with inf/NaN" : "");
      }
}

TEST(KernelsDwConvTiers, FmaKernelsStayWithinFloatError) {
  uint32_t seed = 500;
  for (Isa isa : supported_isas())
    for (const Case& c : cases()) {
      const auto [got, want] = run(f32_dwconv_kernel(isa, true), c, seed += 3, false);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-4f * static_cast<float>(c.g.k * c.g.k)) << isa_name(isa) << " at " << i;
    }
}

}  // namespace
}  // namespace twinrt::kernels
