#include "kernels/gemm/i8_gemm.h"

#include <algorithm>
#include <cstring>

#include "kernels/cpu/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
void i8_gemm_6x8_rows_u8__scalar(const I8TileArgs&);
void i8_gemm_6x8_rows_s8__scalar(const I8TileArgs&);
void i8_gemm_6x8_indirect_u8__scalar(const I8TileArgs&);
void i8_gemm_6x8_indirect_i16__scalar(const I8TileArgs&);
#if defined(__wasm_simd128__)
void i8_gemm_2x8_rows_u8__wasmsimd(const I8TileArgs&);
void i8_gemm_2x8_rows_s8__wasmsimd(const I8TileArgs&);
void i8_gemm_2x8_rows_u16__wasmsimd(const I8TileArgs&);
void i8_gemm_4x8_indirect_u8__wasmsimd(const I8TileArgs&);
void i8_arrange_pairs__wasmsimd(I8Panels&);
void requantize_u8__wasmsimd(const int32_t*, int64_t, int32_t, const float*, int64_t, int32_t, uint8_t*);
void requantize_s8__wasmsimd(const int32_t*, int64_t, int32_t, const float*, int64_t, int32_t, int8_t*);
void qdq_add_u8__wasmsimd(const uint8_t*, const uint8_t*, int64_t, const QdqAddParams&, uint8_t*);
#endif
#ifdef TWINRT_X86
void i8_gemm_6x8_rows_u8__avx2(const I8TileArgs&);
void i8_gemm_6x8_rows_s8__avx2(const I8TileArgs&);
void i8_gemm_6x8_rows_u8_7bit__avx2(const I8TileArgs&);
void i8_gemm_6x8_rows_s8_7bit__avx2(const I8TileArgs&);
void i8_gemm_6x8_rows_u16__avx2(const I8TileArgs&);
void i8_gemm_6x8_indirect_u8__avx2(const I8TileArgs&);
void i8_gemm_6x8_indirect_u8_7bit__avx2(const I8TileArgs&);
void i8_gemm_6x8_indirect_i16__avx2(const I8TileArgs&);
void i8_gemm_6x32_rows_u8__avx512vnni(const I8TileArgs&);
void i8_gemm_6x32_rows_s8__avx512vnni(const I8TileArgs&);
void i8_gemm_6x64_indirect_u8__avx512vnni(const I8TileArgs&);
void requantize_u8__avx2(const int32_t*, int64_t, int32_t, const float*, int64_t, int32_t, uint8_t*);
void requantize_s8__avx2(const int32_t*, int64_t, int32_t, const float*, int64_t, int32_t, int8_t*);
void quantize_u8__avx2(const float*, int64_t, float, int32_t, uint8_t*);
void quantize_s8__avx2(const float*, int64_t, float, int32_t, int8_t*);
void qdq_add_u8__avx2(const uint8_t*, const uint8_t*, int64_t, const QdqAddParams&, uint8_t*);
void qdq_add_u8__avx512(const uint8_t*, const uint8_t*, int64_t, const QdqAddParams&, uint8_t*);
void qdq_add_u8_by_inverse__avx2(const uint8_t*, const uint8_t*, int64_t, const QdqAddParams&, uint8_t*);
void qdq_add_u8_by_inverse__avx512(const uint8_t*, const uint8_t*, int64_t, const QdqAddParams&, uint8_t*);
#endif

