#include "kernels/gemm/i8_gemm.h"

#include <algorithm>
#include <cstring>

#include "kernels/cpu/isa.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
void i8_gemm_6x8_rows_u8__scalar(const I8TileArgs&);
void i8_gemm_6x8_rows_s8__scalar(const I8TileArgs&);
#ifdef TWINRT_X86
void i8_gemm_6x8_rows_u8__avx2(const I8TileArgs&);
void i8_gemm_6x8_rows_s8__avx2(const I8TileArgs&);
void i8_gemm_6x32_rows_u8__avx512vnni(const I8TileArgs&);
void i8_gemm_6x32_rows_s8__avx512vnni(const I8TileArgs&);
#endif

const I8GemmKernel& i8_gemm_kernel(Isa isa) {
  static const I8GemmKernel scalar{"i8_gemm_6x8__scalar", 6, 8, i8_gemm_6x8_rows_u8__scalar,
                                   i8_gemm_6x8_rows_s8__scalar};
#ifdef TWINRT_X86
  static const I8GemmKernel avx2{"i8_gemm_6x8__avx2", 6, 8, i8_gemm_6x8_rows_u8__avx2, i8_gemm_6x8_rows_s8__avx2};
  static const I8GemmKernel vnni{"i8_gemm_6x32__avx512vnni", 6, 32, i8_gemm_6x32_rows_u8__avx512vnni,
                                 i8_gemm_6x32_rows_s8__avx512vnni};
  if (isa == Isa::kAvx512 && cpu_has_avx512_vnni()) return vnni;
  if (isa == Isa::kAvx512 || isa == Isa::kAvx2) return avx2;
#else
  (void)isa;
#endif
  return scalar;
}

void i8_pack(const uint8_t* src, bool src_unsigned, int64_t outer_stride, int64_t k_stride, int64_t first,
             int64_t count, int64_t k, int width, bool to_unsigned, I8Panels& out) {
  out.width = width;
  out.outer = count;
  out.k = k;
  out.k_groups = (k + 3) / 4;
  out.is_unsigned = to_unsigned;
  const int64_t panels = (count + width - 1) / width, panel_bytes = out.k_groups * width * 4;
  out.bytes.assign(static_cast<size_t>(panels * panel_bytes), 0);
  out.sums.assign(static_cast<size_t>(count), 0);
  const uint8_t flip = src_unsigned == to_unsigned ? 0 : 0x80;
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t* row = src + (first + i) * outer_stride;
    uint8_t* dst = out.bytes.data() + (i / width) * panel_bytes + (i % width) * 4;
    uint32_t sum = 0;
    for (int64_t p = 0; p < k; ++p) {
      const uint8_t v = row[p * k_stride] ^ flip;
      dst[(p / 4) * width * 4 + p % 4] = v;
      sum += to_unsigned ? uint32_t{v} : static_cast<uint32_t>(int32_t{static_cast<int8_t>(v)});
    }
    out.sums[static_cast<size_t>(i)] = static_cast<int32_t>(sum);
  }
}

void i8_gemm_packed(const I8GemmKernel& kernel, const I8Operand& r, const I8Operand& s, int32_t* c, int64_t ldc) {
  const I8Panels& rp = *r.panels;
  const I8Panels& sp = *s.panels;
  const I8TileFn tile = rp.is_unsigned ? kernel.rows_u8 : kernel.rows_s8;
  const uint32_t k = static_cast<uint32_t>(rp.k);
  for (int64_t pi = r.first_panel; pi < r.first_panel + r.panel_count; ++pi) {
    const int64_t i0 = pi * kernel.mr;
    const int rows = static_cast<int>(std::min<int64_t>(kernel.mr, rp.outer - i0));
    for (int64_t pj = s.first_panel; pj < s.first_panel + s.panel_count; ++pj) {
      const int64_t j0 = pj * kernel.nr;
      const int cols = static_cast<int>(std::min<int64_t>(kernel.nr, sp.outer - j0));
      int32_t* tile_c = c + (i0 - r.first_panel * kernel.mr) * ldc + (j0 - s.first_panel * kernel.nr);
      tile({rp.k_groups, rp.panel(pi), sp.panel(pj), tile_c, ldc, rows, cols});
      // Zero-point terms, in uint32 so that they wrap like the reference's int32 sums.
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

namespace {

// round_half_to_even(f) + zero_point, saturated to Q. Floats of magnitude >= 2^22
// saturate whatever the zero point (8-bit), and below that adding and subtracting
// 1.5 * 2^23 rounds to the nearest integer, ties to even, with no libm call.
template <class Q>
Q round_to(float f, int32_t zero_point) {
  constexpr float kLimit = 4194304.0f, kMagic = 12582912.0f;
  constexpr int32_t lo = std::is_same_v<Q, uint8_t> ? 0 : -128, hi = std::is_same_v<Q, uint8_t> ? 255 : 127;
  f = f > kLimit ? kLimit : f;
  f = f >= -kLimit ? f : -kLimit;  // NaN goes to the low end, like quant::quantize
  const int32_t q = static_cast<int32_t>((f + kMagic) - kMagic) + zero_point;
  return static_cast<Q>(q < lo ? lo : q > hi ? hi : q);
}

template <class Q>
void requantize(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                int32_t zero_point, Q* out) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias));
    out[i] = round_to<Q>(static_cast<float>(v) * multiplier[i * multiplier_stride], zero_point);
  }
}

template <class Q>
void quantize(const float* x, int64_t n, float scale, int32_t zero_point, Q* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = round_to<Q>(x[i] / scale, zero_point);
}

}  // namespace

void requantize_u8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, uint8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void requantize_s8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, int8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}

void quantize_u8(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out) {
  quantize(x, n, scale, zero_point, out);
}
void quantize_s8(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out) {
  quantize(x, n, scale, zero_point, out);
}

}  // namespace twinrt::kernels
