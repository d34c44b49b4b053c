// Pad: adds (or, with negative pads, removes) elements at both ends of each axis, filled
// with a constant, the edge value or the mirror image (reflect). Before opset 11 pads and
// value are attributes ('paddings' in opset 1); from 11 they are inputs, and from 18 an
// `axes` input may name the padded axes.
#include <algorithm>
#include <climits>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

enum class PadMode { kConstant, kReflect, kEdge };

// Source coordinate of output coordinate i along an axis of length n padded by `begin`
// at the start; -1 for the constant fill.
int64_t source_coordinate(int64_t i, int64_t begin, int64_t n, PadMode mode) {
  int64_t s = i - begin;
  if (s >= 0 && s < n) return s;
  switch (mode) {
    case PadMode::kConstant: return -1;
    case PadMode::kEdge: return s < 0 ? 0 : n - 1;
    case PadMode::kReflect: {
      if (n == 1) return 0;
      const int64_t period = 2 * (n - 1);
      s %= period;
      if (s < 0) s += period;
      return s < n ? s : period - s;
    }
  }
  return -1;
}

// Pads per axis as (begin, end), from the flat [begins..., ends...] list over `axes`.
Result<std::vector<std::pair<int64_t, int64_t>>> pads_per_axis(const std::vector<int64_t>& pads,
                                                               const std::optional<std::vector<int64_t>>& axes,
                                                               int64_t rank) {
  std::vector<int64_t> ax;
  if (axes) {
    ASSIGN_OR_RETURN(ax, tensor_ops::normalize_axes(*axes, rank, "Pad axis"));
  } else {
    for (int64_t d = 0; d < rank; ++d) ax.push_back(d);
  }
  if (pads.size() != 2 * ax.size())
    return invalid_argument("Pad pads " + shape_to_string(pads) + " should have " + std::to_string(2 * ax.size()) +
                            " entries (begin and end per padded axis)");
  for (int64_t p : pads)
    if (p < -INT32_MAX || p > INT32_MAX) return invalid_argument("Pad pad " + std::to_string(p) + " is too large");
  std::vector<std::pair<int64_t, int64_t>> out(static_cast<size_t>(rank), {0, 0});
  for (size_t i = 0; i < ax.size(); ++i) out[static_cast<size_t>(ax[i])] = {pads[i], pads[i + ax.size()]};
  return out;
}

struct PadArgs {
  std::vector<int64_t> pads;
  std::optional<std::vector<int64_t>> axes;
};