const I8GemmKernel& i8_gemm_kernel(Isa isa) {
#if defined(__wasm_simd128__)
  // No indirect tile of this shape: the NHWC convolution takes i8_indirect_kernel's. The
  // products with packed weights (MatMul's B) widen the activations once and run rows_u16
  // on columns arranged in int16 pairs, the NHWC tile's scheme.
  static const I8GemmKernel scalar{"i8_gemm_2x8__wasmsimd", 2, 8, i8_gemm_2x8_rows_u8__wasmsimd,
                                   i8_gemm_2x8_rows_s8__wasmsimd, nullptr, nullptr, i8_gemm_2x8_rows_u16__wasmsimd,
                                   nullptr, nullptr, requantize_u8__wasmsimd, requantize_s8__wasmsimd, quantize_u8,
                                   quantize_s8, qdq_add_u8__wasmsimd, i8_arrange_pairs__wasmsimd};
#else
  static const I8GemmKernel scalar{"i8_gemm_6x8__scalar", 6, 8, i8_gemm_6x8_rows_u8__scalar,
                                   i8_gemm_6x8_rows_s8__scalar, nullptr, nullptr, nullptr, i8_gemm_6x8_indirect_u8__scalar,
                                   nullptr, requantize_u8, requantize_s8, quantize_u8, quantize_s8, nullptr, nullptr, 1,
                                   false, nullptr, i8_gemm_6x8_indirect_i16__scalar};
#endif
#ifdef TWINRT_X86
  static const I8GemmKernel avx2{"i8_gemm_6x8__avx2", 6, 8, i8_gemm_6x8_rows_u8__avx2, i8_gemm_6x8_rows_s8__avx2,
                                 i8_gemm_6x8_rows_u8_7bit__avx2, i8_gemm_6x8_rows_s8_7bit__avx2, i8_gemm_6x8_rows_u16__avx2,
                                 i8_gemm_6x8_indirect_u8__avx2,
                                 i8_gemm_6x8_indirect_u8_7bit__avx2, requantize_u8__avx2, requantize_s8__avx2,
                                 quantize_u8__avx2, quantize_s8__avx2, qdq_add_u8__avx2, nullptr, 1, false,
                                 qdq_add_u8_by_inverse__avx2, i8_gemm_6x8_indirect_i16__avx2};
  static const I8GemmKernel vnni{"i8_gemm_6x32__avx512vnni", 6, 32, i8_gemm_6x32_rows_u8__avx512vnni,
                                 i8_gemm_6x32_rows_s8__avx512vnni, nullptr, nullptr, nullptr, nullptr, nullptr, requantize_u8__avx2, requantize_s8__avx2,
                                 quantize_u8__avx2, quantize_s8__avx2, qdq_add_u8__avx512, nullptr, 1, true,
                                 qdq_add_u8_by_inverse__avx512};
  if (isa == Isa::kAvx512 && cpu_has_avx512_vnni()) return vnni;
  if (isa == Isa::kAvx512 || isa == Isa::kAvx2) return avx2;
#else
  (void)isa;
#endif
  return scalar;
}

const I8GemmKernel& i8_indirect_kernel(Isa isa) {
#if defined(__wasm_simd128__)
  (void)isa;
  static const I8GemmKernel wasm{"i8_gemm_4x8__wasmsimd", 4, 8, nullptr, nullptr, nullptr, nullptr, nullptr,
                                 i8_gemm_4x8_indirect_u8__wasmsimd, nullptr, requantize_u8__wasmsimd, requantize_s8__wasmsimd,
                                 quantize_u8, quantize_s8, qdq_add_u8__wasmsimd, i8_arrange_pairs__wasmsimd, 2, true,
                                 nullptr, i8_gemm_4x8_indirect_u8__wasmsimd};  // int16 rows read the same way
  return wasm;
#else
#ifdef TWINRT_X86
  // VNNI: 64 columns (the NHWC convolutions' output channels) where the packed products
  // keep 32: both measured best in ResNet-50 int8 (Session M in quantization.md). The rest
  // (requantization, QdqAdd) is the VNNI kernel's.
  if (isa == Isa::kAvx512 && cpu_has_avx512_vnni()) {
    static const I8GemmKernel wide = [] {
      I8GemmKernel k = i8_gemm_kernel(Isa::kAvx512);
      k.name = "i8_gemm_6x64__avx512vnni";
      k.nr = 64;
      k.rows_u8 = k.rows_s8 = nullptr;  // its packed-row tiles are 32 wide
      k.indirect_u8 = i8_gemm_6x64_indirect_u8__avx512vnni;
      return k;
    }();
    return wide;
  }
#endif
  return i8_gemm_kernel(isa);  // the other native tiers' indirect tiles have their own shape
#endif
}

