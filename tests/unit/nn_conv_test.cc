#include "nn_op_harness.h"

#include "kernels/cpu/isa.h"
#include "kernels/math/half.h"

namespace twinrt::testing {
namespace {

std::vector<float> iota_values(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

// The ONNX documentation's Conv examples: 5x5 ramp input, 3x3 kernel of ones.
TEST(NnConv, OnnxDocExamples) {
  for (Mode mode : kBothModes) {
    auto padded = OpTest("Conv", 11).attr("kernel_shape", std::vector<int64_t>{3, 3}).attr("pads", std::vector<int64_t>{1, 1, 1, 1})
                      .input<float>({1, 1, 5, 5}, iota_values(25)).input<float>({1, 1, 3, 3}, std::vector<float>(9, 1), true).run(mode);
    ASSERT_TRUE(padded.is_ok()) << padded.status().message();
    expect_close(padded->at(0), {1, 1, 5, 5}, {12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108, 117, 81,
                                               93, 144, 153, 162, 111, 72, 111, 117, 123, 84});
    auto strided = OpTest("Conv", 11).attr("strides", std::vector<int64_t>{2, 2}).attr("pads", std::vector<int64_t>{1, 1, 1, 1})
                       .input<float>({1, 1, 5, 5}, iota_values(25)).input<float>({1, 1, 3, 3}, std::vector<float>(9, 1)).run(mode);
    ASSERT_TRUE(strided.is_ok()) << strided.status().message();
    expect_close(strided->at(0), {1, 1, 3, 3}, {12, 27, 24, 63, 108, 81, 72, 117, 84});
    auto same = OpTest("Conv", 11).attr("auto_pad", "SAME_LOWER").attr("strides", std::vector<int64_t>{2, 2})
                    .input<float>({1, 1, 5, 5}, iota_values(25)).input<float>({1, 1, 3, 3}, std::vector<float>(9, 1)).run(mode);
    ASSERT_TRUE(same.is_ok()) << same.status().message();
    expect_close(same->at(0), {1, 1, 3, 3}, {12, 27, 24, 63, 108, 81, 72, 117, 84});
  }
}

TEST(NnConv, GroupsDilationBias1D) {
  // Two groups of one channel each, kernel [1, 1] dilated by 2, bias [10, 20].
  auto r = OpTest("Conv", 11).attr("group", 2).attr("dilations", std::vector<int64_t>{2})
               .input<float>({1, 2, 4}, {1, 2, 3, 4, 10, 20, 30, 40}).input<float>({2, 1, 2}, {1, 1, 1, -1})
               .input<float>({2}, {10, 20}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 2, 2}, {14, 16, -0.0f, 0});
}

// Direct convolution, written independently of the im2col path, for random geometries.
std::vector<double> direct_conv(const std::vector<int64_t>& xs, const std::vector<float>& x, const std::vector<int64_t>& ws,
                                const std::vector<float>& w, int64_t group, const std::vector<int64_t>& strides,
                                const std::vector<int64_t>& dil, const std::vector<int64_t>& pads,
                                std::vector<int64_t>& ys) {
  const size_t r = xs.size() - 2;
  ys = {xs[0], ws[0]};
  for (size_t d = 0; d < r; ++d)
    ys.push_back((xs[d + 2] + pads[d] + pads[d + r] - (ws[d + 2] - 1) * dil[d] - 1) / strides[d] + 1);
  int64_t out_sp = 1, in_sp = 1, k_sp = 1;
  for (size_t d = 0; d < r; ++d) { out_sp *= ys[d + 2]; in_sp *= xs[d + 2]; k_sp *= ws[d + 2]; }
  const int64_t cg = xs[1] / group, mg = ws[0] / group;
  std::vector<double> y(static_cast<size_t>(ys[0] * ys[1] * out_sp), 0.0);
  for (int64_t n = 0; n < ys[0]; ++n)
    for (int64_t m = 0; m < ys[1]; ++m)
      for (int64_t o = 0; o < out_sp; ++o)
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t q = 0; q < k_sp; ++q) {
            int64_t orest = o, qrest = q, xoff = 0;
            bool inside = true;
            std::vector<int64_t> oi(r), ki(r);
            for (size_t d = r; d-- > 0;) { oi[d] = orest % ys[d + 2]; orest /= ys[d + 2]; ki[d] = qrest % ws[d + 2]; qrest /= ws[d + 2]; }
            for (size_t d = 0; d < r; ++d) {
              int64_t i = oi[d] * strides[d] - pads[d] + ki[d] * dil[d];
              inside = inside && i >= 0 && i < xs[d + 2];
              xoff = xoff * xs[d + 2] + i;
            }
            if (!inside) continue;
            const int64_t ic = (m / mg) * cg + c;
            y[static_cast<size_t>((n * ys[1] + m) * out_sp + o)] +=
                double(x[static_cast<size_t>((n * xs[1] + ic) * in_sp + xoff)]) * w[static_cast<size_t>((m * cg + c) * k_sp + q)];
          }
  return y;
}

TEST(NnConv, MatchesDirectConvolutionOnAssortedGeometries) {
  struct Case { std::vector<int64_t> xs, ws; int64_t group; std::vector<int64_t> strides, dil, pads; };
  const Case cases[] = {
      {{2, 4, 9}, {6, 2, 3}, 2, {2}, {1}, {1, 2}},
      {{1, 3, 7, 6}, {5, 3, 3, 2}, 1, {1, 2}, {2, 1}, {0, 1, 2, 0}},
      {{1, 6, 5, 5}, {6, 1, 3, 3}, 6, {1, 1}, {1, 1}, {1, 1, 1, 1}},   // depthwise
      {{1, 8, 4, 4}, {12, 8, 1, 1}, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}},  // pointwise
      {{1, 2, 4, 5, 3}, {3, 2, 2, 3, 2}, 1, {1, 2, 1}, {1, 1, 2}, {1, 0, 1, 0, 1, 0}},
      {{1, 70, 9, 9}, {33, 70, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}},  // several tiles
      {{1, 128, 24, 23}, {40, 128, 1, 1}, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}},  // B large enough to read in place
  };
  for (const Case& c : cases) {
    int64_t xn = 1, wn = 1;
    for (int64_t d : c.xs) xn *= d;
    for (int64_t d : c.ws) wn *= d;
    std::vector<float> x(static_cast<size_t>(xn)), w(static_cast<size_t>(wn));
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 37 % 19) - 9) / 8;
    for (size_t i = 0; i < w.size(); ++i) w[i] = float(int(i * 11 % 13) - 6) / 4;
    std::vector<int64_t> ys;
    const std::vector<double> want = direct_conv(c.xs, x, c.ws, w, c.group, c.strides, c.dil, c.pads, ys);
    for (Mode mode : kBothModes)
      for (int threads : {1, 2}) {
        auto r = OpTest("Conv", 11).attr("group", c.group).attr("strides", c.strides).attr("dilations", c.dil)
                     .attr("pads", c.pads).input<float>(c.xs, x).input<float>(c.ws, w, threads == 2).run(mode, threads);
        ASSERT_TRUE(r.is_ok()) << r.status().message();
        std::vector<float> wantf(want.begin(), want.end());
        expect_close(r->at(0), ys, wantf, 1e-5);
      }
  }
}

