// The 8-bit GEMM tiles of every ISA tier this CPU runs, through packing and the zero-point
// fold, against kernels/ref/qgemm_ref: bit-identical int32 results for every operand type
// pair, both orientations (unsigned rows or unsigned columns), per-tensor and per-row/column
// zero points, at sizes below, at and above the tiles. Requantization against quant::quantize.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/gemm/i8_gemm.h"
#include "kernels/ref/qgemm_ref.h"
#include "ops/quant/quant_common.h"

namespace twinrt::kernels {
namespace {

std::vector<uint8_t> random_bytes(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(0, 255);
  std::vector<uint8_t> v(n);
  for (uint8_t& x : v) x = static_cast<uint8_t>(dist(rng));
  return v;
}

std::vector<int32_t> random_zeros(size_t n, bool is_unsigned, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(is_unsigned ? 0 : -128, is_unsigned ? 255 : 127);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = dist(rng);
  return v;
}

template <class TA, class TB>
std::vector<int32_t> reference(int64_t m, int64_t n, int64_t k, const std::vector<uint8_t>& a,
                               const std::vector<uint8_t>& b, const std::vector<int32_t>& za, int64_t za_stride,
                               const std::vector<int32_t>& zb, int64_t zb_stride) {
  std::vector<int32_t> c(static_cast<size_t>(m * n));
  QGemmProblem<TA, TB> p;
  p.m = m, p.n = n, p.k = k;
  p.a = reinterpret_cast<const TA*>(a.data()), p.lda = k;
  p.b = reinterpret_cast<const TB*>(b.data()), p.ldb = n;
  p.c = c.data(), p.ldc = n;
  p.a_zero = za.data(), p.a_zero_stride = za_stride;
  p.b_zero = zb.data(), p.b_zero_stride = zb_stride;
  qgemm(p);
  return c;
}

struct TypePair {
  bool a_unsigned, b_unsigned;
};

std::vector<int32_t> run_reference(const TypePair& t, int64_t m, int64_t n, int64_t k, const std::vector<uint8_t>& a,
                                   const std::vector<uint8_t>& b, const std::vector<int32_t>& za, int64_t zas,
                                   const std::vector<int32_t>& zb, int64_t zbs) {
  if (t.a_unsigned && t.b_unsigned) return reference<uint8_t, uint8_t>(m, n, k, a, b, za, zas, zb, zbs);
  if (t.a_unsigned) return reference<uint8_t, int8_t>(m, n, k, a, b, za, zas, zb, zbs);
  if (t.b_unsigned) return reference<int8_t, uint8_t>(m, n, k, a, b, za, zas, zb, zbs);
  return reference<int8_t, int8_t>(m, n, k, a, b, za, zas, zb, zbs);
}

// A (m x k) as the row operand, B (k x n) as the column operand; `rows_unsigned` picks
// which domain the rows are packed into.
std::vector<int32_t> run_packed(const I8GemmKernel& kernel, const TypePair& t, bool rows_unsigned, int64_t m, int64_t n,
                                int64_t k, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                                const std::vector<int32_t>& za, int64_t zas, const std::vector<int32_t>& zb,
                                int64_t zbs, bool widen_rows = false) {
  I8Panels ra, sb;
  i8_pack(a.data(), t.a_unsigned, k, 1, 0, m, k, kernel.mr, rows_unsigned, ra);
  if (widen_rows) i8_widen_rows(ra);
  i8_pack(b.data(), t.b_unsigned, 1, n, 0, n, k, kernel.nr, !rows_unsigned, sb);
  std::vector<int32_t> za_packed(za.size()), zb_packed(zb.size());
  for (size_t i = 0; i < za.size(); ++i) za_packed[i] = i8_packed_zero(za[i], t.a_unsigned, rows_unsigned);
  for (size_t i = 0; i < zb.size(); ++i) zb_packed[i] = i8_packed_zero(zb[i], t.b_unsigned, !rows_unsigned);
  std::vector<int32_t> c(static_cast<size_t>(m * n), 0x5a5a5a5a);
  const I8Operand r{&ra, 0, (m + kernel.mr - 1) / kernel.mr, za_packed.data(), zas};
  const I8Operand s{&sb, 0, (n + kernel.nr - 1) / kernel.nr, zb_packed.data(), zbs};
  i8_gemm_packed(kernel, r, s, c.data(), n);
  return c;
}

TEST(I8GemmTiles, MatchReferenceOnEveryTier) {
  std::mt19937 rng(7);
  const TypePair pairs[] = {{true, false}, {true, true}, {false, false}, {false, true}};
  for (Isa isa : supported_isas()) {
    const I8GemmKernel& kernel = i8_gemm_kernel(isa);
    for (int64_t m : {1, 5, 6, 7, 13})
      for (int64_t n : {1, 7, 8, 9, 31, 32, 33, 47, 64, 70, 129})
        for (int64_t k : {1, 3, 4, 5, 17, 67})
          for (const TypePair& t : pairs)
            for (int per_vector = 0; per_vector < 2; ++per_vector) {
              const auto a = random_bytes(static_cast<size_t>(m * k), rng);
              const auto b = random_bytes(static_cast<size_t>(k * n), rng);
              const auto za = random_zeros(per_vector ? static_cast<size_t>(m) : 1, t.a_unsigned, rng);
              const auto zb = random_zeros(per_vector ? static_cast<size_t>(n) : 1, t.b_unsigned, rng);
              const auto want = run_reference(t, m, n, k, a, b, za, per_vector, zb, per_vector);
              for (bool rows_unsigned : {true, false})
                ASSERT_EQ(run_packed(kernel, t, rows_unsigned, m, n, k, a, b, za, per_vector, zb, per_vector), want)
                    << kernel.name << " m=" << m << " n=" << n << " k=" << k << " a_unsigned=" << t.a_unsigned
                    << " b_unsigned=" << t.b_unsigned << " rows_unsigned=" << rows_unsigned
                    << " per_vector=" << per_vector;
              if (kernel.rows_u16) {  // unsigned rows widened once (MatMulInteger's activations)
                ASSERT_EQ(run_packed(kernel, t, true, m, n, k, a, b, za, per_vector, zb, per_vector, true), want)
                    << kernel.name << " rows_u16 m=" << m << " n=" << n << " k=" << k << " a_unsigned=" << t.a_unsigned
                    << " b_unsigned=" << t.b_unsigned << " per_vector=" << per_vector;
              }
            }
  }
}

// Large k with extreme values: sums of products that wrap past int32 must wrap alike.
TEST(I8GemmTiles, WrapLikeTheReference) {
  const int64_t m = 7, n = 33, k = 140000;
  const std::vector<uint8_t> a(static_cast<size_t>(m * k), 255), b(static_cast<size_t>(k * n), 0x80);
  const std::vector<int32_t> za = {0}, zb = {127};
  const TypePair t{true, false};
  const auto want = run_reference(t, m, n, k, a, b, za, 0, zb, 0);
  ASSERT_NE(int64_t{want[0]}, int64_t{255} * -255 * k);  // the true sum does not fit: it wrapped
  for (Isa isa : supported_isas()) {
    for (bool rows_unsigned : {true, false})
      EXPECT_EQ(run_packed(i8_gemm_kernel(isa), t, rows_unsigned, m, n, k, a, b, za, 0, zb, 0), want)
          << i8_gemm_kernel(isa).name;
    if (i8_gemm_kernel(isa).rows_u16) {
      EXPECT_EQ(run_packed(i8_gemm_kernel(isa), t, true, m, n, k, a, b, za, 0, zb, 0, true), want)
          << i8_gemm_kernel(isa).name << " rows_u16";
    }
  }
}

// Bytes whose value in the signed packed domain lies in [-64, 64], the condition of the
// *_7bit tiles: int8 in [-64, 64], or uint8 in [64, 192] (packing subtracts 128). The ends
// of the range come first, so every size has them.
std::vector<uint8_t> random_7bit(size_t n, bool is_unsigned, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(-64, 64);
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int x = i == 0 ? -64 : i == 1 ? 64 : dist(rng);
    v[i] = static_cast<uint8_t>(is_unsigned ? x + 128 : x);
  }
  return v;
}

// The 7-bit tiles (vpmaddubsw on AVX2) against the reference; the unsigned operand takes
// its extremes too (255 * 64 * 2 is the largest int16 pair sum).
TEST(I8GemmTiles, SevenBitSignedPanelsMatchReferenceOnEveryTier) {
  std::mt19937 rng(11);
  for (Isa isa : supported_isas()) {
    const I8GemmKernel& kernel = i8_gemm_kernel(isa);
    for (int64_t m : {1, 5, 6, 7, 13})
      for (int64_t n : {1, 7, 8, 9, 33})
        for (int64_t k : {1, 3, 4, 5, 17, 67})
          for (bool rows_unsigned : {true, false})
            for (bool signed_src_unsigned : {false, true})
              for (int per_vector = 0; per_vector < 2; ++per_vector) {
                // The operand packed signed is B when the rows are unsigned, else A.
                const TypePair t = rows_unsigned ? TypePair{true, signed_src_unsigned} : TypePair{signed_src_unsigned, true};
                auto a = rows_unsigned ? random_bytes(static_cast<size_t>(m * k), rng)
                                       : random_7bit(static_cast<size_t>(m * k), signed_src_unsigned, rng);
                auto b = rows_unsigned ? random_7bit(static_cast<size_t>(k * n), signed_src_unsigned, rng)
                                       : random_bytes(static_cast<size_t>(k * n), rng);
                (rows_unsigned ? a : b)[0] = 255;
                const auto za = random_zeros(per_vector ? static_cast<size_t>(m) : 1, t.a_unsigned, rng);
                const auto zb = random_zeros(per_vector ? static_cast<size_t>(n) : 1, t.b_unsigned, rng);
                const auto want = run_reference(t, m, n, k, a, b, za, per_vector, zb, per_vector);
                ASSERT_EQ(run_packed(kernel, t, rows_unsigned, m, n, k, a, b, za, per_vector, zb, per_vector), want)
                    << kernel.name << " m=" << m << " n=" << n << " k=" << k << " rows_unsigned=" << rows_unsigned
                    << " signed_src_unsigned=" << signed_src_unsigned << " per_vector=" << per_vector;
              }
  }
}

TEST(I8GemmTiles, PackingFlagsSevenBitSignedPanels) {
  std::mt19937 rng(5);
  I8Panels p;
  const auto w = random_7bit(6 * 20, false, rng);
  i8_pack(w.data(), false, 20, 1, 0, 6, 20, 6, false, p);
  EXPECT_TRUE(p.signed_7bit);
  for (int outside : {65, -65}) {
    auto v = w;
    v[37] = static_cast<uint8_t>(outside);
    i8_pack(v.data(), false, 20, 1, 0, 6, 20, 6, false, p);
    EXPECT_FALSE(p.signed_7bit) << outside;
  }
  i8_pack(w.data(), false, 20, 1, 0, 6, 20, 6, true, p);  // the unsigned domain is never flagged
  EXPECT_FALSE(p.signed_7bit);
}

// Without sums (the other operand's zero points all 0) the panels are the same bytes and
// the sums stay 0; full 8-column panels (the SSE2 path) and ragged ones (the generic path).
TEST(I8GemmTiles, PackingWithoutSumsKeepsThePanels) {
  std::mt19937 rng(9);
  for (int64_t n : {5, 8, 16, 21})
    for (int64_t k : {1, 6, 33}) {
      const auto b = random_bytes(static_cast<size_t>(k * n), rng);
      I8Panels with, without;
      i8_pack(b.data(), true, 1, n, 0, n, k, 8, true, with);
      i8_pack(b.data(), true, 1, n, 0, n, k, 8, true, without, false);
      EXPECT_EQ(with.bytes, without.bytes) << n << "x" << k;
      EXPECT_EQ(without.sums, std::vector<int32_t>(static_cast<size_t>(n), 0)) << n << "x" << k;
    }
}

// Column panels of depth-major sources against the layout's definition, for the widths the
// SSE2 path takes (8 and 32, full panels) and ragged last panels, with and without a flip
// into the other domain (int8 source): bytes, zero padding and column sums.
TEST(I8GemmTiles, PackedColumnPanelsMatchTheLayout) {
  std::mt19937 rng(10);
  for (int width : {8, 32})
    for (bool src_unsigned : {true, false})
      for (int64_t n : {8, 32, 45, 64})
        for (int64_t k : {1, 7, 148}) {
          const auto b = random_bytes(static_cast<size_t>(k * n), rng);
          I8Panels p;
          i8_pack(b.data(), src_unsigned, 1, n, 0, n, k, width, true, p);
          const uint8_t flip = src_unsigned ? 0 : 0x80;
          const int64_t panel_bytes = p.k_groups * width * 4;
          ASSERT_EQ(p.bytes.size(), static_cast<size_t>((n + width - 1) / width * panel_bytes));
          for (int64_t j = 0; j < (n + width - 1) / width * width; ++j) {
            int32_t sum = 0;
            for (int64_t d = 0; d < p.k_groups * 4; ++d) {
              const uint8_t want = j < n && d < k ? static_cast<uint8_t>(b[static_cast<size_t>(d * n + j)] ^ flip) : 0;
              const uint8_t got = p.bytes[static_cast<size_t>(j / width * panel_bytes + d / 4 * width * 4 + j % width * 4 + d % 4)];
              ASSERT_EQ(got, want) << width << " " << n << "x" << k << " column " << j << " depth " << d;
              sum += want;
            }
            if (j < n) {
              EXPECT_EQ(p.sums[static_cast<size_t>(j)], sum) << width << " " << n << "x" << k << " column " << j;
            }
          }
        }
}

// Tiles that requantize in their epilogue (I8TileArgs::y) give requantize_u8's bytes for
// extreme sums and multipliers: int32 limits, sums past +-2^22 after scaling, halfway
// cases, zero, negative, infinite and NaN multipliers, and every row count of the tile.
TEST(I8GemmTiles, RequantizingTilesMatchRequantize) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<int32_t> sums = {0, 1, -1, 2, 3, 5, -5, 127, 128, 255, -256, 1 << 22, -(1 << 22), (1 << 24) + 1,
                                     std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(), 1000001, -999999};
  const std::vector<float> multipliers = {0.5f, 1.0f, -1.0f, 0.0f, -0.0f, 1e-9f, 0.25f, 1.5f, 1e9f, -1e9f, 3.0e38f, inf, -inf, nan};
  for (Isa isa : supported_isas()) {
    const I8GemmKernel& kernel = i8_indirect_kernel(isa);
    if (!kernel.indirect_requantizes_u8) continue;
    const int mr = kernel.mr, nr = kernel.nr;
    // Every row reads a padding pixel of zeros against zero weights: the sums are col_add.
    std::vector<uint8_t> zero_pixel(16, 0), weights(static_cast<size_t>(nr * 4 * kernel.indirect_row_bytes), 0);
    std::vector<const uint8_t*> rows(static_cast<size_t>(mr), zero_pixel.data());
    const std::vector<int32_t> row_add(static_cast<size_t>(mr), 0);
    for (int32_t y_zero : {0, 3, 128, 255})
      for (int row_count = 1; row_count <= mr; ++row_count)
        for (size_t s0 = 0; s0 < sums.size(); s0 += 3) {
          std::vector<int32_t> col_add(static_cast<size_t>(nr));
          std::vector<float> mult(static_cast<size_t>(nr));
          for (int j = 0; j < nr; ++j) {
            col_add[static_cast<size_t>(j)] = sums[(s0 + static_cast<size_t>(j)) % sums.size()];
            mult[static_cast<size_t>(j)] = multipliers[(s0 + static_cast<size_t>(j) * 5) % multipliers.size()];
          }
          // Column tails that leave each of the tile's column vectors partly or wholly unused.
          const int cols = 1 + static_cast<int>((s0 * 13 + static_cast<size_t>(nr) - 2) % static_cast<size_t>(nr));
          std::vector<uint8_t> y(static_cast<size_t>(mr * nr), 0xab);
          I8TileArgs t;
          t.k_groups = 1;
          t.cols = weights.data();
          t.row_count = row_count;
          t.col_count = cols;
          t.row_add = row_add.data();
          t.col_add = col_add.data();
          t.indirect = rows.data();
          t.y = y.data();
          t.ldy = nr;
          t.y_multiplier = mult.data();
          t.y_zero = y_zero;
          kernel.indirect_u8(t);
          for (int r = 0; r < mr; ++r)
            for (int j = 0; j < nr; ++j) {
              uint8_t want = 0xab;  // untouched outside the tile's rows and columns
              if (r < row_count && j < cols) requantize_u8(&col_add[static_cast<size_t>(j)], 1, 0, &mult[static_cast<size_t>(j)], 0, y_zero, &want);
              ASSERT_EQ(y[static_cast<size_t>(r * nr + j)], want)
                  << kernel.name << " sum " << col_add[static_cast<size_t>(j)] << " multiplier " << mult[static_cast<size_t>(j)]
                  << " zero " << y_zero << " rows " << row_count << " row " << r << " column " << j;
            }
        }
  }
}

