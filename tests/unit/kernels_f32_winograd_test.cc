// The Winograd output transform of every tier writes exactly its band's rows of a plane,
// partial vectors included: the next band may be another thread's and the floats after the
// plane another tensor's, so those keep what they held. The values themselves are checked
// against the direct convolution in nn_conv_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kernels/conv/f32_winograd.h"
#include "kernels/cpu/isa.h"

namespace twinrt::kernels {
namespace {

constexpr float kUntouched = 12345.0f;

// Runs the output transform of `isa` on band [band_first, band_end) of an out x out plane
// (with a residual where `residual`) and checks which floats changed.
void expect_only_band_written(Isa isa, int tile, int64_t out, int64_t band_first, int64_t band_end, bool residual) {
  WinogradGeometry g;
  g.tile = tile;
  g.in_h = g.in_w = g.out_h = g.out_w = out;
  g.pad_top = g.pad_left = 1;
  g.band_first = band_first;
  g.band_end = band_end;
  const WinogradTransforms& t = f32_winograd_transforms(isa);
  const int64_t blocks = g.blocks(), points = g.points();
  // M for one output channel: a row of `blocks` products per point, and whole vectors of room.
  std::mt19937 gen(static_cast<uint32_t>(out * 100 + band_first));
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> m(static_cast<size_t>(points * blocks + t.lanes));
  for (float& v : m) v = value(gen);
  std::vector<float> res(static_cast<size_t>(out * out));
  for (float& v : res) v = value(gen);
  // The plane, then a guard of floats after it (the next tensor in an arena).
  const int64_t guard = 64;
  std::vector<float> plane(static_cast<size_t>(out * out + guard), kUntouched);
  std::vector<float> scratch(static_cast<size_t>(winograd_scratch(g, t.lanes).floats));
  WinogradOutputStep step;
  const float bias = 0.25f;
  step.bias = &bias;
  step.residual = residual ? res.data() : nullptr;
  t.output(g, m.data(), blocks, 0, step, plane.data(), scratch.data());
  const int64_t first_row = tile * band_first, end_row = std::min(out, tile * band_end);
  for (int64_t i = 0; i < out * out + guard; ++i) {
    const int64_t row = i / out;
    const bool in_band = i < out * out && row >= first_row && row < end_row;
    if (in_band)
      EXPECT_NE(plane[static_cast<size_t>(i)], kUntouched) << "row " << row << " column " << i % out << " not written";
    else
      ASSERT_EQ(plane[static_cast<size_t>(i)], kUntouched)
          << isa_name(isa) << " F(" << tile << ") " << out << " x " << out << ", band rows [" << first_row << ", "
          << end_row << "): float " << i << " (row " << row << ") written";
  }
}

TEST(KernelsWinograd, OutputTransformWritesOnlyItsBandsRows) {
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(isa_description(isa));
    for (int tile : {2, 4})
      // Rows narrower than, as wide as and wider than a vector of each tier.
      for (int64_t out : {5, 13, 16, 17, 27, 33, 40}) {
        const int64_t block_rows = (out + tile - 1) / tile;
        for (bool residual : {false, true}) {
          expect_only_band_written(isa, tile, out, 0, block_rows, residual);  // the whole plane
          if (block_rows < 2) continue;
          const int64_t half = block_rows / 2;
          expect_only_band_written(isa, tile, out, 0, half, residual);
          expect_only_band_written(isa, tile, out, half, block_rows, residual);
          expect_only_band_written(isa, tile, out, half, half + 1, residual);  // one block row
        }
      }
  }
}

}  // namespace
}  // namespace twinrt::kernels