TEST(NnConv, ThreadCountDoesNotChangeBits) {
  // Big enough to be split into several tiles per thread; depthwise and grouped too; 1x1
  // with constant weights and more output channels than positions, without padding and with
  // (im2col, made by each thread for itself): the threads split the weights' rows
  // (f32_gemm_driver.cc); so do they for a shallow 1x1 with many output channels; a 1x1
  // whose input is large enough to be read in place, its columns split instead.
  struct Case { std::vector<int64_t> xs, ws; int64_t group; int64_t pad = 1; bool constant_w = false; };
  const Case cases[] = {{{2, 16, 23, 19}, {40, 16, 3, 3}, 1}, {{1, 24, 17, 17}, {24, 1, 3, 3}, 24}, {{1, 8, 30, 30}, {8, 4, 1, 1}, 2},
                        {{1, 256, 7, 7}, {96, 256, 1, 1}, 1, 0, true}, {{1, 256, 5, 5}, {96, 256, 1, 1}, 1, 1, true},
                        {{1, 64, 20, 21}, {160, 64, 1, 1}, 1, 0, true}, {{1, 128, 24, 23}, {100, 128, 1, 1}, 1, 0, true}};
  for (const Case& c : cases) {
    int64_t xn = 1, wn = 1;
    for (int64_t d : c.xs) xn *= d;
    for (int64_t d : c.ws) wn *= d;
    std::vector<float> x(static_cast<size_t>(xn)), w(static_cast<size_t>(wn));
    for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0f / float(i % 97 + 1);
    for (size_t i = 0; i < w.size(); ++i) w[i] = float(i % 13) * 0.173f - 1.0f;
    for (Mode mode : kBothModes) {
      std::vector<std::vector<float>> results;
      for (int threads : {1, 2, 3}) {
        auto r = OpTest("Conv", 11).attr("group", c.group).attr("pads", std::vector<int64_t>(4, c.pad))
                     .input<float>(c.xs, x).input<float>(c.ws, w, c.constant_w).run(mode, threads);
        ASSERT_TRUE(r.is_ok()) << r.status().message();
        results.push_back(values_of<float>(r->at(0)));
      }
      EXPECT_EQ(results[0], results[1]);
      EXPECT_EQ(results[0], results[2]);
    }
  }
}