// The same wrap test with the 7-bit tiles' extreme products.
TEST(I8GemmTiles, SevenBitTilesWrapLikeTheReference) {
  const int64_t m = 7, n = 33, k = 140000;
  const std::vector<uint8_t> a(static_cast<size_t>(m * k), 255), b(static_cast<size_t>(k * n), 0xc0);  // int8 -64
  const std::vector<int32_t> za = {0}, zb = {0};
  const TypePair t{true, false};
  const auto want = run_reference(t, m, n, k, a, b, za, 0, zb, 0);
  ASSERT_NE(int64_t{want[0]}, int64_t{255} * -64 * k);
  for (Isa isa : supported_isas())
    EXPECT_EQ(run_packed(i8_gemm_kernel(isa), t, true, m, n, k, a, b, za, 0, zb, 0), want) << i8_gemm_kernel(isa).name;
}

TEST(I8GemmTiles, AvxTierUsesVnniWhenTheCpuHasIt) {
  if (!isa_supported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512";
  EXPECT_EQ(std::string(i8_gemm_kernel(Isa::kAvx512).name),
            cpu_has_avx512_vnni() ? "i8_gemm_6x32__avx512vnni" : "i8_gemm_6x8__avx2");
}

TEST(Requantize, MatchesQuantizeOfTheFloatProductOnEveryTier) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int32_t> accs(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::vector<int32_t> acc = {0, 1, -1, 2, 3, 5, -5, 7, 1 << 22, -(1 << 22), std::numeric_limits<int32_t>::max(),
                              std::numeric_limits<int32_t>::min()};
  for (int i = 0; i < 2000; ++i) acc.push_back(accs(rng) >> (i % 31));
  const float multipliers[] = {0.5f, 1.0f, 0.0123f, 3.7e-5f, 1.5f, 2.5e-8f, 0.0f, -0.25f,
                               std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
  for (float mult : multipliers)
    for (int32_t bias : {0, 100, -77777, std::numeric_limits<int32_t>::max()})
      for (int32_t zp : {0, 3, 128, 255, -128, 127})
        for (Isa isa : supported_isas()) {
          const I8GemmKernel& tier = i8_gemm_kernel(isa);
          std::vector<uint8_t> u8(acc.size());
          std::vector<int8_t> s8(acc.size());
          tier.requantize_u8(acc.data(), static_cast<int64_t>(acc.size()), bias, &mult, 0, zp, u8.data());
          tier.requantize_s8(acc.data(), static_cast<int64_t>(acc.size()), bias, &mult, 0, zp, s8.data());
          for (size_t i = 0; i < acc.size(); ++i) {
            const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias));
            const float f = static_cast<float>(v) * mult;
            ASSERT_EQ(u8[i], quant::quantize<uint8_t>(f, zp)) << tier.name << " " << acc[i] << " " << mult << " " << zp;
            ASSERT_EQ(s8[i], quant::quantize<int8_t>(f, zp)) << tier.name << " " << acc[i] << " " << mult << " " << zp;
          }
        }
}

