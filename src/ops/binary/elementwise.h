// out = f(a, b) over the broadcast of two tensors, with the row loop specialised for the
// common layouts (both advance, one side repeats) so the compiler can vectorise them.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/elementwise/f32_steps.h"
#include "ops/binary/broadcast_rows.h"
#include "ops/common/broadcast.h"
#include "ops/op.h"

namespace twinrt {

template <class TA, class TB, class TO, class F>
void apply_rows(const BroadcastRows& plan, ThreadPool& pool, const TA* a, const TB* b, TO* out,
                F f) {
  const int64_t n = plan.row_len();
  const bool a_steps = plan.step(0) != 0, b_steps = plan.step(1) != 0;
  for_each_row_parallel(plan, pool, [&](int64_t out_off, const int64_t* in_off) {
    const TA* pa = a + in_off[0];
    const TB* pb = b + in_off[1];
    TO* po = out + out_off;
    if (a_steps && b_steps) {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    } else if (a_steps) {
      const TB vb = *pb;
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], vb);
    } else if (b_steps) {
      const TA va = *pa;
      for (int64_t i = 0; i < n; ++i) po[i] = f(va, pb[i]);
    } else {
      const TO v = f(*pa, *pb);
      for (int64_t i = 0; i < n; ++i) po[i] = v;
    }
  });
}

// apply_rows for float32 through a step kernel of kernels/elementwise/f32_steps.h (the
// same IEEE operation, vectorized for the session's ISA tier).
inline void apply_f32_step_rows(const BroadcastRows& plan, ThreadPool& pool, const float* a, const float* b,
                                float* out, kernels::F32StepFn step_fn, const kernels::F32StepParams& step) {
  const int64_t n = plan.row_len();
  const bool a_steps = plan.step(0) != 0, b_steps = plan.step(1) != 0;
  for_each_row_parallel(plan, pool, [&](int64_t out_off, const int64_t* in_off) {
    float* po = out + out_off;
    const bool one_value = !a_steps && !b_steps;  // the kernel takes two scalars only for n == 1
    step_fn(step, {a + in_off[0], !a_steps}, {b + in_off[1], !b_steps}, po, one_value ? std::min<int64_t>(n, 1) : n);
    if (one_value && n > 1) std::fill(po + 1, po + n, po[0]);
  });
}

// Allocates output 0 with `out_dtype` and `out_shape` and fills it with f(a, b), reading
// a and b as if shaped `a_shape` / `b_shape` (which broadcast to `out_shape`).
template <class TA, class TB, class TO, class F>
Status broadcast_binary(RunContext& ctx, const Tensor& a, const std::vector<int64_t>& a_shape,
                        const Tensor& b, const std::vector<int64_t>& b_shape,
                        const std::vector<int64_t>& out_shape, F f) {
  ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, dtype_of<TO>(), out_shape));
  BroadcastRows plan(out_shape, {a_shape, b_shape});
  apply_rows(plan, ctx.pool(), a.data<TA>(), b.data<TB>(), out->data<TO>(), f);
  return Status::ok();
}

// The output shape of a multidirectional broadcast, or an error naming the inputs.
inline Result<std::vector<int64_t>> broadcast_output_shape(const std::vector<const Tensor*>& inputs) {
  std::vector<std::vector<int64_t>> shapes;
  for (const Tensor* t : inputs) shapes.push_back(t->shape());
  return broadcast_shapes(shapes);
}

}  // namespace twinrt
