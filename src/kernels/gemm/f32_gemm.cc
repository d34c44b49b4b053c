#include "kernels/gemm/f32_gemm.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
void f32_gemm_6x8__scalar(const F32TileArgs&);
#if defined(__wasm_simd128__)
void f32_gemm_4x8__wasmsimd(const F32TileArgs&);  // kernels/wasm: a shape for V8's registers
#elif defined(__wasm__)
void f32_gemm_4x4__wasm(const F32TileArgs&);
#endif
#ifdef TWINRT_X86
void f32_gemm_6x16__avx2(const F32TileArgs&);
void f32_gemm_6x16_fma__avx2(const F32TileArgs&);
void f32_gemm_8x32__avx512(const F32TileArgs&);
void f32_gemm_8x32_fma__avx512(const F32TileArgs&);
#endif

const F32GemmKernel& f32_gemm_kernel(Isa isa, bool fma) {
#if defined(__wasm_simd128__)
  static const F32GemmKernel scalar{"f32_gemm_4x8__wasmsimd", 4, 8, f32_gemm_4x8__wasmsimd};
#elif defined(__wasm__)
  static const F32GemmKernel scalar{"f32_gemm_4x4__wasm", 4, 4, f32_gemm_4x4__wasm};
#else
  static const F32GemmKernel scalar{"f32_gemm_6x8__scalar", 6, 8, f32_gemm_6x8__scalar};
#endif
#ifdef TWINRT_X86
  static const F32GemmKernel avx2{"f32_gemm_6x16__avx2", 6, 16, f32_gemm_6x16__avx2};
  static const F32GemmKernel avx2_fma{"f32_gemm_6x16_fma__avx2", 6, 16, f32_gemm_6x16_fma__avx2};
  static const F32GemmKernel avx512{"f32_gemm_8x32__avx512", 8, 32, f32_gemm_8x32__avx512};
  static const F32GemmKernel avx512_fma{"f32_gemm_8x32_fma__avx512", 8, 32, f32_gemm_8x32_fma__avx512};
  if (isa == Isa::kAvx512) return fma ? avx512_fma : avx512;
  if (isa == Isa::kAvx2) return fma ? avx2_fma : avx2;
#else
  (void)isa;
  (void)fma;
#endif
  return scalar;
}

namespace {

// Rows of B: row p of panel q is the `width` floats at row p, column (first_panel + q) *
// width. W is the width known at compile time (the copy of a run becomes a few vector
// moves; a call to memcpy per run of 4-64 floats cost as much as the moves: 9% of
// ResNet-50 under Node, where memcpy is a call into the module's libc), or 0 for any.
template <int W>
void pack_rows(const float* src, int64_t k_stride, int64_t count, int64_t first_panel, int64_t panels, int64_t k,
               int width, float* out) {
  const int w = W ? W : width;
  const int64_t col0 = first_panel * w, panel_floats = k * w;
  const int64_t full = std::min(panels, (count - col0) / w);  // panels with no column past count
  for (int64_t p = 0; p < k; ++p) {
    const float* row = src + p * k_stride + col0;
    float* dst = out + p * w;
    for (int64_t q = 0; q < full; ++q) std::memcpy(dst + q * panel_floats, row + q * w, w * sizeof(float));
    for (int64_t q = full; q < panels; ++q) {
      const int64_t valid = std::clamp<int64_t>(count - col0 - q * w, 0, w);
      std::memcpy(dst + q * panel_floats, row + q * w, static_cast<size_t>(valid) * sizeof(float));
      std::memset(dst + q * panel_floats + valid, 0, static_cast<size_t>(w - valid) * sizeof(float));
    }
  }
}

// Columns of A (a transposing gather), panel by panel.
void pack_columns(const float* src, int64_t outer_stride, int64_t k_stride, int64_t count, int64_t first_panel,
                  int64_t panels, int64_t k, int width, float* out) {
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t first = (first_panel + q) * width;
    const int64_t valid = std::clamp<int64_t>(count - first, 0, width);
    for (int64_t p = 0; p < k; ++p) {
      const float* col = src + first * outer_stride + p * k_stride;
      float* dst = out + q * k * width + p * width;
      for (int64_t r = 0; r < valid; ++r) dst[r] = col[r * outer_stride];
      for (int64_t r = valid; r < width; ++r) dst[r] = 0.0f;
    }
  }
}

}  // namespace

void f32_pack_panel_block(const float* src, int64_t outer_stride, int64_t k_stride, int64_t count,
                          int64_t first_panel, int64_t panels, int64_t k, int width, float* out) {
  if (outer_stride != 1) return pack_columns(src, outer_stride, k_stride, count, first_panel, panels, k, width, out);
  switch (width) {
    case 4: return pack_rows<4>(src, k_stride, count, first_panel, panels, k, width, out);
    case 8: return pack_rows<8>(src, k_stride, count, first_panel, panels, k, width, out);
    case 16: return pack_rows<16>(src, k_stride, count, first_panel, panels, k, width, out);
    case 32: return pack_rows<32>(src, k_stride, count, first_panel, panels, k, width, out);
    default: return pack_rows<0>(src, k_stride, count, first_panel, panels, k, width, out);
  }
}

void f32_pack_panels(const float* src, int64_t outer_stride, int64_t k_stride, int64_t outer, int64_t k, int width,
                     float* out) {
  f32_pack_panel_block(src, outer_stride, k_stride, outer, 0, panel_count(outer, width), k, width, out);
}

}  // namespace twinrt::kernels