// Vector bodies and their tails: every length and start offset around the 32-value steps,
// per-tensor and per-channel multipliers, against the scalar tier.
TEST(Requantize, EveryTierMatchesScalarAtEveryLength) {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int32_t> accs(-40000, 40000);
  std::uniform_real_distribution<float> mults(0.0f, 0.01f);
  std::vector<int32_t> acc(101);
  std::vector<float> mult(101);
  for (size_t i = 0; i < acc.size(); ++i) acc[i] = accs(rng), mult[i] = mults(rng);
  const I8GemmKernel& scalar = i8_gemm_kernel(Isa::kScalar);
  for (Isa isa : supported_isas())
    for (int64_t start : {0, 1, 5})
      for (int64_t n = 0; n + start <= 96; ++n)
        for (int64_t stride : {0, 1}) {
          const I8GemmKernel& tier = i8_gemm_kernel(isa);
          std::vector<uint8_t> u8(static_cast<size_t>(n) + 1, 0x5a), u8_want(u8);
          std::vector<int8_t> s8(static_cast<size_t>(n) + 1, 0x5a), s8_want(s8);
          tier.requantize_u8(acc.data() + start, n, 17, mult.data() + start, stride, 100, u8.data());
          scalar.requantize_u8(acc.data() + start, n, 17, mult.data() + start, stride, 100, u8_want.data());
          tier.requantize_s8(acc.data() + start, n, 17, mult.data() + start, stride, -3, s8.data());
          scalar.requantize_s8(acc.data() + start, n, 17, mult.data() + start, stride, -3, s8_want.data());
          ASSERT_EQ(u8, u8_want) << tier.name << " start " << start << " n " << n << " stride " << stride;
          ASSERT_EQ(s8, s8_want) << tier.name << " start " << start << " n " << n << " stride " << stride;
        }
}

