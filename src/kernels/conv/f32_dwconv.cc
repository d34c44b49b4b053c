#include "kernels/conv/f32_dwconv.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
void f32_dwconv__scalar(const ImageWindow&, const F32DwConvPlanes&);
#ifdef TWINRT_X86
void f32_dwconv__avx2(const ImageWindow&, const F32DwConvPlanes&);
void f32_dwconv_fma__avx2(const ImageWindow&, const F32DwConvPlanes&);
void f32_dwconv__avx512(const ImageWindow&, const F32DwConvPlanes&);
void f32_dwconv_fma__avx512(const ImageWindow&, const F32DwConvPlanes&);
#endif

F32DwConvFn f32_dwconv_kernel(Isa isa, bool fma) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return fma ? f32_dwconv_fma__avx512 : f32_dwconv__avx512;
  if (isa == Isa::kAvx2) return fma ? f32_dwconv_fma__avx2 : f32_dwconv__avx2;
#else
  (void)isa;
  (void)fma;
#endif
  return f32_dwconv__scalar;
}

}  // namespace twinrt::kernels
