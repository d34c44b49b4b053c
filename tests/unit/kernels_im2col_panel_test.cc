// f32_im2col_panels_2d (the B panels of Conv on the tile kernels) against the reference
// im2col: same values, zero padding, zero columns past `count`, for many window shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/gemm/im2col_panel.h"
#include "kernels/ref/im2col_ref.h"

namespace twinrt::kernels {
namespace {

struct Geometry {
  int64_t in[2], kernel[2], strides[2], dilations[2], pad_begin[2], pad_end[2], out[2];
};

std::string describe(const Geometry& g, int64_t first, int64_t count, int width) {
  return "in " + std::to_string(g.in[0]) + "x" + std::to_string(g.in[1]) + " kernel " + std::to_string(g.kernel[0]) +
         "x" + std::to_string(g.kernel[1]) + " stride " + std::to_string(g.strides[0]) + "," +
         std::to_string(g.strides[1]) + " dilation " + std::to_string(g.dilations[0]) + "," +
         std::to_string(g.dilations[1]) + " pad " + std::to_string(g.pad_begin[0]) + "," +
         std::to_string(g.pad_begin[1]) + " first " + std::to_string(first) + " count " + std::to_string(count) +
         " width " + std::to_string(width);
}

TEST(KernelsIm2colPanel, MatchesTheReferenceOnManyWindows) {
  std::mt19937 gen(3);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  for (int trial = 0; trial < 400; ++trial) {
    Geometry g;
    for (int d = 0; d < 2; ++d) {
      g.in[d] = pick(1, 23);
      g.kernel[d] = pick(1, 5);
      g.strides[d] = pick(1, 3);
      g.dilations[d] = pick(1, 2);
      g.pad_begin[d] = pick(0, 3);
      g.pad_end[d] = pick(0, 3);
      const int64_t span = (g.kernel[d] - 1) * g.dilations[d] + 1;
      g.out[d] = (g.in[d] + g.pad_begin[d] + g.pad_end[d] - span) / g.strides[d] + 1;
    }
    if (g.out[0] <= 0 || g.out[1] <= 0) continue;
    ImageWindow w;
    w.rank = 2;
    w.in = g.in;
    w.out = g.out;
    w.kernel = g.kernel;
    w.strides = g.strides;
    w.dilations = g.dilations;
    w.pad_begin = g.pad_begin;
    w.pad_end = g.pad_end;
    const int64_t channels = pick(1, 3), positions = g.out[0] * g.out[1];
    std::vector<float> image(static_cast<size_t>(channels * g.in[0] * g.in[1]));
    for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i + 1);
    const int width = std::vector<int>{8, 16, 32, 64}[static_cast<size_t>(pick(0, 3))];
    const int64_t first = pick(0, static_cast<int>(positions - 1));
    const int64_t panels = pick(1, 3);  // several panels in one call: each as if made alone
    const int64_t count = std::min<int64_t>(panels * width, positions - first);
    const int64_t rows = channels * g.kernel[0] * g.kernel[1];
    std::vector<float> want(static_cast<size_t>(panels * rows * width), 0.0f), got(want.size(), -1.0f);
    for (int64_t q = 0; q < panels; ++q) {
      const int64_t valid = std::clamp<int64_t>(count - q * width, 0, width);
      float* panel = want.data() + q * rows * width;
      f32_im2col_ref(w, image.data(), channels, first + q * width, valid, 0.0f, panel, width);
      for (int64_t r = 0; r < rows; ++r)  // the reference leaves columns past `valid` alone
        std::fill(panel + r * width + valid, panel + (r + 1) * width, 0.0f);
    }
    f32_im2col_panels_2d(w, image.data(), channels, first, count, panels, width, got.data());
    ASSERT_EQ(got, want) << describe(g, first, count, width);
  }
}

}  // namespace
}  // namespace twinrt::kernels
