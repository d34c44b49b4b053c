#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernels/ref/dwconv_ref.h"
#include "kernels/ref/gemm_ref.h"
#include "kernels/ref/im2col_ref.h"
#include "kernels/ref/qgemm_ref.h"

namespace twinrt::kernels {
namespace {

TEST(KernelsIm2col, PaddedStridedColumns) {
  // 1-D image [1 2 3 4], kernel 2, stride 2, pad 1 on both sides: windows (pad,1) (2,3) (4,pad).
  const int64_t in = 4, out = 3, k = 2, s = 2, d = 1, p = 1;
  ImageWindow w;
  w.rank = 1; w.in = &in; w.out = &out; w.kernel = &k; w.strides = &s; w.dilations = &d; w.pad_begin = &p; w.pad_end = &p;
  const float image[4] = {1, 2, 3, 4};
  float col[6];
  f32_im2col_ref(w, image, 1, 0, 3, -9.0f, col, 3);
  EXPECT_EQ(std::vector<float>(col, col + 6), (std::vector<float>{-9, 2, 4, 1, 3, -9}));
  // A column range starting mid-image.
  float part[4];
  f32_im2col_ref(w, image, 1, 1, 2, 0.0f, part, 2);
  EXPECT_EQ(std::vector<float>(part, part + 4), (std::vector<float>{2, 4, 3, 0}));
}

// Every element from its definition: tap (c, kh, kw) of output position p reads input
// (oh * stride - pad + kh * dilation, ...) or the padding value.
std::vector<uint8_t> im2col_by_definition(const ImageWindow& w, const std::vector<uint8_t>& image, int64_t channels,
                                          int64_t first, int64_t count, uint8_t pad) {
  const int64_t taps = channels * w.kernel[0] * w.kernel[1];
  std::vector<uint8_t> col(static_cast<size_t>(taps * count));
  for (int64_t row = 0; row < taps; ++row) {
    const int64_t c = row / (w.kernel[0] * w.kernel[1]), kh = row / w.kernel[1] % w.kernel[0], kw = row % w.kernel[1];
    for (int64_t j = 0; j < count; ++j) {
      const int64_t oh = (first + j) / w.out[1], ow = (first + j) % w.out[1];
      const int64_t ih = oh * w.strides[0] - w.pad_begin[0] + kh * w.dilations[0];
      const int64_t iw = ow * w.strides[1] - w.pad_begin[1] + kw * w.dilations[1];
      const bool inside = ih >= 0 && ih < w.in[0] && iw >= 0 && iw < w.in[1];
      col[static_cast<size_t>(row * count + j)] = inside ? image[static_cast<size_t>((c * w.in[0] + ih) * w.in[1] + iw)] : pad;
    }
  }
  return col;
}

// 2-D windows with stride 1 whose output rows are as wide as the input's take a flat-copy
// path; it and the general one (stride 2 with its own loop, rows long enough for its vector
// body) against the definition, over column ranges that start and end mid-row, paddings
// wider than the image and the kernel, and 1-wide images.
TEST(KernelsIm2col, TwoDimensionalMatchesTheDefinition) {
  struct Case {
    int64_t h, w, kh, kw, stride, dilation, pad_h, pad_w;
  };
  const Case cases[] = {{7, 7, 3, 3, 1, 1, 1, 1}, {5, 6, 3, 3, 1, 1, 1, 1}, {4, 5, 1, 3, 1, 1, 0, 1},
                        {3, 4, 5, 5, 1, 1, 2, 2},  {2, 3, 3, 7, 1, 1, 1, 3}, {4, 1, 3, 3, 1, 1, 1, 1},
                        {6, 5, 3, 3, 2, 1, 1, 1},  {6, 6, 3, 3, 1, 2, 2, 2}, {5, 5, 3, 3, 1, 1, 0, 0},
                        {3, 70, 3, 3, 2, 1, 1, 1}, {2, 67, 1, 1, 2, 1, 0, 0}, {3, 50, 3, 3, 3, 1, 1, 1}};
  std::mt19937 rng(3);
  for (const Case& k : cases) {
    const int64_t in[2] = {k.h, k.w}, kernel[2] = {k.kh, k.kw}, strides[2] = {k.stride, k.stride};
    const int64_t dil[2] = {k.dilation, k.dilation}, pad[2] = {k.pad_h, k.pad_w};
    int64_t out[2];
    for (int i = 0; i < 2; ++i) out[i] = (in[i] + 2 * pad[i] - (kernel[i] - 1) * dil[i] - 1) / strides[i] + 1;
    ImageWindow w;
    w.rank = 2; w.in = in; w.out = out; w.kernel = kernel; w.strides = strides; w.dilations = dil; w.pad_begin = pad; w.pad_end = pad;
    const int64_t channels = 2, positions = out[0] * out[1];
    std::vector<uint8_t> image(static_cast<size_t>(channels * k.h * k.w));
    for (uint8_t& v : image) v = static_cast<uint8_t>(rng() % 200 + 1);
    for (int64_t first : {int64_t{0}, int64_t{1}, positions / 2})
      for (int64_t count : {positions - first, std::min<int64_t>(3, positions - first)}) {
        const auto want = im2col_by_definition(w, image, channels, first, count, 0xee);
        std::vector<uint8_t> got(want.size() + 1, 0x55);  // one past the end stays untouched
        u8_im2col_ref(w, image.data(), channels, first, count, 0xee, got.data(), count);
        EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end() - 1), want)
            << k.h << "x" << k.w << " kernel " << k.kh << "x" << k.kw << " stride " << k.stride << " first " << first
            << " count " << count;
        EXPECT_EQ(got.back(), 0x55);
      }
  }
}

