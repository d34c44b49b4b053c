// Softmax, LogSoftmax, Hardmax.
//
// Before opset 13 the input is coerced to 2-D at `axis` (default 1): each row is the
// flattened dims [axis, rank). From opset 13 the op runs along the single dim `axis`
// (default -1). Hardmax puts 1 at the first maximum (the first NaN if any) and 0 elsewhere.
#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "ops/softmax/softmax_rows.h"

namespace twinrt {
namespace {

enum class Kind { kSoftmax, kLogSoftmax, kHardmax };

template <class T>
void hardmax(const T* x, T* y, AxisLayout l) {
  for (int64_t o = 0; o < l.outer; ++o)
    for (int64_t i = 0; i < l.inner; ++i) {
      const T* col = x + o * l.n * l.inner + i;
      int64_t best = 0;
      for (int64_t k = 1; k < l.n; ++k)
        if (beats_for_max(load(col[k * l.inner]), load(col[best * l.inner]))) best = k;
      y[(o * l.n + best) * l.inner + i] = store<T>(1);
    }
}

class SoftmaxKernel final : public OpKernel {
 public:
  SoftmaxKernel(Kind kind, int64_t axis, bool coerce_2d, Isa isa)
      : kind_(kind), axis_(axis), coerce_2d_(coerce_2d), isa_(isa) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, x->rank()));
    const AxisLayout l = coerce_2d_ ? axis_layout(x->shape(), static_cast<size_t>(axis), x->shape().size())
                                    : axis_layout(x->shape(), axis);
    // Hardmax writes only the ones: its output starts zeroed.
    ASSIGN_OR_RETURN(Tensor * out, kind_ == Kind::kHardmax ? ctx.output(0, x->dtype(), x->shape())
                                                           : ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (l.n == 0) return Status::ok();
      if (kind_ == Kind::kHardmax) hardmax(x->data<T>(), out->data<T>(), l);
      else
        softmax_rows(x->data<T>(), out->data<T>(), l,
                     kind_ == Kind::kSoftmax ? SoftmaxKind::kSoftmax : SoftmaxKind::kLogSoftmax, ctx.mode(), isa_,
                     ctx.pool());
      return Status::ok();
    });
  }

 private:
  Kind kind_;
  int64_t axis_;
  bool coerce_2d_;
  Isa isa_;
};

template <Kind K>
Result<std::unique_ptr<OpKernel>> create_softmax(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0) || init.num_outputs() != 1)
    return init.error("expects 1 input and 1 output, got " + std::to_string(init.num_inputs()) + " and " +
                      std::to_string(init.num_outputs()));
  const bool coerce_2d = init.opset < 13;
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", coerce_2d ? 1 : -1));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined)
    if (Status st = check_type_in<kFloats>(t); !st.is_ok()) return init.unsupported(st.message());
  return make_kernel<SoftmaxKernel>(K, axis, coerce_2d, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("Softmax", 1, create_softmax<Kind::kSoftmax>);
TWINRT_REGISTER_OP("LogSoftmax", 1, create_softmax<Kind::kLogSoftmax>);
TWINRT_REGISTER_OP("Hardmax", 1, create_softmax<Kind::kHardmax>);

}  // namespace twinrt