// The tiers' QdqAdd loops on every (a, b) byte pair (and a tail past the vector steps)
// against the separate nodes' float operations: dequantize both, add, Relu, quantize.
TEST(QdqAdd, TierLoopsMatchTheSeparateNodes) {
  std::vector<uint8_t> a, b;
  for (int i = 0; i < 65536 + 37; ++i) a.push_back(static_cast<uint8_t>(i & 255)), b.push_back(static_cast<uint8_t>((i >> 8) * 7));
  const float inf = std::numeric_limits<float>::infinity();
  const QdqAddParams params[] = {{0.02f, 0.03f, 0.04f, 128, 120, 3, true}, {0.02f, 0.03f, 0.04f, 128, 120, 3, false},
                                 {0.5f, 0.25f, 0.001f, 0, 255, 128, false}, {0.1f, 0.1f, 0.2f, 7, 9, 0, true},
                                 {inf, 0.1f, 0.2f, 0, 9, 5, true}, {inf, 0.1f, 0.2f, 0, 9, 5, false}};
  for (Isa isa : supported_isas()) {
    const I8GemmKernel& tier = i8_gemm_kernel(isa);
    if (!tier.qdq_add_u8) continue;
    for (const QdqAddParams& p : params) {
      std::vector<uint8_t> y(a.size());
      tier.qdq_add_u8(a.data(), b.data(), static_cast<int64_t>(a.size()), p, y.data());
      for (size_t i = 0; i < a.size(); ++i) {
        const float fa = static_cast<float>(int32_t{a[i]} - p.a_zero) * p.a_scale;
        const float fb = static_cast<float>(int32_t{b[i]} - p.b_zero) * p.b_scale;
        float sum = fa + fb;
        if (p.relu) sum = sum < 0.0f ? 0.0f : sum;
        ASSERT_EQ(y[i], quant::quantize<uint8_t>(sum / p.y_scale, p.y_zero))
            << tier.name << " a=" << int{a[i]} << " b=" << int{b[i]} << " relu=" << p.relu;
      }
    }
  }
}