bool qdq_add_by_inverse_is_exact(const I8GemmKernel& tier, const QdqAddParams& p) {
  if (!tier.qdq_add_u8_by_inverse) return false;
  constexpr int kPairs = 256 * 256;
  std::vector<uint8_t> a(kPairs), b(kPairs), exact(kPairs), fast(kPairs);
  for (int i = 0; i < kPairs; ++i) a[i] = static_cast<uint8_t>(i >> 8), b[i] = static_cast<uint8_t>(i);
  (tier.qdq_add_u8 ? tier.qdq_add_u8 : qdq_add_u8)(a.data(), b.data(), kPairs, p, exact.data());
  tier.qdq_add_u8_by_inverse(a.data(), b.data(), kPairs, p, fast.data());
  return exact == fast;
}

namespace {

// d[4j + q] = rq[j] ^ flip: four depths of `n` columns, interleaved (a loop the compiler
// vectorizes with byte unpacks).
void interleave4(const uint8_t* __restrict r0, const uint8_t* __restrict r1, const uint8_t* __restrict r2,
                 const uint8_t* __restrict r3, int64_t n, uint8_t flip, uint8_t* __restrict d) {
  for (int64_t j = 0; j < n; ++j) {
    d[4 * j] = r0[j] ^ flip;
    d[4 * j + 1] = r1[j] ^ flip;
    d[4 * j + 2] = r2[j] ^ flip;
    d[4 * j + 3] = r3[j] ^ flip;
  }
}

// sums[j] += the 4 packed values of column j in group `d`, read as T (uint8 or int8).
template <class T>
void add_group_sums(const uint8_t* __restrict d, int64_t n, int32_t* __restrict sums) {
  for (int64_t j = 0; j < n; ++j) {
    const int32_t s = int32_t{static_cast<T>(d[4 * j])} + int32_t{static_cast<T>(d[4 * j + 1])} +
                      int32_t{static_cast<T>(d[4 * j + 2])} + int32_t{static_cast<T>(d[4 * j + 3])};
    sums[j] = static_cast<int32_t>(static_cast<uint32_t>(sums[j]) + static_cast<uint32_t>(s));
  }
}

// Whether every byte, read as int8, lies in [-64, 64].
bool all_7bit(const std::vector<uint8_t>& bytes) {
  bool ok = true;
  for (uint8_t b : bytes) ok &= static_cast<uint8_t>(b + 64) <= 128;  // a loop that vectorizes
  return ok;
}

#if defined(__SSE2__)
// Full unsigned-domain panels of 8 columns whose source rows are depths (im2col tiles and
// pointwise images, packed on every run): the generic interleave and sums below with SSE2
// (baseline x86-64). Pure data movement and exact integer sums, so every tier gets the same
// panels. Group by group across all the panels, so that each source row is read front to
// back once: panel by panel, a deep tile's rows (one cache line each) no longer stayed in
// L1 from one panel to the next.
template <bool Sums>
void pack_unsigned_panels8(const uint8_t* src, int64_t k_stride, int64_t k, int64_t panels, int64_t panel_bytes,
                           uint8_t flip, uint8_t* dst, int32_t* sums) {
  const __m128i f = _mm_set1_epi8(static_cast<char>(flip)), zero = _mm_setzero_si128();
  for (int64_t g = 0; 4 * g < k; ++g) {
    const int live = static_cast<int>(std::min<int64_t>(4, k - 4 * g));  // depths past k pack to 0
    for (int64_t p = 0; p < panels; ++p) {
      __m128i r[4];
      for (int q = 0; q < 4; ++q)
        r[q] = q < live ? _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + (4 * g + q) * k_stride + 8 * p)), f)
                        : zero;
      const __m128i pairs01 = _mm_unpacklo_epi8(r[0], r[1]), pairs23 = _mm_unpacklo_epi8(r[2], r[3]);
      uint8_t* d = dst + p * panel_bytes + g * 32;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_unpacklo_epi16(pairs01, pairs23));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 16), _mm_unpackhi_epi16(pairs01, pairs23));
      if (!Sums) continue;
      // Per column, the group's 4 values as int16 (at most 4 * 255), widened into the sums.
      const __m128i s16 = _mm_add_epi16(_mm_add_epi16(_mm_unpacklo_epi8(r[0], zero), _mm_unpacklo_epi8(r[1], zero)),
                                        _mm_add_epi16(_mm_unpacklo_epi8(r[2], zero), _mm_unpacklo_epi8(r[3], zero)));
      __m128i* s = reinterpret_cast<__m128i*>(sums + 8 * p);
      _mm_storeu_si128(s, _mm_add_epi32(_mm_loadu_si128(s), _mm_unpacklo_epi16(s16, zero)));
      _mm_storeu_si128(s + 1, _mm_add_epi32(_mm_loadu_si128(s + 1), _mm_unpackhi_epi16(s16, zero)));
    }
  }
}
#endif

}  // namespace

