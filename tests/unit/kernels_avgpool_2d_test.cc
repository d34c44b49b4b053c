// The average-pool fast paths: the 2-D kernel against the reference kernel bit for bit
// (every window geometry around the edges, with and without counting the padding, ceil
// windows that run past the padding, planes with -0), and the 8-lane plane mean against
// its documented order written out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernels/portable/f32_avgpool_2d.h"
#include "kernels/ref/pool_ref.h"

namespace twinrt::kernels {
namespace {

std::vector<float> random_plane(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = gen() % 5 == 0 ? -0.0f : dist(gen);  // -0 where the sums' +0 start shows
  return v;
}

TEST(KernelsAvgPool2d, MatchesTheReferenceBitForBit) {
  uint32_t seed = 1;
  int checked = 0;
  for (int64_t h : {1, 4, 7})
    for (int64_t w : {1, 5, 13, 30})  // 30: columns vectorized whole and with a tail
      for (int64_t k : {1, 2, 3})
        for (int64_t s : {1, 2, 3})
          for (int64_t pad : {0, 1, 2})
            for (int64_t extra : {0, 1})  // a ceil_mode window past the end padding
              for (bool include_pad : {false, true}) {
                if (pad >= k) continue;
                const int64_t in[2] = {h, w}, kernel[2] = {k, k}, strides[2] = {s, s}, dil[2] = {1, 1};
                const int64_t pads_begin[2] = {pad, pad}, pads_end[2] = {pad / 2, pad};
                int64_t out[2];
                for (int d = 0; d < 2; ++d) out[d] = (in[d] + pads_begin[d] + pads_end[d] - k) / s + 1 + extra;
                if (out[0] < 1 || out[1] < 1) continue;
                const ImageWindow win{2, in, out, kernel, strides, dil, pads_begin, pads_end};
                ASSERT_TRUE(f32_avgpool_2d_applies(win));
                const auto x = random_plane(h * w, seed++);
                std::vector<float> want(static_cast<size_t>(out[0] * out[1])), got(want.size(), 123.0f);
                f32_avgpool_ref(win, x.data(), want.data(), include_pad);
                f32_avgpool_2d(win, x.data(), got.data(), include_pad);
                ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0)
                    << "h=" << h << " w=" << w << " k=" << k << " s=" << s << " pad=" << pad << " extra=" << extra
                    << " include_pad=" << include_pad;
                ++checked;
              }
  EXPECT_GT(checked, 400);
}

TEST(KernelsAvgPool2d, DilatedWindowsAreLeftToTheReference) {
  const int64_t in[2] = {5, 5}, out[2] = {1, 1}, kernel[2] = {3, 3}, strides[2] = {1, 1}, dil[2] = {2, 2};
  const int64_t pads[2] = {0, 0};
  EXPECT_FALSE(f32_avgpool_2d_applies({2, in, out, kernel, strides, dil, pads, pads}));
}

TEST(KernelsMean8Lanes, FollowsItsDocumentedOrder) {
  for (int64_t n : {0, 1, 7, 8, 9, 64, 1001}) {
    const auto x = random_plane(n, static_cast<uint32_t>(n) + 50);
    float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int64_t full = n / 8 * 8;
    for (int64_t i = 0; i < full; ++i) lane[i % 8] += x[static_cast<size_t>(i)];
    for (int64_t i = full; i < n; ++i) lane[i - full] += x[static_cast<size_t>(i)];
    const float sum = ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
    const float want = n > 0 ? sum / static_cast<float>(n) : 0.0f;
    const float got = f32_mean_8_lanes(x.data(), n);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << "n=" << n << ": " << want << " vs " << got;
  }
}

}  // namespace
}  // namespace twinrt::kernels