// The loops that divide by y_scale through its reciprocal (Markstein's correction): the
// check passes on random realistic parameters, and where it passes, the loop gives the
// separate nodes' bytes (computed here, not by the check's own reference loop). Where the
// correction cannot reproduce the division (a zero y_scale, infinite sums), the check fails.
TEST(QdqAdd, ReciprocalLoopsAreExactWhereTheCheckPasses) {
  std::vector<uint8_t> a, b;
  for (int i = 0; i < 65536 + 37; ++i) a.push_back(static_cast<uint8_t>(i >> 8)), b.push_back(static_cast<uint8_t>(i * 13));
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> log_scale(-9.0f, 2.0f);
  std::uniform_int_distribution<int> zero(0, 255), coin(0, 1);
  int tiers = 0;
  for (Isa isa : supported_isas()) {
    const I8GemmKernel& tier = i8_gemm_kernel(isa);
    if (!tier.qdq_add_u8_by_inverse) continue;
    ++tiers;
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(qdq_add_by_inverse_is_exact(tier, {0.02f, 0.03f, 0.0f, 128, 120, 3, false})) << tier.name;
    EXPECT_FALSE(qdq_add_by_inverse_is_exact(tier, {inf, 0.1f, 0.2f, 0, 9, 5, false})) << tier.name;
    for (int trial = 0; trial < 40; ++trial) {
      const QdqAddParams p{std::exp(log_scale(rng)), std::exp(log_scale(rng)), std::exp(log_scale(rng)),
                           zero(rng), zero(rng), zero(rng), coin(rng) == 1};
      ASSERT_TRUE(qdq_add_by_inverse_is_exact(tier, p)) << tier.name << " trial " << trial;
      std::vector<uint8_t> y(a.size());
      tier.qdq_add_u8_by_inverse(a.data(), b.data(), static_cast<int64_t>(a.size()), p, y.data());
      for (size_t i = 0; i < a.size(); ++i) {
        float sum = static_cast<float>(int32_t{a[i]} - p.a_zero) * p.a_scale + static_cast<float>(int32_t{b[i]} - p.b_zero) * p.b_scale;
        if (p.relu) sum = sum < 0.0f ? 0.0f : sum;
        ASSERT_EQ(y[i], quant::quantize<uint8_t>(sum / p.y_scale, p.y_zero)) << tier.name << " trial " << trial << " i " << i;
      }
    }
  }
  if (tiers == 0) GTEST_SKIP() << "no tier with a reciprocal QdqAdd loop on this CPU";
}

