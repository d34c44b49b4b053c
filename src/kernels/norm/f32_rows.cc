#include "kernels/norm/f32_rows.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
const F32RowKernels& f32_rows__scalar();
#ifdef TWINRT_X86
const F32RowKernels& f32_rows__avx2();
const F32RowKernels& f32_rows__avx512();
#endif

const F32RowKernels& f32_row_kernels(Isa isa) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return f32_rows__avx512();
  if (isa == Isa::kAvx2) return f32_rows__avx2();
#else
  (void)isa;
#endif
  return f32_rows__scalar();
}

}  // namespace twinrt::kernels
