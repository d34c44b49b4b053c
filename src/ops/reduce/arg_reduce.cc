// ArgMax, ArgMin: int64 index of the largest/smallest element along `axis` (the first
// one, or the last with select_last_index=1). A NaN beats every number (numpy).
#include "ops/binary/numeric.h"
#include "ops/op.h"
#include "ops/reduce/axes.h"

namespace twinrt {
namespace {

struct ArgAttrs {
  bool is_max = true;
  int64_t axis = 0;
  bool keepdims = true;
  bool select_last = false;
};

template <class T>
void arg_reduce(const ArgAttrs& a, const T* x, AxisLayout l, int64_t* y) {
  using C = compute_t<T>;
  std::vector<C> best(static_cast<size_t>(l.inner));
  for (int64_t o = 0; o < l.outer; ++o) {
    const T* block = x + o * l.n * l.inner;
    int64_t* idx = y + o * l.inner;
    for (int64_t i = 0; i < l.inner; ++i) {
      best[static_cast<size_t>(i)] = load(block[i]);
      idx[i] = 0;
    }
    for (int64_t k = 1; k < l.n; ++k) {
      const T* row = block + k * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        const C v = load(row[i]);
        C& b = best[static_cast<size_t>(i)];
        const bool beats = a.is_max ? beats_for_max(v, b) : beats_for_min(v, b);
        const bool tie = v == b || (is_nan(v) && is_nan(b));
        if (beats || (a.select_last && tie)) {
          b = v;
          idx[i] = k;
        }
      }
    }
  }
}

class ArgReduceKernel final : public OpKernel {
 public:
  explicit ArgReduceKernel(ArgAttrs attrs) : a_(attrs) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    if (!in) {
      ctx.set_output(0, DataType::kInt64);
      return Status::ok();
    }
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(a_.axis, static_cast<int64_t>(in->size())));
    ir::Shape out = *in;
    if (a_.keepdims) out[static_cast<size_t>(axis)] = ir::Dim::of(1);
    else out.erase(out.begin() + axis);
    ctx.set_output(0, DataType::kInt64, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(a_.axis, x->rank()));
    if (x->dim(axis) == 0)
      return invalid_argument("cannot take the arg" + std::string(a_.is_max ? "max" : "min") +
                              " over axis " + std::to_string(axis) + " of size 0 (shape " +
                              shape_to_string(x->shape()) + ")");
    std::vector<bool> mask(static_cast<size_t>(x->rank()), false);
    mask[static_cast<size_t>(axis)] = true;
    ASSIGN_OR_RETURN(Tensor * out, ctx.output(0, DataType::kInt64, reduced_shape(x->shape(), mask, a_.keepdims)));
    return dispatch<kAllNumeric>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      arg_reduce(a_, x->data<T>(), axis_layout(x->shape(), axis), out->data<int64_t>());
      return Status::ok();
    });
  }

 private:
  ArgAttrs a_;
};

template <bool kMax>
Result<std::unique_ptr<OpKernel>> create_arg_reduce(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0) || init.num_outputs() != 1)
    return init.error("expects 1 input and 1 output, got " + std::to_string(init.num_inputs()) + " and " +
                      std::to_string(init.num_outputs()));
  ArgAttrs a;
  a.is_max = kMax;
  ASSIGN_OR_RETURN(a.axis, init.attr_int("axis", 0));
  ASSIGN_OR_RETURN(int64_t keepdims, init.attr_int("keepdims", 1));
  ASSIGN_OR_RETURN(int64_t select_last, init.attr_int("select_last_index", 0));
  a.keepdims = keepdims != 0;
  a.select_last = select_last != 0;
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined)
    if (Status st = check_type_in<kAllNumeric>(t); !st.is_ok()) return init.unsupported(st.message());
  return make_kernel<ArgReduceKernel>(a);
}

}  // namespace

TWINRT_REGISTER_OP("ArgMax", 1, create_arg_reduce<true>);
TWINRT_REGISTER_OP("ArgMin", 1, create_arg_reduce<false>);

}  // namespace twinrt