TEST(Quantize, MatchesQuantizeOfTheQuotient) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
  std::vector<float> x = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 127.5f, 1e30f, -1e30f,
                          std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(), 4194304.5f, 8388609.0f};
  for (int i = 0; i < 3000; ++i) x.push_back(dist(rng));
  for (float scale : {1.0f, 0.5f, 0.0371f, 3.0f, 1e-20f})
    for (int32_t zp : {0, 7, 128, 255, -128, 127, -3}) {
      for (Isa isa : supported_isas()) {  // each tier's copy of the loops too
        const I8GemmKernel& tier = i8_gemm_kernel(isa);
        std::vector<uint8_t> u8(x.size());
        std::vector<int8_t> s8(x.size());
        tier.quantize_u8(x.data(), static_cast<int64_t>(x.size()), scale, zp, u8.data());
        tier.quantize_s8(x.data(), static_cast<int64_t>(x.size()), scale, zp, s8.data());
        for (size_t i = 0; i < x.size(); ++i) {
          ASSERT_EQ(u8[i], quant::quantize<uint8_t>(x[i] / scale, zp)) << tier.name << " " << x[i] << " / " << scale;
          ASSERT_EQ(s8[i], quant::quantize<int8_t>(x[i] / scale, zp)) << tier.name << " " << x[i] << " / " << scale;
        }
      }
    }
}

TEST(Quantize, RangeWithZeroMatchesASequentialScan) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> dist(-5.0f, 5.0f);
  for (int n : {0, 1, 7, 8, 9, 100}) {
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = dist(rng);
    for (int variant = 0; variant < 4; ++variant) {
      if (n > 3 && variant == 1) x[2] = std::numeric_limits<float>::quiet_NaN();
      if (variant == 2) std::fill(x.begin(), x.end(), -0.0f);
      if (variant == 3) for (float& v : x) v = std::fabs(v) + 1.0f;  // all positive: lo stays 0
      float want_lo = 0.0f, want_hi = 0.0f;
      for (float v : x) {
        want_lo = v < want_lo ? v : want_lo;
        want_hi = v > want_hi ? v : want_hi;
      }
      float lo = 1.0f, hi = -1.0f;
      f32_range_with_zero(x.data(), n, lo, hi);
      EXPECT_EQ(std::signbit(lo), std::signbit(want_lo)) << n << " " << variant;
      EXPECT_EQ(lo, want_lo) << n << " " << variant;
      EXPECT_EQ(hi, want_hi) << n << " " << variant;
    }
  }
}

}  // namespace
}  // namespace twinrt::kernels