void i8_pack(const uint8_t* src, bool src_unsigned, int64_t outer_stride, int64_t k_stride, int64_t first,
             int64_t count, int64_t k, int width, bool to_unsigned, I8Panels& out, bool with_sums) {
  out.width = width;
  out.outer = count;
  out.k = k;
  out.k_groups = (k + 3) / 4;
  out.is_unsigned = to_unsigned;
  out.signed_7bit = false;
  out.value_bytes = 1;
  const int64_t panels = (count + width - 1) / width, panel_bytes = out.k_groups * width * 4;
  out.bytes.resize(static_cast<size_t>(panels * panel_bytes));
  out.sums.assign(static_cast<size_t>(count), 0);
  const uint8_t flip = src_unsigned == to_unsigned ? 0 : 0x80;
  std::vector<uint8_t> zeros(static_cast<size_t>(width), static_cast<uint8_t>(flip));  // packs to 0
  int64_t panel = 0;
#if defined(__SSE2__)
  if (outer_stride == 1 && to_unsigned && width == 8) {
    panel = count / 8;  // the full panels; a partial last one takes the generic path
    if (with_sums) pack_unsigned_panels8<true>(src + first, k_stride, k, panel, panel_bytes, flip, out.bytes.data(), out.sums.data());
    else pack_unsigned_panels8<false>(src + first, k_stride, k, panel, panel_bytes, flip, out.bytes.data(), out.sums.data());
  }
#endif
  for (; panel < panels; ++panel) {
    const int64_t i0 = panel * width, valid = std::min<int64_t>(width, count - i0);
    uint8_t* dst = out.bytes.data() + panel * panel_bytes;
    int32_t* sums = out.sums.data() + i0;
    if (outer_stride == 1) {
      // Rows of the source are depths: interleave 4 of them per group, column by column.
      for (int64_t g = 0; g < out.k_groups; ++g) {
        const uint8_t* rows[4];
        for (int q = 0; q < 4; ++q)
          rows[q] = 4 * g + q < k ? src + (4 * g + q) * k_stride + first + i0 : zeros.data();
        uint8_t* d = dst + g * width * 4;
        interleave4(rows[0], rows[1], rows[2], rows[3], valid, flip, d);
        std::fill(d + valid * 4, d + width * 4, uint8_t{0});
      }
    } else {
      // Rows of the source are rows: 4 consecutive depths (k_stride 1) or a gather.
      std::fill(dst, dst + panel_bytes, uint8_t{0});
      for (int64_t r = 0; r < valid; ++r) {
        const uint8_t* row = src + (first + i0 + r) * outer_stride;
        uint8_t* d = dst + r * 4;
        int64_t p = 0;
        if (k_stride == 1) {  // a group's 4 bytes as one word (MatMulInteger's activations, every call)
          const uint32_t flip4 = 0x01010101u * flip;
          for (; p + 4 <= k; p += 4) {
            uint32_t word;
            std::memcpy(&word, row + p, 4);
            word ^= flip4;
            std::memcpy(d + (p >> 2) * width * 4, &word, 4);
          }
        }
        for (; p < k; ++p) d[(p >> 2) * width * 4 + (p & 3)] = row[p * k_stride] ^ flip;
      }
    }
    // Sums of the packed values, over the panel just written.
    for (int64_t g = 0; with_sums && g < out.k_groups; ++g) {
      if (to_unsigned) add_group_sums<uint8_t>(dst + g * width * 4, valid, sums);
      else add_group_sums<int8_t>(dst + g * width * 4, valid, sums);
    }
  }
  if (!to_unsigned) out.signed_7bit = all_7bit(out.bytes);
}