TEST(KernelsIm2col, Col2imIsTheAdjoint) {
  // <im2col(x), c> == <x, col2im(c)> for a 2-D window with stride, dilation and padding.
  const int64_t in[2] = {5, 4}, kernel[2] = {2, 3}, strides[2] = {2, 1}, dil[2] = {1, 2}, pad[2] = {1, 2};
  int64_t out[2];
  for (int i = 0; i < 2; ++i) out[i] = (in[i] + 2 * pad[i] - (kernel[i] - 1) * dil[i] - 1) / strides[i] + 1;
  ImageWindow w;
  w.rank = 2; w.in = in; w.out = out; w.kernel = kernel; w.strides = strides; w.dilations = dil; w.pad_begin = pad; w.pad_end = pad;
  const int64_t channels = 2, rows = channels * 6, cols = out[0] * out[1], pixels = channels * 20;
  std::vector<float> x(static_cast<size_t>(pixels)), c(static_cast<size_t>(rows * cols)), colx(c.size()), back(x.size(), 0);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 7) - 3);
  for (size_t i = 0; i < c.size(); ++i) c[i] = float(int(i % 5) - 2);
  f32_im2col_ref(w, x.data(), channels, 0, cols, 0.0f, colx.data(), cols);
  f32_col2im_ref(w, c.data(), cols, channels, back.data());
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < c.size(); ++i) lhs += double(colx[i]) * c[i];
  for (size_t i = 0; i < x.size(); ++i) rhs += double(x[i]) * back[i];
  EXPECT_EQ(lhs, rhs);
}

// col2im against the plain scatter it stands for, bit for bit (each image element gets its
// contributions in (row, position) order), over random 2-D windows.
TEST(KernelsIm2col, Col2imMatchesThePlainScatter) {
  std::mt19937 gen(5);
  auto pick = [&gen](int lo, int hi) { return static_cast<int64_t>(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (int trial = 0; trial < 300; ++trial) {
    int64_t in[2], out[2], kernel[2], strides[2], dil[2], pad[2];
    for (int d = 0; d < 2; ++d) {
      kernel[d] = pick(1, 4), strides[d] = pick(1, 3), dil[d] = pick(1, 2), pad[d] = pick(0, 2), in[d] = pick(1, 9);
      out[d] = std::max<int64_t>(0, (in[d] + 2 * pad[d] - (kernel[d] - 1) * dil[d] - 1) / strides[d] + 1);
    }
    const ImageWindow w{2, in, out, kernel, strides, dil, pad, pad};
    const int64_t channels = 2, taps = kernel[0] * kernel[1], positions = out[0] * out[1];
    std::vector<float> col(static_cast<size_t>(channels * taps * positions));
    for (float& v : col) v = value(gen);
    std::vector<float> got(static_cast<size_t>(channels * in[0] * in[1]), 0.0f), want(got);
    f32_col2im_ref(w, col.data(), positions, channels, got.data());
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t kh = 0; kh < kernel[0]; ++kh)
        for (int64_t kw = 0; kw < kernel[1]; ++kw)
          for (int64_t oh = 0; oh < out[0]; ++oh)
            for (int64_t ow = 0; ow < out[1]; ++ow) {
              const int64_t ih = oh * strides[0] - pad[0] + kh * dil[0], iw = ow * strides[1] - pad[1] + kw * dil[1];
              if (ih < 0 || ih >= in[0] || iw < 0 || iw >= in[1]) continue;
              want[static_cast<size_t>((c * in[0] + ih) * in[1] + iw)] +=
                  col[static_cast<size_t>(((c * kernel[0] + kh) * kernel[1] + kw) * positions + oh * out[1] + ow)];
            }
    ASSERT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0) << "trial " << trial;
  }
}

