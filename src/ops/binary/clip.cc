// Clip: y = min(max(x, lo), hi). Before opset 11 the bounds are float attributes `min`
// and `max`; from 11 they are optional scalar inputs of the input's type (all numeric
// types from 12). An absent bound clamps nothing (numpy.clip with None; the spec's
// default lowest()/max() differs only for infinite inputs). NaN inputs stay NaN; when
// lo > hi every value becomes hi.
#include <optional>

#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

class ClipKernel final : public OpKernel {
 public:
  // Bounds from attributes (opset < 11), or none to read them from inputs 1 and 2.
  ClipKernel(bool bounds_are_attributes, std::optional<float> lo, std::optional<float> hi)
      : bounds_are_attributes_(bounds_are_attributes), attr_lo_(lo), attr_hi_(hi) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    auto go = [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = compute_t<T>;
      std::optional<C> lo, hi;
      if (bounds_are_attributes_) {
        if (attr_lo_) lo = static_cast<C>(*attr_lo_);
        if (attr_hi_) hi = static_cast<C>(*attr_hi_);
      } else {
        ASSIGN_OR_RETURN(lo, (bound_input<T>(ctx, 1, x->dtype())));
        ASSIGN_OR_RETURN(hi, (bound_input<T>(ctx, 2, x->dtype())));
      }
      ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
      const T* in = x->data<T>();
      T* y = out->data<T>();
      const C low = lo.value_or(no_lower_bound<C>()), high = hi.value_or(no_upper_bound<C>());
      ctx.pool().parallel_for(x->numel(), kElementsPerTask, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          C v = load(in[i]);
          v = v < low ? low : v;
          y[i] = store<T>(v > high ? high : v);
        }
      });
      return Status::ok();
    };
    if (bounds_are_attributes_) return dispatch<kFloats>(x->dtype(), go);
    return dispatch<kAllNumeric>(x->dtype(), go);
  }

 private:
  template <class T>
  static Result<std::optional<compute_t<T>>> bound_input(const RunContext& ctx, size_t i, DataType dtype) {
    if (!ctx.has_input(i)) return std::optional<compute_t<T>>();
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(i));
    const char* name = i == 1 ? "min" : "max";
    if (b->dtype() != dtype)
      return invalid_argument(std::string(name) + " is " + dtype_name(b->dtype()) + ", expected " +
                              dtype_name(dtype) + " like the input");
    if (b->numel() != 1)
      return invalid_argument(std::string(name) + " must be a scalar, got shape " + shape_to_string(b->shape()));
    return std::optional<compute_t<T>>(load(b->data<T>()[0]));
  }

  bool bounds_are_attributes_;
  std::optional<float> attr_lo_, attr_hi_;
};

Result<std::unique_ptr<OpKernel>> create_clip(const KernelInit& init) {
  if (init.num_inputs() < 1 || init.num_inputs() > 3 || !init.has_input(0) || init.num_outputs() != 1)
    return init.error("expects 1 to 3 inputs (input, min, max) and 1 output, got " +
                      std::to_string(init.num_inputs()) + " and " + std::to_string(init.num_outputs()));
  if (init.opset >= 11) return make_kernel<ClipKernel>(false, std::nullopt, std::nullopt);
  if (init.num_inputs() != 1) return init.error("before opset 11, min and max are attributes, not inputs");
  std::optional<float> lo, hi;
  if (init.has_attr("min")) {
    ASSIGN_OR_RETURN(float v, init.attr_float("min", 0));
    lo = v;
  }
  if (init.has_attr("max")) {
    ASSIGN_OR_RETURN(float v, init.attr_float("max", 0));
    hi = v;
  }
  return make_kernel<ClipKernel>(true, lo, hi);
}

}  // namespace

TWINRT_REGISTER_OP("Clip", 1, create_clip);

}  // namespace twinrt
