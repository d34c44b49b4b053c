// The vectorizable 2-D max pool against the reference kernel, bit for bit: every window
// geometry around the edges, and planes full of NaN, infinities and signed zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/portable/f32_maxpool_2d.h"
#include "kernels/ref/pool_ref.h"

namespace twinrt::kernels {
namespace {

std::vector<float> awkward_plane(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  const float special[] = {std::nanf(""), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::infinity(), 0.0f, -0.0f,
                           std::numeric_limits<float>::lowest()};
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) {
    const uint32_t r = gen();
    x = r % 4 == 0 ? special[(r / 4) % 6] : static_cast<float>(static_cast<int>(r % 7) - 3);
  }
  return v;
}

TEST(KernelsMaxPool2d, MatchesTheReferenceBitForBit) {
  uint32_t seed = 1;
  int checked = 0;
  for (int64_t h : {1, 4, 7})
    for (int64_t w : {1, 5, 13})
      for (int64_t k : {1, 2, 3})
        for (int64_t s : {1, 2, 3})
          for (int64_t pad : {0, 1, 2}) {
            if (pad >= k) continue;
            const int64_t in[2] = {h, w}, kernel[2] = {k, k}, strides[2] = {s, s}, dil[2] = {1, 1};
            const int64_t pads_begin[2] = {pad, pad}, pads_end[2] = {pad / 2, pad};
            int64_t out[2];
            for (int d = 0; d < 2; ++d) out[d] = (in[d] + pads_begin[d] + pads_end[d] - k) / s + 1;
            if (out[0] < 1 || out[1] < 1) continue;
            const ImageWindow win{2, in, out, kernel, strides, dil, pads_begin, pads_end};
            ASSERT_TRUE(f32_maxpool_2d_applies(win));
            const auto x = awkward_plane(h * w, seed++);
            std::vector<float> want(static_cast<size_t>(out[0] * out[1])), got(want.size(), 123.0f);
            f32_maxpool_ref(win, x.data(), want.data(), nullptr);
            f32_maxpool_2d(win, x.data(), got.data());
            ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0)
                << "h=" << h << " w=" << w << " k=" << k << " s=" << s << " pad=" << pad;
            ++checked;
          }
  EXPECT_GT(checked, 100);
}

TEST(KernelsMaxPool2d, DilatedWindowsAreLeftToTheReference) {
  const int64_t in[2] = {5, 5}, out[2] = {1, 1}, kernel[2] = {3, 3}, strides[2] = {1, 1}, dil[2] = {2, 2};
  const int64_t pads[2] = {0, 0};
  EXPECT_FALSE(f32_maxpool_2d_applies({2, in, out, kernel, strides, dil, pads, pads}));
}

}  // namespace
}  // namespace twinrt::kernels