struct WindowCase {
  std::vector<int64_t> xs, ws;
  int64_t group;
  std::vector<int64_t> strides, dil, pads;
};

// Constant weights and a bias: close to the direct sum in default and reference mode, the
// same bits at any thread count, and in exact mode the bits of the contract
// (docs/numerics.md): each output the float sum of its taps' products in the weights'
// order, from +0, separate multiply and add, then the bias.
void expect_sum_contract(const WindowCase& c) {
  int64_t xn = 1, wn = 1;
  for (int64_t d : c.xs) xn *= d;
  for (int64_t d : c.ws) wn *= d;
  std::vector<float> x(static_cast<size_t>(xn)), w(static_cast<size_t>(wn)), b(static_cast<size_t>(c.ws[0]));
  // Positive terms: no cancellation to an output near 0, whose rounding the relative
  // tolerance would not cover.
  for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0f / float(i % 97 + 1);
  for (size_t i = 0; i < w.size(); ++i) w[i] = float(i % 13) * 0.173f + 0.01f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.25f * float(i);
  std::vector<int64_t> ys;
  std::vector<double> want = direct_conv(c.xs, x, c.ws, w, c.group, c.strides, c.dil, c.pads, ys);
  const int64_t out_sp = ys[2] * ys[3];
  for (size_t i = 0; i < want.size(); ++i) want[i] += b[static_cast<size_t>(int64_t(i) / out_sp % ys[1])];
  std::vector<float> contract(want.size());
  const int64_t cg = c.xs[1] / c.group, mg = c.ws[0] / c.group, kh_n = c.ws[2], kw_n = c.ws[3];
  for (int64_t n = 0; n < ys[0]; ++n)
    for (int64_t m = 0; m < ys[1]; ++m)
      for (int64_t oh = 0; oh < ys[2]; ++oh)
        for (int64_t ow = 0; ow < ys[3]; ++ow) {
          float acc = 0.0f;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t kh = 0; kh < kh_n; ++kh)
              for (int64_t kw = 0; kw < kw_n; ++kw) {
                const int64_t ih = oh * c.strides[0] - c.pads[0] + kh * c.dil[0];
                const int64_t iw = ow * c.strides[1] - c.pads[1] + kw * c.dil[1];
                if (ih < 0 || ih >= c.xs[2] || iw < 0 || iw >= c.xs[3]) continue;
                const int64_t ic = m / mg * cg + ci;
                const float product = x[static_cast<size_t>(((n * c.xs[1] + ic) * c.xs[2] + ih) * c.xs[3] + iw)] *
                                      w[static_cast<size_t>(((m * cg + ci) * kh_n + kh) * kw_n + kw)];
                acc = acc + product;
              }
          contract[static_cast<size_t>(((n * ys[1] + m) * ys[2] + oh) * ys[3] + ow)] = acc + b[static_cast<size_t>(m)];
        }
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    std::vector<std::vector<float>> results;
    for (int threads : {1, 2, 3}) {
      auto r = OpTest("Conv", 11).attr("group", c.group).attr("strides", c.strides).attr("dilations", c.dil)
                   .attr("pads", c.pads).input<float>(c.xs, x).input<float>(c.ws, w, true).input<float>({c.ws[0]}, b, true)
                   .run(mode, threads);
      ASSERT_TRUE(r.is_ok()) << r.status().message();
      expect_close(r->at(0), ys, std::vector<float>(want.begin(), want.end()), 1e-5);
      results.push_back(values_of<float>(r->at(0)));
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
    if (mode == Mode::kExact) {
      EXPECT_EQ(results[0], contract);
    }
  }
}

