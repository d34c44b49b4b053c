// Pow: base of type T (float types, int32, int64), exponent of any numeric type T1
// (from opset 12 the two may differ); the output has the base's type.
//
// Float bases compute twinrt::math::pow in double and round once. Integer bases with an
// integral exponent are computed exactly (wrapping on overflow, as numpy does); a
// negative exponent gives the truncated 1/x^n (1, -1 or 0; 0 for a zero base, where
// numpy raises). A fractional exponent on an integer base goes through math::pow and is
// truncated, saturating.
#include <cmath>

#include "kernels/math/math.h"
#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

constexpr unsigned kPowBaseTypes = kFloats | kI32 | kI64;

// base^exponent for an integer base, exponent given as sign and magnitude.
template <class T>
T int_pow(T base, bool negative, uint64_t magnitude) {
  if (negative) {
    if (base == 1) return 1;
    if constexpr (std::is_signed_v<T>)
      if (base == -1) return (magnitude & 1) ? -1 : 1;
    return 0;
  }
  T result = 1;
  for (T b = base; magnitude; magnitude >>= 1, b = wrap_mul(b, b))
    if (magnitude & 1) result = wrap_mul(result, b);
  return result;
}

template <class T, class E>
T pow_element(T base, E exponent) {
  const auto e = load(exponent);
  if constexpr (is_float_like_v<T>) {
    const double b = static_cast<double>(load(base));
    // x^2 of a float (a squared difference in a decomposed LayerNorm) is exact in double,
    // and math::pow returns that exact value (tests/unit/math_pow_square_test.cc): the
    // same bits without pow's log and exp.
    if constexpr (std::is_same_v<compute_t<T>, float>)
      if (static_cast<double>(e) == 2.0) return store<T>(static_cast<float>(b * b));
    const double r = math::pow(b, static_cast<double>(e));
    return store<T>(static_cast<compute_t<T>>(r));
  } else if constexpr (std::is_integral_v<E>) {
    if constexpr (std::is_signed_v<E>)
      if (e < 0) return int_pow(base, true, 0 - static_cast<uint64_t>(e));
    return int_pow(base, false, static_cast<uint64_t>(e));
  } else {
    const double d = static_cast<double>(e);
    constexpr double kTwo63 = 9223372036854775808.0;
    if (d == std::trunc(d) && std::fabs(d) < kTwo63) {
      const int64_t i = static_cast<int64_t>(d);
      return int_pow(base, i < 0, i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i));
    }
    return saturating_cast<T>(math::pow(static_cast<double>(base), d));
  }
}

class PowKernel final : public OpKernel {
 public:
  explicit PowKernel(BinaryShapes shapes) : shapes_(std::move(shapes)) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t != DataType::kUndefined) ctx.set_output(0, t, shapes_.infer(ctx.shape(0), ctx.shape(1)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* y, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(auto shapes, shapes_.resolve(x->shape(), y->shape()));
    return dispatch<kPowBaseTypes>(x->dtype(), [&](auto* base_tag) {
      using T = std::remove_pointer_t<decltype(base_tag)>;
      return dispatch<kAllNumeric>(y->dtype(), [&](auto* exp_tag) {
        using E = std::remove_pointer_t<decltype(exp_tag)>;
        return broadcast_binary<T, E, T>(ctx, *x, shapes.a, *y, shapes.b, shapes.out,
                                         [](T b, E e) { return pow_element(b, e); });
      });
    });
  }

 private:
  BinaryShapes shapes_;
};

Result<std::unique_ptr<OpKernel>> create_pow(const KernelInit& init) {
  if (init.num_inputs() != 2 || init.num_outputs() != 1)
    return init.error("expects 2 inputs and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined)
    if (Status st = check_type_in<kPowBaseTypes>(t); !st.is_ok())
      return init.unsupported("base X: " + st.message());
  ASSIGN_OR_RETURN(BinaryShapes shapes, BinaryShapes::parse(init));
  return make_kernel<PowKernel>(std::move(shapes));
}

}  // namespace

TWINRT_REGISTER_OP("Pow", 1, create_pow);

}  // namespace twinrt