TEST(KernelsDwconv, ThreeByThreePaddedAndStrided) {
  // 3x3 image 1..9, 3x3 kernel of ones, pad 1: corner sums; stride 2 gives the four corners.
  const int64_t in[2] = {3, 3}, out[2] = {2, 2}, kernel[2] = {3, 3}, strides[2] = {2, 2}, dil[2] = {1, 1}, pad[2] = {1, 1};
  ImageWindow w;
  w.rank = 2; w.in = in; w.out = out; w.kernel = kernel; w.strides = strides; w.dilations = dil; w.pad_begin = pad; w.pad_end = pad;
  const float image[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float y[4], yd[4];
  f32_dwconv2d_ref(w, image, ones, 0.5f, y);
  f32_dwconv2d_f64acc_ref(w, image, ones, 0.5f, yd);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{12.5f, 16.5f, 24.5f, 28.5f}));
  EXPECT_EQ(std::vector<float>(yd, yd + 4), (std::vector<float>{12.5f, 16.5f, 24.5f, 28.5f}));
}

TEST(KernelsQgemm, ZeroPointsPerRowAndColumn) {
  // (A - za) * (B - zb) with za = {1, 2} per row and zb = {0, 1, 2} per column.
  const uint8_t a[4] = {2, 3, 4, 5};
  const int8_t b[6] = {1, 2, 3, -1, 0, 1};
  const int32_t za[2] = {1, 2}, zb[3] = {0, 1, 2};
  int32_t c[6];
  QGemmProblem<uint8_t, int8_t> p;
  p.m = 2; p.n = 3; p.k = 2; p.a = a; p.lda = 2; p.b = b; p.ldb = 3; p.c = c; p.ldc = 3;
  p.a_zero = za; p.a_zero_stride = 1; p.b_zero = zb; p.b_zero_stride = 1;
  u8s8_gemm_i32_ref(p);
  // A - za = [[1, 2], [2, 3]]; B - zb = [[1, 1, 1], [-1, -1, -1]]
  EXPECT_EQ(std::vector<int32_t>(c, c + 6), (std::vector<int32_t>{-1, -1, -1, -1, -1, -1}));
}

TEST(KernelsDwconv, SameBitsAsIm2colGemm) {
  // The direct kernel sums taps in the order im2col + GEMM does, so default-mode results agree bit for bit.
  const int64_t in[2] = {9, 11}, kernel[2] = {3, 5}, strides[2] = {1, 2}, dil[2] = {2, 1}, pad[2] = {2, 1};
  int64_t out[2];
  for (int i = 0; i < 2; ++i) out[i] = (in[i] + 2 * pad[i] - (kernel[i] - 1) * dil[i] - 1) / strides[i] + 1;
  ImageWindow w;
  w.rank = 2; w.in = in; w.out = out; w.kernel = kernel; w.strides = strides; w.dilations = dil; w.pad_begin = pad; w.pad_end = pad;
  std::vector<float> image(99), weights(15);
  for (size_t i = 0; i < image.size(); ++i) image[i] = 1.0f / float(i + 1);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = float(i % 7) * 0.3f - 0.9f;
  const int64_t positions = out[0] * out[1];
  std::vector<float> col(static_cast<size_t>(15 * positions)), via_gemm(static_cast<size_t>(positions)), direct(via_gemm.size());
  f32_im2col_ref(w, image.data(), 1, 0, positions, 0.0f, col.data(), positions);
  GemmProblem<float> p;
  p.m = 1; p.n = positions; p.k = 15; p.a = weights.data(); p.a_row_stride = 15; p.b = col.data(); p.ldb = positions;
  p.c = via_gemm.data(); p.ldc = positions;
  f32_gemm_ref(p);
  f32_dwconv2d_ref(w, image.data(), weights.data(), 0.0f, direct.data());
  EXPECT_EQ(direct, via_gemm);
}

TEST(KernelsQgemm, MatchesLoopsAroundTileSizes) {
  for (int64_t m : {1, 3, 4, 5, 9})
    for (int64_t n : {1, 7, 8, 9, 17})
      for (int64_t k : {0, 1, 5}) {
        std::vector<int8_t> a(static_cast<size_t>(m * k));
        std::vector<uint8_t> b(static_cast<size_t>(k * n));
        for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(int(i * 37 % 256) - 128);
        for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(i * 91 % 256);
        const int32_t za = -3, zb = 200;
        std::vector<int32_t> c(static_cast<size_t>(m * n), -1);
        QGemmProblem<int8_t, uint8_t> p;
        p.m = m; p.n = n; p.k = k; p.a = a.data(); p.lda = k; p.b = b.data(); p.ldb = n; p.c = c.data(); p.ldc = n;
        p.a_zero = &za; p.b_zero = &zb;
        s8u8_gemm_i32_ref(p);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            int32_t want = 0;
            for (int64_t q = 0; q < k; ++q) want += (a[i * k + q] - za) * (b[q * n + j] - zb);
            EXPECT_EQ(c[i * n + j], want) << m << "x" << n << "x" << k;
          }
      }
}

}  // namespace
}  // namespace twinrt::kernels
