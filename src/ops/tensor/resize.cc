// Resize (opset 10: scales, nearest/linear, asymmetric coordinates; 11+: roi, scales or
// sizes, cubic, every coordinate transformation and nearest mode) and its predecessor
// Upsample (opset 7: scales attribute; 9: scales input). The sampling math lives in
// resize_sampling.cc.
#include <cmath>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/resize_sampling.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

using tensor_ops::CoordinateMode;
using tensor_ops::NearestMode;
using tensor_ops::ResizeAxis;
using tensor_ops::ResizeConfig;
using tensor_ops::ResizeMode;

// Where a node's roi, scales and sizes come from: input positions (-1 when the op
// version has no such input) or, for Upsample-7, fixed scales.
struct ResizeInputs {
  int roi = -1, scales = -1, sizes = -1;
  std::optional<std::vector<double>> fixed_scales;
};

// roi/scales/sizes as values, each empty when absent (or given as an empty tensor).
struct ResizeArgs {
  std::vector<double> roi, scales;
  std::vector<int64_t> sizes;
};

// Output lengths, scales and roi per axis, validated against the input shape.
Result<std::vector<ResizeAxis>> plan_axes(const ResizeConfig& c, const std::vector<int64_t>& in,
                                          const ResizeArgs& args) {
  const size_t rank = in.size();
  const bool crop = c.coordinates == CoordinateMode::kTfCropAndResize;
  if (!args.sizes.empty() && !args.scales.empty())
    return invalid_argument("Resize takes scales or sizes, not both");
  if (args.sizes.empty() && args.scales.empty()) return invalid_argument("Resize needs scales or sizes");
  if (crop && !args.roi.empty() && args.roi.size() != 2 * rank)
    return invalid_argument("Resize roi has " + std::to_string(args.roi.size()) + " values, expected " +
                            std::to_string(2 * rank));
  const size_t given = args.sizes.empty() ? args.scales.size() : args.sizes.size();
  if (given != rank)
    return invalid_argument(std::string(args.sizes.empty() ? "scales" : "sizes") + " has " + std::to_string(given) +
                            " values for an input of rank " + std::to_string(rank));
  std::vector<ResizeAxis> axes(rank);
  for (size_t d = 0; d < rank; ++d) {
    ResizeAxis& a = axes[d];
    a.in = in[d];
    if (crop && !args.roi.empty()) {
      a.roi_start = args.roi[d];
      a.roi_end = args.roi[d + rank];
    }
    if (!args.sizes.empty()) {
      a.out = args.sizes[d];
      if (a.out < 0) return invalid_argument("Resize sizes " + shape_to_string(args.sizes) + " has a negative size");
      a.scale = a.in > 0 ? static_cast<double>(a.out) / static_cast<double>(a.in) : 1.0;
    } else {
      a.scale = args.scales[d];
      if (!(a.scale > 0) || std::isinf(a.scale))
        return invalid_argument("Resize scale " + std::to_string(a.scale) + " must be positive and finite");
      const double len = static_cast<double>(a.in) * a.scale * (crop ? a.roi_end - a.roi_start : 1.0);
      if (!(len >= 0 && len < 1e12))
        return invalid_argument("Resize output length " + std::to_string(len) + " is invalid");
      a.out = static_cast<int64_t>(std::floor(len));
    }
    if (a.in == 0 && a.out > 0) return invalid_argument("Resize cannot sample an empty axis");
  }
  return axes;
}