// Rows of outputs wider than one tile panel read the input's phase planes in place
// (ops/nn/conv_rows.h): strides 1 to 3 with their padding, dilation, groups, batches.
TEST(NnConv, RowsReadFromPhasePlanes) {
  const WindowCase cases[] = {
      {{1, 3, 20, 131}, {10, 3, 7, 7}, 1, {2, 2}, {1, 1}, {3, 3, 3, 3}},  // a stem
      {{2, 4, 9, 140}, {6, 2, 3, 3}, 2, {1, 1}, {2, 2}, {0, 1, 2, 0}},
      {{1, 2, 10, 200}, {13, 2, 3, 2}, 1, {3, 3}, {1, 1}, {1, 0, 0, 1}},
      {{1, 5, 6, 150}, {4, 5, 1, 3}, 1, {1, 2}, {1, 1}, {0, 1, 0, 1}},
      {{1, 16, 7, 55}, {24, 16, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}},  // a partly empty second panel
  };
  for (const WindowCase& c : cases) expect_sum_contract(c);
}

// Rows of outputs at most one panel wide run along the phase planes' grid (rows of outputs
// and the columns whose windows overhang them, one after the other; ops/nn/conv_rows.h),
// in chunks of whole tiles that start mid-row at 2 and 3 threads.
TEST(NnConv, NarrowRowsRunAlongThePhasePlanesGrid) {
  const WindowCase cases[] = {
      {{2, 16, 13, 13}, {48, 16, 3, 3}, 1, {2, 2}, {1, 1}, {1, 1, 1, 1}},
      {{1, 8, 5, 5}, {64, 4, 3, 3}, 2, {1, 1}, {1, 1}, {0, 0, 0, 0}},
      {{1, 40, 7, 7}, {32, 40, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}},  // 9 grid columns, 7 kept
      {{1, 6, 30, 17}, {13, 6, 3, 2}, 1, {1, 1}, {2, 1}, {2, 0, 1, 1}},  // dilated, 30 rows
      {{2, 3, 23, 9}, {5, 3, 5, 5}, 1, {1, 1}, {1, 1}, {2, 2, 2, 2}},
  };
  for (const WindowCase& c : cases) expect_sum_contract(c);
}

// The others go through im2col and the GEMM driver (or read a 1x1's input in place), also
// split along the weights' rows or the positions at 2 and 3 threads.
TEST(NnConv, Im2colProductsKeepTheSumContract) {
  const WindowCase cases[] = {
      {{1, 40, 3, 3}, {64, 40, 1, 1}, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}},
      {{1, 256, 30, 30}, {8, 256, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}},  // an input too large to read per panel
      {{1, 24, 14, 14}, {64, 24, 1, 1}, 1, {2, 2}, {1, 1}, {0, 0, 0, 0}},
      // More output channels than positions, and those at least 128: the input read in place.
      {{1, 48, 14, 14}, {200, 48, 1, 1}, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}},
  };
  for (const WindowCase& c : cases) expect_sum_contract(c);
}