void i8_widen_rows(I8Panels& panels) {
  if (panels.value_bytes != 1 || !panels.is_unsigned) return;
  thread_local std::vector<uint8_t> wide;  // kept: the caller's panels take its storage in turn
  const size_t n = panels.bytes.size();
  wide.resize(2 * n);
  const uint8_t* __restrict src = panels.bytes.data();
  uint8_t* __restrict dst = wide.data();
  for (size_t i = 0; i < n; ++i) {  // little-endian uint16 on every target twinrt builds for
    dst[2 * i] = src[i];
    dst[2 * i + 1] = 0;
  }
  panels.bytes.swap(wide);
  panels.value_bytes = 2;
}

void i8_gemm_packed(const I8GemmKernel& kernel, const I8Operand& r, const I8Operand& s, int32_t* c, int64_t ldc) {
  const I8Panels& rp = *r.panels;
  const I8Panels& sp = *s.panels;
  // The signed operand decides whether the exact 7-bit tile applies.
  const bool fast = rp.is_unsigned ? sp.signed_7bit && kernel.rows_u8_7bit : rp.signed_7bit && kernel.rows_s8_7bit;
  const I8TileFn tile = rp.value_bytes == 2 ? kernel.rows_u16
                       : rp.is_unsigned     ? (fast ? kernel.rows_u8_7bit : kernel.rows_u8)
                                            : (fast ? kernel.rows_s8_7bit : kernel.rows_s8);
  const uint32_t k = static_cast<uint32_t>(rp.k);
  // The zero-point terms, in uint32 so that they wrap like the reference's int32 sums. With
  // one zero point per panel side they split into a per-row and a per-column term, which
  // the tile adds as it stores; otherwise they are folded in afterwards.
  constexpr int kMaxWidth = 64;
  int32_t row_add[kMaxWidth], col_add[kMaxWidth];
  const auto uniform = [](const int32_t* z, int64_t stride, int64_t first, int count) {
    for (int i = 1; i < count; ++i)
      if (z[(first + i) * stride] != z[first * stride]) return false;
    return true;
  };
  const int64_t r0 = r.first_panel * kernel.mr, r_count = std::min(r.panel_count * kernel.mr, rp.outer - r0);
  const int64_t s0 = s.first_panel * kernel.nr, s_count = std::min(s.panel_count * kernel.nr, sp.outer - s0);
  if (r.zero_stride == 0 || uniform(r.zero, r.zero_stride, r0, static_cast<int>(r_count))) {
    if (s.zero_stride == 0 || uniform(s.zero, s.zero_stride, s0, static_cast<int>(s_count))) {
      // One zero point per side over the whole call (the usual case): every tile's row and
      // column terms computed once, not per tile.
      const uint32_t zr = static_cast<uint32_t>(r.zero[r0 * r.zero_stride]), zs = static_cast<uint32_t>(s.zero[s0 * s.zero_stride]);
      thread_local std::vector<int32_t> row_adds, col_adds;
      row_adds.assign(static_cast<size_t>(r.panel_count * kernel.mr), 0);
      col_adds.assign(static_cast<size_t>(s.panel_count * kernel.nr), 0);
      for (int64_t i = 0; i < r_count; ++i)
        row_adds[static_cast<size_t>(i)] = static_cast<int32_t>(k * zr * zs - zs * static_cast<uint32_t>(rp.sums[static_cast<size_t>(r0 + i)]));
      for (int64_t j = 0; j < s_count; ++j)
        col_adds[static_cast<size_t>(j)] = static_cast<int32_t>(0u - zr * static_cast<uint32_t>(sp.sums[static_cast<size_t>(s0 + j)]));
      for (int64_t pi = 0; pi < r.panel_count; ++pi) {
        const int rows = static_cast<int>(std::min<int64_t>(kernel.mr, r_count - pi * kernel.mr));
        for (int64_t pj = 0; pj < s.panel_count; ++pj) {
          const int cols = static_cast<int>(std::min<int64_t>(kernel.nr, s_count - pj * kernel.nr));
          tile({rp.k_groups, rp.panel(r.first_panel + pi), sp.panel(s.first_panel + pj), c + pi * kernel.mr * ldc + pj * kernel.nr,
                ldc, rows, cols, row_adds.data() + pi * kernel.mr, col_adds.data() + pj * kernel.nr});
        }
      }
      return;
    }
  }
  for (int64_t pi = r.first_panel; pi < r.first_panel + r.panel_count; ++pi) {
    const int64_t i0 = pi * kernel.mr;
    const int rows = static_cast<int>(std::min<int64_t>(kernel.mr, rp.outer - i0));
    const bool r_uniform = uniform(r.zero, r.zero_stride, i0, rows);
    const uint32_t zr0 = static_cast<uint32_t>(r.zero[i0 * r.zero_stride]);
    for (int64_t pj = s.first_panel; pj < s.first_panel + s.panel_count; ++pj) {
      const int64_t j0 = pj * kernel.nr;
      const int cols = static_cast<int>(std::min<int64_t>(kernel.nr, sp.outer - j0));
      int32_t* tile_c = c + (i0 - r.first_panel * kernel.mr) * ldc + (j0 - s.first_panel * kernel.nr);
      const uint32_t zs0 = static_cast<uint32_t>(s.zero[j0 * s.zero_stride]);
      if (r_uniform && uniform(s.zero, s.zero_stride, j0, cols)) {
        for (int i = 0; i < kernel.mr; ++i)
          row_add[i] = i < rows ? static_cast<int32_t>(k * zr0 * zs0 - zs0 * static_cast<uint32_t>(rp.sums[static_cast<size_t>(i0 + i)])) : 0;
        for (int j = 0; j < kernel.nr; ++j)
          col_add[j] = j < cols ? static_cast<int32_t>(0u - zr0 * static_cast<uint32_t>(sp.sums[static_cast<size_t>(j0 + j)])) : 0;
        tile({rp.k_groups, rp.panel(pi), sp.panel(pj), tile_c, ldc, rows, cols, row_add, col_add});
        continue;
      }
      std::fill(row_add, row_add + kernel.mr, 0);
      std::fill(col_add, col_add + kernel.nr, 0);
      tile({rp.k_groups, rp.panel(pi), sp.panel(pj), tile_c, ldc, rows, cols, row_add, col_add});
      for (int i = 0; i < rows; ++i) {
        const uint32_t zr = static_cast<uint32_t>(r.zero[(i0 + i) * r.zero_stride]);
        const uint32_t rsum = static_cast<uint32_t>(rp.sums[static_cast<size_t>(i0 + i)]);
        int32_t* out = tile_c + i * ldc;
        for (int j = 0; j < cols; ++j) {
          const uint32_t zs = static_cast<uint32_t>(s.zero[(j0 + j) * s.zero_stride]);
          const uint32_t ssum = static_cast<uint32_t>(sp.sums[static_cast<size_t>(j0 + j)]);
          out[j] = static_cast<int32_t>(static_cast<uint32_t>(out[j]) - zs * rsum - zr * ssum + k * zr * zs);
        }
      }
    }
  }
}

}  // namespace twinrt::kernels