class ResizeKernel final : public OpKernel {
 public:
  ResizeKernel(ResizeConfig config, double extrapolation, ResizeInputs inputs)
      : config_(config), extrapolation_(extrapolation), inputs_(std::move(inputs)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    ir::Shape out(in->size());
    auto args = constant_args(ctx);
    if (args) {
      std::vector<int64_t> dims;  // unknown input dims: 1, then only trust a scale of 1
      for (const ir::Dim& d : *in) dims.push_back(d.known() ? d.value : 1);
      auto axes = plan_axes(config_, dims, *args);
      if (axes.is_ok()) {
        for (size_t d = 0; d < in->size(); ++d) {
          const ResizeAxis& a = (*axes)[d];
          if ((*in)[d].known() || !args->sizes.empty()) out[d] = ir::Dim::of(a.out);
          else if (a.scale == 1 && config_.coordinates != CoordinateMode::kTfCropAndResize) out[d] = (*in)[d];
        }
      }
    }
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(ResizeArgs args, run_args(ctx));
    ASSIGN_OR_RETURN(auto axes, plan_axes(config_, x->shape(), args));
    std::vector<int64_t> out_shape;
    for (const ResizeAxis& a : axes) out_shape.push_back(a.out);
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), out_shape));
    if (y->numel() == 0) return Status::ok();
    if (config_.mode != ResizeMode::kNearest)
      return tensor_ops::resize_interpolate(config_, axes, *x, *y, extrapolation_, ctx.mode() == Mode::kReference);
    std::vector<std::vector<int64_t>> maps;
    for (const ResizeAxis& a : axes) maps.push_back(tensor_ops::nearest_map(config_, a));
    ASSIGN_OR_RETURN(Tensor fill, tensor_ops::scalar_of_type(x->dtype(), extrapolation_));
    return tensor_ops::gather_by_axis_maps(x->dtype(), y->raw(), x->raw(), x->shape(), maps, fill.raw());
  }

 private:
  std::optional<ResizeArgs> constant_args(const InferContext& ctx) const {
    ResizeArgs args;
    const auto constant = [&](int i) -> const Tensor* {
      return i >= 0 && static_cast<size_t>(i) < ctx.constant_inputs.size() ? ctx.constant_inputs[static_cast<size_t>(i)]
                                                                            : nullptr;
    };
    const auto missing = [&](int i) { return i >= 0 && ctx.has_input(static_cast<size_t>(i)) && !constant(i); };
    if (missing(inputs_.scales) || missing(inputs_.sizes) ||
        (config_.coordinates == CoordinateMode::kTfCropAndResize && missing(inputs_.roi)))
      return std::nullopt;
    auto parsed = parse_args([&](int i) { return constant(i); });
    if (!parsed) return std::nullopt;
    return std::move(parsed).value();
  }

  Result<ResizeArgs> run_args(const RunContext& ctx) const {
    return parse_args([&](int i) -> const Tensor* {
      return i >= 0 && ctx.has_input(static_cast<size_t>(i)) ? &ctx.input(static_cast<size_t>(i)) : nullptr;
    });
  }

  // Reads roi/scales/sizes through `input(i)` (null when absent).
  template <class InputFn>
  Result<ResizeArgs> parse_args(InputFn input) const {
    ResizeArgs args;
    if (inputs_.fixed_scales) args.scales = *inputs_.fixed_scales;
    if (const Tensor* t = input(inputs_.scales)) {
      ASSIGN_OR_RETURN(args.scales, tensor_ops::read_doubles(*t, "Resize scales"));
    }
    if (const Tensor* t = input(inputs_.sizes)) {
      ASSIGN_OR_RETURN(args.sizes, tensor_ops::read_ints(*t, "Resize sizes"));
    }
    if (const Tensor* t = input(inputs_.roi); t && config_.coordinates == CoordinateMode::kTfCropAndResize) {
      ASSIGN_OR_RETURN(args.roi, tensor_ops::read_doubles(*t, "Resize roi"));
    }
    return args;
  }

  ResizeConfig config_;
  double extrapolation_;
  ResizeInputs inputs_;
};

Result<ResizeMode> parse_mode(const KernelInit& init) {
  ASSIGN_OR_RETURN(std::string mode, init.attr_string("mode", "nearest"));
  if (mode == "nearest") return ResizeMode::kNearest;
  if (mode == "linear" || (mode == "bilinear" && init.node.op_type == "Upsample")) return ResizeMode::kLinear;
  if (mode == "cubic" && init.node.op_type == "Resize" && init.opset >= 11) return ResizeMode::kCubic;
  return init.error("unknown mode '" + mode + "'");
}

