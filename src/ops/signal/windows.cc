// HannWindow, HammingWindow and BlackmanWindow (opset 17): generalized cosine windows
// w[k] = a0 - a1 cos(2 pi k / N) + a2 cos(4 pi k / N), N = size when periodic (the
// default) and size - 1 when symmetric. Computed in double, rounded once to
// output_datatype. A symmetric window of size 1 is [1] (the formula would divide by 0).
#include <string>

#include "ops/signal/signal_util.h"

namespace twinrt {
namespace {

struct CosineCoefficients {
  double a0, a1, a2;
};

class WindowKernel final : public OpKernel {
 public:
  WindowKernel(CosineCoefficients c, bool periodic, DataType out) : c_(c), periodic_(periodic), out_(out) {}

  Status infer(InferContext& ctx) const override {
    std::optional<int64_t> size = signal::constant_int_scalar(ctx, 0);
    ctx.set_output(0, out_, ir::Shape{size && *size >= 0 ? ir::Dim::of(*size) : ir::Dim{}});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(int64_t size, signal::int_scalar_input(ctx, 0, "size"));
    if (size < 0) return invalid_argument("input size must not be negative, got " + std::to_string(size));
    const int64_t period = periodic_ ? size : size - 1;
    return signal::write_values(ctx, out_, {size}, [&](int64_t k) {
      if (period == 0) return 1.0;
      return c_.a0 - c_.a1 * signal::cos_two_pi_fraction(k, period) +
             c_.a2 * signal::cos_two_pi_fraction(2 * k, period);
    });
  }

 private:
  CosineCoefficients c_;
  bool periodic_;
  DataType out_;
};

template <const CosineCoefficients& C>
Result<std::unique_ptr<OpKernel>> create_window(const KernelInit& init) {
  if (init.num_inputs() != 1 || init.num_outputs() != 1)
    return init.error("expects 1 input and 1 output, got " + std::to_string(init.num_inputs()) + " and " +
                      std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(int64_t periodic, init.attr_int("periodic", 1));
  if (periodic != 0 && periodic != 1) return init.error("attribute periodic must be 0 or 1");
  ASSIGN_OR_RETURN(DataType out, signal::parse_output_datatype(init));
  return make_kernel<WindowKernel>(C, periodic == 1, out);
}

constexpr CosineCoefficients kHann = {0.5, 0.5, 0.0};
constexpr CosineCoefficients kHamming = {25.0 / 46, 21.0 / 46, 0.0};
constexpr CosineCoefficients kBlackman = {0.42, 0.5, 0.08};

}  // namespace

TWINRT_REGISTER_OP("HannWindow", 17, create_window<kHann>);
TWINRT_REGISTER_OP("HammingWindow", 17, create_window<kHamming>);
TWINRT_REGISTER_OP("BlackmanWindow", 17, create_window<kBlackman>);

}  // namespace twinrt