class PadKernel final : public OpKernel {
 public:
  PadKernel(PadMode mode, std::optional<PadArgs> fixed, double fixed_value)
      : mode_(mode), fixed_(std::move(fixed)), fixed_value_(fixed_value) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) {  // without axes, pads has two entries per dim
      std::optional<int64_t> pads =
          fixed_ ? std::optional<int64_t>(fixed_->pads.size()) : tensor_ops::static_length(ctx, 1);
      if (pads && !ctx.has_input(3)) ctx.set_output(0, ctx.dtype(0), ir::Shape(static_cast<size_t>(*pads / 2)));
      return Status::ok();
    }
    std::optional<PadArgs> args = fixed_;
    if (!args) {
      auto pads = tensor_ops::constant_ints(ctx.constant_inputs, 1);
      auto axes = tensor_ops::constant_ints(ctx.constant_inputs, 3);
      if (pads && (axes || !ctx.has_input(3))) args = PadArgs{*pads, axes};
    }
    if (!args) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(in->size()));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(auto per_axis, pads_per_axis(args->pads, args->axes, static_cast<int64_t>(in->size())));
    ir::Shape out = *in;
    for (size_t d = 0; d < out.size(); ++d) {
      const int64_t add = per_axis[d].first + per_axis[d].second;
      if (out[d].known() && add > 0 && out[d].value > INT64_MAX - add) {
        out[d] = ir::Dim{};
      } else if (out[d].known()) {
        if (out[d].value + add < 0)
          return invalid_model("Pad removes more than axis " + std::to_string(d) + " holds");
        out[d] = ir::Dim::of(out[d].value + add);
      } else if (add != 0) {
        out[d] = ir::Dim{};
      }
    }
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    PadArgs args;
    if (fixed_) {
      args = *fixed_;
    } else {
      ASSIGN_OR_RETURN(args.pads, tensor_ops::input_ints(ctx, 1, "Pad 'pads' input"));
      if (ctx.has_input(3)) {
        ASSIGN_OR_RETURN(args.axes, tensor_ops::input_ints(ctx, 3, "Pad 'axes' input"));
      }
    }
    ASSIGN_OR_RETURN(auto per_axis, pads_per_axis(args.pads, args.axes, x->rank()));
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < x->rank(); ++d) {
      const auto [begin, end] = per_axis[static_cast<size_t>(d)];
      const int64_t n = x->dim(d);
      if (n + begin + end < 0)
        return invalid_argument("Pad pads " + shape_to_string(args.pads) + " do not fit input shape " +
                                shape_to_string(x->shape()));
      if (mode_ != PadMode::kConstant && n == 0 && n + begin + end > 0)
        return invalid_argument("Pad cannot extend the empty axis " + std::to_string(d) + " in edge/reflect mode");
      out_shape.push_back(n + begin + end);
    }
    ASSIGN_OR_RETURN(Tensor fill, fill_value(ctx, x->dtype()));
    // No padding at all (PyTorch exports one before some pools): the output is the input,
    // shared as Identity shares it, not copied.
    if (std::all_of(per_axis.begin(), per_axis.end(), [](const auto& p) { return p.first == 0 && p.second == 0; })) {
      ctx.set_output(0, *ctx.input_value(0));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), out_shape));
    if (y->numel() == 0) return Status::ok();
    std::vector<std::vector<int64_t>> maps;
    for (int64_t d = 0; d < x->rank(); ++d) {
      std::vector<int64_t> map(static_cast<size_t>(out_shape[static_cast<size_t>(d)]));
      for (size_t i = 0; i < map.size(); ++i)
        map[i] = source_coordinate(static_cast<int64_t>(i), per_axis[static_cast<size_t>(d)].first, x->dim(d), mode_);
      maps.push_back(std::move(map));
    }
    return tensor_ops::gather_by_axis_maps(x->dtype(), y->raw(), x->raw(), x->shape(), maps, fill.raw());
  }

 private:
  // The constant fill as a one-element tensor of the data type.
  Result<Tensor> fill_value(const RunContext& ctx, DataType dt) const {
    if (fixed_ || !ctx.has_input(2)) return tensor_ops::scalar_of_type(dt, fixed_value_);
    ASSIGN_OR_RETURN(const Tensor* v, ctx.tensor_input(2));
    if (v->numel() == 0) return tensor_ops::scalar_of_type(dt, 0);
    if (v->dtype() != dt || v->numel() != 1)
      return invalid_argument("Pad constant_value must be one " + std::string(dtype_name(dt)) + " value, got " +
                              dtype_name(v->dtype()) + shape_to_string(v->shape()));
    return *v;
  }

  PadMode mode_;
  std::optional<PadArgs> fixed_;  // opset < 11
  double fixed_value_;
};

Result<std::unique_ptr<OpKernel>> create_pad(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Pad takes data and one output");
  ASSIGN_OR_RETURN(std::string mode_name, init.attr_string("mode", "constant"));
  PadMode mode;
  if (mode_name == "constant") mode = PadMode::kConstant;
  else if (mode_name == "reflect") mode = PadMode::kReflect;
  else if (mode_name == "edge") mode = PadMode::kEdge;
  else return init.error("unknown mode '" + mode_name + "' (expected constant, reflect or edge)");
  if (init.opset >= 11) {
    if (!init.has_input(1)) return init.error("Pad needs the 'pads' input");
    return make_kernel<PadKernel>(mode, std::nullopt, 0.0);
  }
  const char* pads_name = init.has_attr("paddings") ? "paddings" : "pads";
  if (!init.has_attr(pads_name)) return init.error("Pad before opset 11 needs the 'pads' attribute");
  PadArgs args;
  ASSIGN_OR_RETURN(args.pads, init.attr_ints(pads_name));
  ASSIGN_OR_RETURN(float value, init.attr_float("value", 0.0f));
  return make_kernel<PadKernel>(mode, std::move(args), static_cast<double>(value));
}

}  // namespace

TWINRT_REGISTER_OP("Pad", 1, create_pad);

}  // namespace twinrt