Result<CoordinateMode> parse_coordinates(const KernelInit& init) {
  ASSIGN_OR_RETURN(std::string m, init.attr_string("coordinate_transformation_mode", "half_pixel"));
  if (m == "half_pixel") return CoordinateMode::kHalfPixel;
  if (m == "pytorch_half_pixel") return CoordinateMode::kPytorchHalfPixel;
  if (m == "align_corners") return CoordinateMode::kAlignCorners;
  if (m == "asymmetric") return CoordinateMode::kAsymmetric;
  if (m == "tf_half_pixel_for_nn") return CoordinateMode::kTfHalfPixelForNn;
  if (m == "tf_crop_and_resize") return CoordinateMode::kTfCropAndResize;
  return init.error("unknown coordinate_transformation_mode '" + m + "'");
}

Result<NearestMode> parse_nearest(const KernelInit& init) {
  ASSIGN_OR_RETURN(std::string m, init.attr_string("nearest_mode", "round_prefer_floor"));
  if (m == "round_prefer_floor") return NearestMode::kRoundPreferFloor;
  if (m == "round_prefer_ceil") return NearestMode::kRoundPreferCeil;
  if (m == "floor") return NearestMode::kFloor;
  if (m == "ceil") return NearestMode::kCeil;
  return init.error("unknown nearest_mode '" + m + "'");
}

// Resize-10 and Upsample sample at asymmetric coordinates with the "simple" nearest rule.
ResizeConfig legacy_config(ResizeMode mode) {
  ResizeConfig c;
  c.mode = mode;
  c.coordinates = CoordinateMode::kAsymmetric;
  c.nearest = NearestMode::kSimple;
  return c;
}

Result<std::unique_ptr<OpKernel>> create_resize(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Resize takes X and one output");
  ASSIGN_OR_RETURN(ResizeMode mode, parse_mode(init));
  if (init.opset < 11) {
    if (!init.has_input(1)) return init.error("Resize-10 needs the 'scales' input");
    return make_kernel<ResizeKernel>(legacy_config(mode), 0.0, ResizeInputs{-1, 1, -1, std::nullopt});
  }
  ASSIGN_OR_RETURN(int64_t antialias, init.attr_int("antialias", 0));
  ASSIGN_OR_RETURN(std::string policy, init.attr_string("keep_aspect_ratio_policy", "stretch"));
  if (antialias != 0 || init.has_attr("axes") || policy != "stretch")
    return init.unsupported("antialias, axes and keep_aspect_ratio_policy (opset 18) are not supported");
  ResizeConfig c;
  c.mode = mode;
  ASSIGN_OR_RETURN(c.coordinates, parse_coordinates(init));
  ASSIGN_OR_RETURN(c.nearest, parse_nearest(init));
  ASSIGN_OR_RETURN(float a, init.attr_float("cubic_coeff_a", -0.75f));
  ASSIGN_OR_RETURN(int64_t exclude, init.attr_int("exclude_outside", 0));
  ASSIGN_OR_RETURN(float extrapolation, init.attr_float("extrapolation_value", 0.0f));
  c.cubic_a = a;
  c.exclude_outside = exclude != 0;
  if (!init.has_input(2) && !init.has_input(3)) return init.error("Resize needs the 'scales' or 'sizes' input");
  return make_kernel<ResizeKernel>(c, extrapolation, ResizeInputs{1, 2, 3, std::nullopt});
}

Result<std::unique_ptr<OpKernel>> create_upsample(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Upsample takes X and one output");
  ASSIGN_OR_RETURN(ResizeMode mode, parse_mode(init));
  ResizeInputs inputs;
  if (init.opset >= 9) {
    if (!init.has_input(1)) return init.error("Upsample needs the 'scales' input");
    inputs.scales = 1;
  } else {
    if (!init.has_attr("scales")) return init.error("Upsample needs the 'scales' attribute");
    ASSIGN_OR_RETURN(auto scales, init.attr_floats("scales"));
    inputs.fixed_scales = std::vector<double>(scales.begin(), scales.end());
  }
  return make_kernel<ResizeKernel>(legacy_config(mode), 0.0, std::move(inputs));
}

}  // namespace

TWINRT_REGISTER_OP("Resize", 10, create_resize);
TWINRT_REGISTER_OP_EX("", "Upsample", 7, 9, "ref", 0, create_upsample);

}  // namespace twinrt