// Default mode runs 3x3 stride-1 convolutions with constant weights, >= 32 input and >= 16
// output channels by
// Winograd F(2x2, 3x3) or F(4x4, 3x3) (ops/nn/conv_winograd.h): not the direct sum's bits,
// but within a few roundings of it (F(2x2) under 1e-5 of the largest output here, F(4x4)
// 2.5e-5; every case passes with either tile forced, blocks as rows or columns). Odd output sizes (partial blocks), asymmetric and wide padding, batches,
// bias, images tall enough for several bands of block rows (whole bands per thread), images
// of one band with at least as many output channels as input ones (each thread a share of
// the output channels' panels, 3 threads leaving one without a panel where there are 2),
// images with so few blocks that they are the products' rows; the same bits at any thread
// count.
TEST(NnConv, WinogradMatchesDirectConvolution) {
  struct Case { std::vector<int64_t> xs, ws, pads; };
  const Case cases[] = {
      {{2, 32, 23, 19}, {24, 32, 3, 3}, {1, 1, 1, 1}},
      {{1, 36, 96, 40}, {17, 36, 3, 3}, {0, 1, 2, 1}},
      {{1, 32, 6, 5}, {16, 32, 3, 3}, {2, 2, 2, 2}},
      {{2, 32, 80, 64}, {16, 32, 3, 3}, {1, 1, 1, 1}},  // F(4x4), 2 x 2 bands: whole bands per thread
      {{2, 40, 7, 7}, {40, 40, 3, 3}, {1, 1, 1, 1}},  // 16 blocks: the blocks as the products' rows
      {{1, 33, 5, 6}, {33, 33, 3, 3}, {0, 1, 1, 0}},  // 6 blocks, 33 channels: partial panels both ways
      {{1, 32, 13, 13}, {76, 32, 3, 3}, {1, 1, 1, 1}},  // one band, shares of 7 panels of 12 (the last partial)
  };
  for (const Case& c : cases) {
    int64_t xn = 1, wn = 1;
    for (int64_t d : c.xs) xn *= d;
    for (int64_t d : c.ws) wn *= d;
    std::vector<float> x(static_cast<size_t>(xn)), w(static_cast<size_t>(wn)), b(static_cast<size_t>(c.ws[0]));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * float(i)) + 0.1f;
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5f * std::cos(1.3f * float(i));
    for (size_t i = 0; i < b.size(); ++i) b[i] = 0.01f * float(i);
    std::vector<int64_t> ys;
    std::vector<double> want = direct_conv(c.xs, x, c.ws, w, 1, {1, 1}, {1, 1}, c.pads, ys);
    const int64_t plane = ys[2] * ys[3];
    double scale = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      want[i] += b[static_cast<size_t>(int64_t(i) / plane % ys[1])];
      scale = std::max(scale, std::fabs(want[i]));
    }
    for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
      if (!kernels::isa_supported(isa)) continue;
      std::vector<std::vector<float>> results;
      // Several threads first: an output buffer left by an earlier run could hide rows never written.
      for (int threads : {2, 3, 5, 1}) {
        auto r = OpTest("Conv", 11).attr("pads", c.pads).input<float>(c.xs, x).input<float>(c.ws, w, true)
                     .input<float>({c.ws[0]}, b, true).isa(isa).run(Mode::kDefault, threads);
        ASSERT_TRUE(r.is_ok()) << r.status().message();
        ASSERT_EQ(r->at(0).shape(), ys);
        results.push_back(values_of<float>(r->at(0)));
        double worst = 0;
        for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(results.back()[i] - want[i]));
        EXPECT_LE(worst, 4e-5 * scale) << "X " << shape_to_string(c.xs) << " " << isa_name(isa) << " threads " << threads;
      }
      for (size_t i = 0; i + 1 < results.size(); ++i) EXPECT_EQ(results[i], results.back()) << "run " << i;
    }
  }
}

TEST(NnConv, DoubleAndHalf) {
  auto d = OpTest("Conv", 11).input<double>({1, 1, 3}, {1, 2, 3}).input<double>({1, 1, 2}, {1, 10}).run(Mode::kDefault);
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  EXPECT_EQ(values_of<double>(d->at(0)), (std::vector<double>{21, 32}));
  std::vector<Float16> x = {math::to_float16(1), math::to_float16(2), math::to_float16(3)};
  std::vector<Float16> w = {math::to_float16(1), math::to_float16(10)};
  auto h = OpTest("Conv", 11).input<Float16>({1, 1, 3}, x).input<Float16>({1, 1, 2}, w, true).run(Mode::kReference);
  ASSERT_TRUE(h.is_ok()) << h.status().message();
  auto y = values_of<Float16>(h->at(0));
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(math::to_float(y[1]), 32.0f);
}

