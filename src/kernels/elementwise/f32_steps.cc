#include "kernels/elementwise/f32_steps.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {

// Defined in the ISA folders, each compiled with its own flags.
void f32_step__scalar(const F32StepParams&, F32StepOperand, F32StepOperand, float*, int64_t);
void f32_map_panel__scalar(const F32RowMap&, const float*, int64_t, int64_t, int64_t, int, float*);
#ifdef TWINRT_X86
void f32_step__avx2(const F32StepParams&, F32StepOperand, F32StepOperand, float*, int64_t);
void f32_step__avx512(const F32StepParams&, F32StepOperand, F32StepOperand, float*, int64_t);
void f32_map_panel__avx2(const F32RowMap&, const float*, int64_t, int64_t, int64_t, int, float*);
void f32_map_panel__avx512(const F32RowMap&, const float*, int64_t, int64_t, int64_t, int, float*);
#endif

F32StepFn f32_step_kernel(Isa isa) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return f32_step__avx512;
  if (isa == Isa::kAvx2) return f32_step__avx2;
#else
  (void)isa;
#endif
  return f32_step__scalar;
}

F32MapPanelFn f32_map_panel_kernel(Isa isa) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return f32_map_panel__avx512;
  if (isa == Isa::kAvx2) return f32_map_panel__avx2;
#else
  (void)isa;
#endif
  return f32_map_panel__scalar;
}

}  // namespace twinrt::kernels
