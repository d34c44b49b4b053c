// The vectorized 2-D max pool of every tier against the reference kernel, bit for bit:
// every window geometry around the edges (rows narrower and wider than a vector, whose
// interior ends in a partial vector), float planes full of NaN, infinities and signed
// zeros, and uint8/int8 planes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/portable/maxpool_2d.h"
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

// Calls check(window, plane size, seed) for every window geometry around the edges;
// returns how many there were.
template <class Check>
int for_each_window(Check&& check) {
  uint32_t seed = 1;
  int checked = 0;
  for (int64_t h : {1, 4, 7, 20})
    for (int64_t w : {1, 5, 7, 13, 14, 28, 37, 70, 150})  // 7-28: narrower than an AVX-512 vector of floats
      for (int64_t k : {1, 2, 3})
        for (int64_t s : {1, 2, 3})
          for (int64_t pad : {0, 1, 2}) {
            if (pad >= k) continue;
            // Tall planes also take a window taller than wide (the kernels keep a ring of
            // its rows' maxima).
            const int64_t k_h = h == 20 ? k + 2 : k;
            const int64_t in[2] = {h, w}, kernel[2] = {k_h, k}, strides[2] = {s, s}, dil[2] = {1, 1};
            const int64_t pads_begin[2] = {pad, pad}, pads_end[2] = {pad / 2, pad};
            int64_t out[2];
            for (int d = 0; d < 2; ++d) out[d] = (in[d] + pads_begin[d] + pads_end[d] - kernel[d]) / s + 1;
            if (out[0] < 1 || out[1] < 1) continue;
            const ImageWindow win{2, in, out, kernel, strides, dil, pads_begin, pads_end};
            EXPECT_TRUE(maxpool_2d_applies(win));
            check(win, h * w, seed++);
            ++checked;
          }
  return checked;
}

// A fast kernel on its own scratch, which starts out as garbage.
template <class T>
void run_fast(void (*fast)(const ImageWindow&, const T*, T*, void*), const ImageWindow& win, const T* x, T* y) {
  std::vector<unsigned char> scratch(static_cast<size_t>(maxpool_2d_scratch_bytes(win, sizeof(T))), 0x7f);
  fast(win, x, y, scratch.data());
}

// Float planes go several at a time: a run of kPlanes takes the plane blocks of every tier
// (maxpool_2d_plane_blocks: 16, 8 or 4 planes at once) and the planes one by one after them.
constexpr int64_t kPlanes = kMaxPool2dPlaneBlock + 3;

// The reference on each of kPlanes planes against the fast kernel on all of them at once.
void expect_planes_match(const MaxPool2dKernels& kernels, const ImageWindow& win, const std::vector<float>& x) {
  const int64_t in_size = win.in[0] * win.in[1], out_size = win.out[0] * win.out[1];
  std::vector<float> want(static_cast<size_t>(out_size * kPlanes)), got(want.size(), 123.0f);
  for (int64_t c = 0; c < kPlanes; ++c) f32_maxpool_ref(win, x.data() + c * in_size, want.data() + c * out_size, nullptr);
  std::vector<unsigned char> scratch(static_cast<size_t>(maxpool_2d_scratch_bytes(win, sizeof(float))), 0x7f);
  kernels.f32(win, x.data(), got.data(), kPlanes, scratch.data());
  ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0)
      << "h=" << win.in[0] << " w=" << win.in[1] << " k=" << win.kernel[0] << " s=" << win.strides[0]
      << " pad=" << win.pad_begin[0];
}

TEST(KernelsMaxPool2d, MatchesTheReferenceBitForBit) {
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(isa_description(isa));
    const int checked = for_each_window([&](const ImageWindow& win, int64_t n, uint32_t seed) {
      expect_planes_match(maxpool_2d_kernels(isa), win, awkward_plane(n * kPlanes, seed));
    });
    EXPECT_GT(checked, 100);
  }
}

// Windows with no number above -inf: the vector kernels start at -inf and recompute those
// outputs, so a window of NaN only must still give the lowest float and one holding -inf
// must give -inf.
TEST(KernelsMaxPool2d, WindowsOfOnlyNanAndMinusInfinity) {
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(isa_description(isa));
    for_each_window([&](const ImageWindow& win, int64_t n, uint32_t seed) {
      std::mt19937 gen(seed);
      std::vector<float> x(static_cast<size_t>(n * kPlanes));
      for (float& v : x) v = gen() % 8 == 0 ? -std::numeric_limits<float>::infinity() : std::nanf("");
      expect_planes_match(maxpool_2d_kernels(isa), win, x);
    });
  }
}

// uint8 and int8 (QDQ models' pools after fuse_qdq_max_pool): every byte value, the
// extremes included.
template <class T, class Ref, class Fast>
void eight_bit_matches_reference(Ref ref, Fast fast) {
  for_each_window([&](const ImageWindow& win, int64_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::vector<T> x(static_cast<size_t>(n));
    for (T& v : x) v = static_cast<T>(gen());
    std::vector<T> want(static_cast<size_t>(win.out[0] * win.out[1])), got(want.size(), T{42});
    ref(win, x.data(), want.data(), nullptr);
    run_fast<T>(fast, win, x.data(), got.data());
    ASSERT_EQ(want, got) << "h=" << win.in[0] << " w=" << win.in[1] << " k=" << win.kernel[0] << " s="
                         << win.strides[0] << " pad=" << win.pad_begin[0];
  });
}

TEST(KernelsMaxPool2d, EightBitMatchesTheReference) {
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(isa_description(isa));
    eight_bit_matches_reference<uint8_t>(u8_maxpool_ref, maxpool_2d_kernels(isa).u8);
    eight_bit_matches_reference<int8_t>(i8_maxpool_ref, maxpool_2d_kernels(isa).i8);
  }
}

TEST(KernelsMaxPool2d, DilatedWindowsAreLeftToTheReference) {
  const int64_t in[2] = {5, 5}, out[2] = {1, 1}, kernel[2] = {3, 3}, strides[2] = {1, 1}, dil[2] = {2, 2};
  const int64_t pads[2] = {0, 0};
  EXPECT_FALSE(maxpool_2d_applies({2, in, out, kernel, strides, dil, pads, pads}));
}

}  // namespace
}  // namespace twinrt::kernels
