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
void f32_gemm_12x32__avx512(const F32TileArgs&);
void f32_gemm_12x32_fma__avx512(const F32TileArgs&);
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
  static const F32GemmKernel avx512{"f32_gemm_12x32__avx512", 12, 32, f32_gemm_12x32__avx512};
  static const F32GemmKernel avx512_fma{"f32_gemm_12x32_fma__avx512", 12, 32, f32_gemm_12x32_fma__avx512};
  if (isa == Isa::kAvx512) return fma ? avx512_fma : avx512;
  if (isa == Isa::kAvx2) return fma ? avx2_fma : avx2;
#else
  (void)isa;
  (void)fma;
#endif
  return scalar;
}

namespace {

// Full-width rows of B into `panels` panels from `src` (the first panel's first column on):
// row p of panel q is the `width` floats at src[p * k_stride + q * width]. With the width
// known at compile time (W) each copy becomes a few vector moves (a call to memcpy per run
// of 4-64 floats cost as much as the moves: 9% of ResNet-50 under Node, where memcpy is a
// call into the module's libc); W = 0: any width.
template <int W>
void copy_rows(const float* src, int64_t k_stride, int64_t panels, int64_t k, int width, float* out) {
  const int w = W ? W : width;
  for (int64_t p = 0; p < k; ++p)
    for (int64_t q = 0; q < panels; ++q) std::memcpy(out + q * k * w + p * w, src + p * k_stride + q * w, w * sizeof(float));
}

void copy_full_rows(const float* src, int64_t k_stride, int64_t panels, int64_t k, int width, float* out) {
  switch (width) {
    case 4: return copy_rows<4>(src, k_stride, panels, k, width, out);
    case 8: return copy_rows<8>(src, k_stride, panels, k, width, out);
    case 16: return copy_rows<16>(src, k_stride, panels, k, width, out);
    case 32: return copy_rows<32>(src, k_stride, panels, k, width, out);
    default: return copy_rows<0>(src, k_stride, panels, k, width, out);
  }
}

}  // namespace

void f32_pack_panel_block(const float* src, int64_t outer_stride, int64_t k_stride, int64_t count,
                          int64_t first_panel, int64_t panels, int64_t k, int width, float* out) {
  // Row-wise only over panels with no column past `count`; the last, partial one (and
  // columns of A) panel by panel.
  const int64_t full = outer_stride == 1 ? std::min(panels, count / width - first_panel) : 0;
  if (full > 0) copy_full_rows(src + first_panel * width, k_stride, full, k, width, out);
  for (int64_t q = std::max<int64_t>(full, 0); q < panels; ++q)
    f32_pack_panel(src, outer_stride, k_stride, (first_panel + q) * width, count, k, width, out + q * k * width);
}

void f32_pack_panel(const float* src, int64_t outer_stride, int64_t k_stride, int64_t first, int64_t count,
                    int64_t k, int width, float* out) {
  const int64_t valid = count - first < width ? count - first : width;
  if (outer_stride == 1 && valid == width) return copy_full_rows(src + first, k_stride, 1, k, width, out);
  if (outer_stride == 1) {  // rows of B, the last panel: contiguous runs, zero-padded
    for (int64_t p = 0; p < k; ++p) {
      std::memcpy(out + p * width, src + first + p * k_stride, static_cast<size_t>(valid) * sizeof(float));
      std::memset(out + p * width + valid, 0, static_cast<size_t>(width - valid) * sizeof(float));
    }
    return;
  }
  for (int64_t p = 0; p < k; ++p) {
    const float* col = src + first * outer_stride + p * k_stride;
    float* dst = out + p * width;
    for (int64_t r = 0; r < valid; ++r) dst[r] = col[r * outer_stride];
    for (int64_t r = valid; r < width; ++r) dst[r] = 0.0f;
  }
}

void f32_pack_panels(const float* src, int64_t outer_stride, int64_t k_stride, int64_t outer, int64_t k, int width,
                     float* out) {
  // All panels at once: rows of B are then read once, in order (panel by panel, each
  // panel read a few floats of every row; BERT's session creation 0.90 -> 0.78 s).
  f32_pack_panel_block(src, outer_stride, k_stride, outer, 0, panel_count(outer, width), k, width, out);
}

}  // namespace twinrt::kernels
