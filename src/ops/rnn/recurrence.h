// The time loop shared by RNN, GRU and LSTM. Every (direction, batch entry) pair is an
// independent recurrence, so they are spread over the thread pool whole: each output
// element is computed by exactly one task in a fixed order, whatever the thread count.
//
// A Cell provides scratch_size() and
//   step(op, dir, x_t, h_prev, c_prev, h_out, c_out, scratch)
// advancing one batch entry of one direction by one time step. Entries past a batch
// entry's sequence length stay zero in Y; the reverse direction walks each sequence from
// its own last element back to the first.
#pragma once

#include <utility>
#include <vector>

#include "kernels/math/half.h"
#include "ops/rnn/rnn_spec.h"
#include "runtime/thread_pool.h"

namespace twinrt {

// Sum of a[i] * b[i] accumulated in Acc, in index order.
template <class Acc, class S>
Acc dot_product(const S* a, const S* b, int64_t n) {
  Acc sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<Acc>(a[i]) * static_cast<Acc>(b[i]);
  return sum;
}

// Runs f.template operator()<S, Acc>() with S the compute type of X (float for
// float16/float, double for double) and Acc the accumulator: double in reference mode.
template <class F>
Status with_rnn_types(const RunContext& ctx, F&& f) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
  switch (x->dtype()) {
    case DataType::kDouble: return f.template operator()<double, double>();
    case DataType::kFloat:
    case DataType::kFloat16:
      return ctx.mode() == Mode::kReference ? f.template operator()<float, double>()
                                            : f.template operator()<float, float>();
    default:
      return not_implemented(std::string("X of type ") + dtype_name(x->dtype()) + " is not supported");
  }
}

namespace rnn_detail {

// Sets output i from a compute-type tensor, converting to float16 when X was float16.
inline Status write_output(RunContext& ctx, size_t i, Tensor value, DataType out_dtype) {
  if (!ctx.output_requested(i)) return Status::ok();
  if (value.dtype() == out_dtype) {
    ctx.set_output(i, Value::of(std::move(value)));
    return Status::ok();
  }
  ASSIGN_OR_RETURN(Tensor* out, ctx.output(i, out_dtype, value.shape()));
  for (int64_t k = 0; k < value.numel(); ++k) out->data<Float16>()[k] = math::to_float16(value.data<float>()[k]);
  return Status::ok();
}

}  // namespace rnn_detail

template <class S, class Cell>
Status run_recurrence(RunContext& ctx, const RnnSpec& spec, const RnnOperands<S>& op, const Cell& cell) {
  const DataType compute = dtype_of<S>();
  ASSIGN_OR_RETURN(Tensor y, Tensor::create(compute, op.y_shape(spec)));
  ASSIGN_OR_RETURN(Tensor y_h, Tensor::create(compute, op.state_shape(spec)));
  ASSIGN_OR_RETURN(Tensor y_c, Tensor::create(compute, op.state_shape(spec)));
  const auto hidden = static_cast<size_t>(spec.hidden);
  ctx.pool().parallel_for(spec.dirs * op.batch, 1, [&](int64_t begin, int64_t end) {
    std::vector<S> h(hidden), c(hidden), h_next(hidden), c_next(hidden), scratch(cell.scratch_size());
    for (int64_t item = begin; item < end; ++item) {
      const int64_t d = item / op.batch, b = item % op.batch;
      const size_t state = op.state_index(spec, d, b);
      std::copy_n(op.h0.template data<S>() + state, hidden, h.begin());
      std::copy_n(op.c0.template data<S>() + state, hidden, c.begin());
      const int64_t len = op.lengths[static_cast<size_t>(b)];
      for (int64_t k = 0; k < len; ++k) {
        const int64_t t = spec.reversed(d) ? len - 1 - k : k;
        cell.step(op, d, op.x.template data<S>() + op.x_index(spec, t, b), h.data(), c.data(), h_next.data(),
                  c_next.data(), scratch.data());
        std::swap(h, h_next);
        std::swap(c, c_next);
        std::copy(h.begin(), h.end(), y.data<S>() + op.y_index(spec, t, d, b));
      }
      std::copy(h.begin(), h.end(), y_h.data<S>() + state);
      std::copy(c.begin(), c.end(), y_c.data<S>() + state);
    }
  });
  const DataType out_dtype = ctx.input(0).dtype();
  TRY(rnn_detail::write_output(ctx, 0, std::move(y), out_dtype));
  TRY(rnn_detail::write_output(ctx, 1, std::move(y_h), out_dtype));
  if (spec.has_cell_state) TRY(rnn_detail::write_output(ctx, 2, std::move(y_c), out_dtype));
  return Status::ok();
}

}  // namespace twinrt