TEST(NnConv, InvalidShapesAreErrors) {
  auto channels = OpTest("Conv", 11).input<float>({1, 3, 4}, std::vector<float>(12, 1)).input<float>({1, 2, 2}, {1, 1, 1, 1}).run(Mode::kDefault);
  EXPECT_FALSE(channels.is_ok());
  auto small = OpTest("Conv", 11).input<float>({1, 1, 2}, {1, 1}).input<float>({1, 1, 3}, {1, 1, 1}).run(Mode::kDefault);
  ASSERT_FALSE(small.is_ok());
  EXPECT_NE(small.status().message().find("smaller than the dilated kernel"), std::string::npos) << small.status().message();
  auto bias = OpTest("Conv", 11).input<float>({1, 1, 2}, {1, 1}).input<float>({1, 1, 1}, {1}).input<float>({2}, {1, 1}).run(Mode::kDefault);
  EXPECT_FALSE(bias.is_ok());
  auto kshape = OpTest("Conv", 11).attr("kernel_shape", std::vector<int64_t>{2}).input<float>({1, 1, 3}, {1, 1, 1})
                    .input<float>({1, 1, 1}, {1}).run(Mode::kDefault);
  EXPECT_FALSE(kshape.is_ok());
}

TEST(NnConvTranspose, StridesPadsAndOutputShape) {
  auto run = [](OpTest t) {
    auto r = t.input<float>({1, 1, 3}, {1, 2, 3}).input<float>({1, 1, 2}, {1, 1}).run(Mode::kReference);
    EXPECT_TRUE(r.is_ok()) << r.status().message();
    return r.is_ok() ? r->at(0) : Tensor{};
  };
  expect_close(run(OpTest("ConvTranspose", 11).attr("strides", std::vector<int64_t>{2})), {1, 1, 6}, {1, 1, 2, 2, 3, 3});
  expect_close(run(OpTest("ConvTranspose", 11)), {1, 1, 4}, {1, 3, 5, 3});
  expect_close(run(OpTest("ConvTranspose", 11).attr("pads", std::vector<int64_t>{1, 1})), {1, 1, 2}, {3, 5});
  // output_shape 5 of the natural 6: one unit of padding, taken at the start.
  expect_close(run(OpTest("ConvTranspose", 11).attr("strides", std::vector<int64_t>{2}).attr("output_shape", std::vector<int64_t>{5})),
               {1, 1, 5}, {1, 2, 2, 3, 3});
  expect_close(run(OpTest("ConvTranspose", 11).attr("strides", std::vector<int64_t>{2}).attr("output_padding", std::vector<int64_t>{1})),
               {1, 1, 7}, {1, 1, 2, 2, 3, 3, 0});
}

// An input with an empty spatial dim gives an empty output (col2im divided by the zero
// output size and died of SIGFPE).
TEST(NnConvTranspose, EmptySpatialInput) {
  for (Mode mode : kBothModes) {
    auto r = OpTest("ConvTranspose", 17).attr("strides", std::vector<int64_t>{2, 2})
                 .input<float>({1, 1, 0, 3}, {}).input<float>({1, 1, 2, 2}, {1, 1, 1, 1}, true).run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    EXPECT_EQ(r->at(0).shape(), (std::vector<int64_t>{1, 1, 0, 6}));
  }
}

TEST(NnConvTranspose, HalfWithConstantWeights) {
  std::vector<Float16> x = {math::to_float16(1), math::to_float16(2)}, w = {math::to_float16(1), math::to_float16(3)};
  for (Mode mode : kBothModes) {
    auto r = OpTest("ConvTranspose", 11).input<Float16>({1, 1, 2}, x).input<Float16>({1, 1, 2}, w, true).run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    auto y = values_of<Float16>(r->at(0));
    ASSERT_EQ(y.size(), 3u);
    EXPECT_EQ(math::to_float(y[0]), 1.0f);
    EXPECT_EQ(math::to_float(y[1]), 5.0f);
    EXPECT_EQ(math::to_float(y[2]), 6.0f);
  }
}

TEST(NnConvTranspose, GroupsAndBias) {
  // Two groups, one channel each; W [2, 1, 1] scales by 2 and 3; bias [1, -1].
  auto r = OpTest("ConvTranspose", 11).attr("group", 2).input<float>({1, 2, 2}, {1, 2, 3, 4})
               .input<float>({2, 1, 1}, {2, 3}).input<float>({2}, {1, -1}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 2, 2}, {3, 5, 8, 11});
  auto bad = OpTest("ConvTranspose", 11).input<float>({1, 2, 2}, {1, 2, 3, 4}).input<float>({3, 1, 1}, {2, 3, 4}).run(Mode::kDefault);
  EXPECT_FALSE(bad.is_ok());
}

}  // namespace
}  // namespace twinrt::testing
