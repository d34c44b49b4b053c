// CumSum: running sums along the axis given as input 1 (an int32/int64 scalar), from
// the start or (reverse=1) from the end, including (default) or excluding the current
// element. The running sum is kept in the mode's accumulator type (double in reference
// mode) and each output is rounded from it once.
#include "ops/binary/numeric.h"
#include "ops/op.h"
#include "ops/reduce/axes.h"

namespace twinrt {
namespace {

constexpr unsigned kCumSumTypes = kFloats | kI32 | kI64 | kU32 | kU64;

template <class T, class Acc>
void cumsum(const T* x, T* y, AxisLayout l, bool exclusive, bool reverse) {
  std::vector<Acc> acc(static_cast<size_t>(l.inner));
  for (int64_t o = 0; o < l.outer; ++o) {
    std::fill(acc.begin(), acc.end(), Acc(0));
    for (int64_t step = 0; step < l.n; ++step) {
      const int64_t k = reverse ? l.n - 1 - step : step;
      const int64_t base = (o * l.n + k) * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        Acc& a = acc[static_cast<size_t>(i)];
        const Acc v = static_cast<Acc>(load(x[base + i]));
        if (exclusive) {
          y[base + i] = store<T>(static_cast<compute_t<T>>(a));
          a = arith_add(a, v);
        } else {
          a = arith_add(a, v);
          y[base + i] = store<T>(static_cast<compute_t<T>>(a));
        }
      }
    }
  }
}

class CumSumKernel final : public OpKernel {
 public:
  CumSumKernel(bool exclusive, bool reverse) : exclusive_(exclusive), reverse_(reverse) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* axis_t, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(std::vector<int64_t> axis_values, read_int_values(*axis_t, "axis"));
    if (axis_values.size() != 1)
      return invalid_argument("axis must hold one value, got " + std::to_string(axis_values.size()));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_values[0], x->rank()));
    ASSIGN_OR_RETURN(Tensor * out, ctx.output(0, x->dtype(), x->shape()));
    const AxisLayout l = axis_layout(x->shape(), axis);
    const bool reference = ctx.mode() == Mode::kReference;
    return dispatch<kCumSumTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (reference) cumsum<T, accum_t<T, true>>(x->data<T>(), out->data<T>(), l, exclusive_, reverse_);
      else cumsum<T, accum_t<T, false>>(x->data<T>(), out->data<T>(), l, exclusive_, reverse_);
      return Status::ok();
    });
  }

 private:
  bool exclusive_, reverse_;
};

Result<std::unique_ptr<OpKernel>> create_cumsum(const KernelInit& init) {
  if (init.num_inputs() != 2 || !init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("expects 2 inputs (x, axis) and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(int64_t exclusive, init.attr_int("exclusive", 0));
  ASSIGN_OR_RETURN(int64_t reverse, init.attr_int("reverse", 0));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined)
    if (Status st = check_type_in<kCumSumTypes>(t); !st.is_ok()) return init.unsupported(st.message());
  return make_kernel<CumSumKernel>(exclusive != 0, reverse != 0);
}

}  // namespace

TWINRT_REGISTER_OP("CumSum", 11, create_cumsum);

}  // namespace twinrt
