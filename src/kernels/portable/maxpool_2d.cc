// The portable tier's max pool (16-byte vectors: SSE2 natively, SIMD128 in the WebAssembly
// SIMD builds) and the choice of tier.
#define TWINRT_POOL_NS scalar_maxpool
#define TWINRT_POOL_BYTES 16
#if defined(__wasm_simd128__) || defined(__SSSE3__)
#define TWINRT_POOL_BYTE_SHUFFLE 1
#else
#define TWINRT_POOL_BYTE_SHUFFLE 0
#endif
#define TWINRT_POOL_F32_FN f32_maxpool_2d__scalar
#define TWINRT_POOL_U8_FN u8_maxpool_2d__scalar
#define TWINRT_POOL_I8_FN i8_maxpool_2d__scalar
#include "kernels/portable/maxpool_2d.inc"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

#ifdef TWINRT_X86
// Defined in the ISA folders, each compiled with its own flags.
void f32_maxpool_2d__avx2(const ImageWindow&, const float*, float*, int64_t, void*);
void u8_maxpool_2d__avx2(const ImageWindow&, const uint8_t*, uint8_t*, void*);
void i8_maxpool_2d__avx2(const ImageWindow&, const int8_t*, int8_t*, void*);
void f32_maxpool_2d__avx512(const ImageWindow&, const float*, float*, int64_t, void*);
#endif

bool maxpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

int64_t maxpool_2d_ring_rows(int64_t kernel_rows) {
  int64_t rows = 1;
  while (rows < kernel_rows) rows *= 2;
  return rows;
}

bool maxpool_2d_flat(const ImageWindow& w) {
  constexpr int64_t kMaxFlatElements = 4096;  // row maxima of a plane: 16 KB of floats, in L1
  const int64_t s_h = w.strides[0], s_w = w.strides[1];
  return (s_h == 1 || s_h == 2) && (s_w == 1 || s_w == 2) && w.in[1] == s_w * w.out[1] &&
         w.in[0] * w.out[1] <= kMaxFlatElements;
}

bool maxpool_2d_plane_blocks(const ImageWindow& w) {
  constexpr int64_t kMaxPositions = 4096;  // 16 planes of them: 256 KB, in L2
  // Stride-1 pools of planes at least this wide sweep along the plane faster (maxpool_2d_flat):
  // GoogLeNet's 3x3 "same" pools at 28 x 28 took 0.08 against 0.13 ms with AVX-512 and 0.12
  // against 0.22 with AVX2, at 14 x 14 as long or less; at 7 x 7 the blocks were twice as fast.
  constexpr int64_t kMinFlatWidth = 14;
  if (w.strides[0] == 1 && w.strides[1] == 1 && w.out[1] >= kMinFlatWidth && maxpool_2d_flat(w)) return false;
  return w.in[0] * w.in[1] <= kMaxPositions && w.out[0] * w.out[1] <= kMaxPositions;
}

int64_t maxpool_2d_scratch_bytes(const ImageWindow& w, int element_bytes) {
  const int64_t ring = maxpool_2d_ring_rows(w.kernel[0]);
  const int64_t rows = maxpool_2d_flat(w) && w.in[0] > ring ? w.in[0] : ring;
  const int64_t row_maxima = rows * w.out[1] * element_bytes;
  if (element_bytes != 4 || !maxpool_2d_plane_blocks(w)) return row_maxima;
  const int64_t blocks = (w.in[0] * w.in[1] + w.out[0] * w.out[1]) * kMaxPool2dPlaneBlock * 4;
  return blocks > row_maxima ? blocks : row_maxima;
}

const MaxPool2dKernels& maxpool_2d_kernels(Isa isa) {
  static const MaxPool2dKernels scalar{f32_maxpool_2d__scalar, u8_maxpool_2d__scalar, i8_maxpool_2d__scalar};
#ifdef TWINRT_X86
  static const MaxPool2dKernels avx2{f32_maxpool_2d__avx2, u8_maxpool_2d__avx2, i8_maxpool_2d__avx2};
  static const MaxPool2dKernels avx512{f32_maxpool_2d__avx512, u8_maxpool_2d__avx2, i8_maxpool_2d__avx2};
  if (isa == Isa::kAvx512) return avx512;
  if (isa == Isa::kAvx2) return avx2;
#else
  (void)isa;
#endif
  return scalar;
}

}  // namespace twinrt::kernels
