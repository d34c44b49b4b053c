// PRelu: y = x < 0 ? slope * x : x, with `slope` broadcast onto X (unidirectionally:
// the output has X's shape). Before opset 7 a 1-D slope of X's channel count applies per
// channel (dim 1), which is how pytorch exported PReLU at opset 6.
#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

constexpr unsigned kPReluTypes = kFloats | kI32 | kI64 | kU32 | kU64;

class PReluKernel final : public OpKernel {
 public:
  explicit PReluKernel(bool channel_slope) : channel_slope_(channel_slope) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* slope, ctx.tensor_input(1));
    if (x->dtype() != slope->dtype())
      return invalid_argument(std::string("X and slope must have the same type, got ") +
                              dtype_name(x->dtype()) + " and " + dtype_name(slope->dtype()));
    ASSIGN_OR_RETURN(std::vector<int64_t> slope_shape, slope_view(x->shape(), slope->shape()));
    return dispatch<kPReluTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      return broadcast_binary<T, T, T>(ctx, *x, x->shape(), *slope, slope_shape, x->shape(),
                                       [](T v, T s) -> T {
                                         if constexpr (std::is_unsigned_v<T>) {
                                           (void)s;
                                           return v;  // never negative
                                         } else {
                                           const compute_t<T> cv = load(v);
                                           return cv < 0 ? store<T>(arith_mul(cv, load(s))) : v;
                                         }
                                       });
    });
  }

 private:
  // The shape to read slope with; it must broadcast to X without changing X's shape.
  Result<std::vector<int64_t>> slope_view(const std::vector<int64_t>& x,
                                          const std::vector<int64_t>& slope) const {
    if (channel_slope_ && slope.size() == 1 && x.size() >= 2 && slope[0] == x[1] && slope[0] != 1) {
      std::vector<int64_t> per_channel(x.size() - 1, 1);
      per_channel[0] = slope[0];
      return per_channel;
    }
    auto out = broadcast_shapes({x, slope});
    if (!out.is_ok() || out.value() != x)
      return invalid_argument("slope of shape " + shape_to_string(slope) +
                              " does not broadcast to X of shape " + shape_to_string(x));
    return slope;
  }

  bool channel_slope_;
};

Result<std::unique_ptr<OpKernel>> create_prelu(const KernelInit& init) {
  if (init.num_inputs() != 2 || init.num_outputs() != 1)
    return init.error("expects 2 inputs (X, slope) and 1 output, got " +
                      std::to_string(init.num_inputs()) + " and " + std::to_string(init.num_outputs()));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined)
    if (Status st = check_type_in<kPReluTypes>(t); !st.is_ok()) return init.unsupported(st.message());
  return make_kernel<PReluKernel>(init.opset < 7);
}

}  // namespace

TWINRT_REGISTER_OP("PRelu", 1, create_prelu);

}  // namespace twinrt
