// Slice: a strided sub-range per axis. starts/ends/axes are attributes before opset 10;
// from 10 on they and `steps` are inputs. Out-of-range bounds are clamped as the spec
// says; a slice that is contiguous in memory is returned as a view.
#include <algorithm>
#include <climits>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

using tensor_ops::constant_ints;

struct SliceArgs {
  std::vector<int64_t> starts, ends;
  std::optional<std::vector<int64_t>> axes, steps;
};

// One axis of the result: first source coordinate, step and length.
struct AxisRange {
  int64_t start = 0, step = 1, length = 0;
};

// Clamps start/end to the axis as the spec defines (negative values count from the end).
AxisRange clamp_range(int64_t start, int64_t end, int64_t step, int64_t n) {
  AxisRange r;
  r.step = step;
  if (n == 0) return r;
  if (start < 0) start += n;
  if (end < 0) end += n;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, 0, n);
    r.length = end > start ? 1 + (end - start - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, n - 1);
    end = std::clamp<int64_t>(end, -1, n - 1);
    const int64_t magnitude = step == INT64_MIN ? INT64_MAX : -step;
    r.length = start > end ? 1 + (start - end - 1) / magnitude : 0;
  }
  r.start = r.length > 0 ? start : 0;
  if (r.length <= 1) r.step = 1;  // a single element: the step does not matter
  return r;
}

// Checks the argument lists and returns, per sliced axis, (axis, start, end, step).
struct AxisSlice {
  int64_t axis, start, end, step;
};
Result<std::vector<AxisSlice>> axis_slices(const SliceArgs& a, int64_t rank) {
  const size_t n = a.starts.size();
  if (a.ends.size() != n || (a.axes && a.axes->size() != n) || (a.steps && a.steps->size() != n))
    return invalid_argument("Slice starts, ends, axes and steps must have the same length (got " +
                            std::to_string(n) + ", " + std::to_string(a.ends.size()) +
                            (a.axes ? ", " + std::to_string(a.axes->size()) : std::string()) +
                            (a.steps ? ", " + std::to_string(a.steps->size()) : std::string()) + ")");
  std::vector<int64_t> axes(n);
  for (size_t i = 0; i < n; ++i) axes[i] = a.axes ? (*a.axes)[i] : static_cast<int64_t>(i);
  ASSIGN_OR_RETURN(axes, tensor_ops::normalize_axes(axes, rank, "Slice axis"));
  std::vector<AxisSlice> out;
  for (size_t i = 0; i < n; ++i) {
    const int64_t step = a.steps ? (*a.steps)[i] : 1;
    if (step == 0) return invalid_argument("Slice step must not be 0");
    out.push_back({axes[i], a.starts[i], a.ends[i], step});
  }
  return out;
}

// Whether a slice keeps every element of an axis of any length, in order or reversed
// (bounds beyond INT32_MAX are the usual way to say "to the end").
bool covers_whole_axis(const AxisSlice& s) {
  const bool from_first = s.start == 0 || s.start <= INT64_MIN / 2;
  if (s.step == 1) return from_first && s.end >= INT32_MAX;
  if (s.step == -1) return s.start >= INT32_MAX && s.end <= INT64_MIN / 2;
  return false;
}

class SliceKernel final : public OpKernel {
 public:
  explicit SliceKernel(std::optional<SliceArgs> fixed) : fixed_(std::move(fixed)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    auto args = fixed_ ? fixed_ : constant_args(ctx);
    if (!args) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(in->size()));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(auto slices, axis_slices(*args, static_cast<int64_t>(in->size())));
    ir::Shape out = *in;
    for (const AxisSlice& s : slices) {
      ir::Dim& d = out[static_cast<size_t>(s.axis)];
      if (d.known()) d = ir::Dim::of(clamp_range(s.start, s.end, s.step, d.value).length);
      else if (!covers_whole_axis(s)) d = ir::Dim{};
    }
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    SliceArgs args;
    if (fixed_) {
      args = *fixed_;
    } else {
      ASSIGN_OR_RETURN(args, run_args(ctx));
    }
    ASSIGN_OR_RETURN(auto slices, axis_slices(args, x->rank()));
    std::vector<AxisRange> ranges(static_cast<size_t>(x->rank()));
    for (int64_t d = 0; d < x->rank(); ++d) ranges[static_cast<size_t>(d)] = {0, 1, x->dim(d)};
    for (const AxisSlice& s : slices)
      ranges[static_cast<size_t>(s.axis)] = clamp_range(s.start, s.end, s.step, x->dim(s.axis));

    const std::vector<int64_t> in_strides = tensor_ops::row_major_strides(x->shape());
    std::vector<int64_t> shape, strides;
    int64_t offset = 0;
    for (size_t d = 0; d < ranges.size(); ++d) {
      shape.push_back(ranges[d].length);
      strides.push_back(in_strides[d] * ranges[d].step);
      offset += ranges[d].start * in_strides[d];
    }
    if (shape_numel(shape) > 0 && is_contiguous(x->shape(), ranges)) {
      ASSIGN_OR_RETURN(Tensor y, Tensor::view(x->dtype(), shape, x->storage(),
                                              x->byte_offset() + static_cast<size_t>(offset) * dtype_size(x->dtype())));
      ctx.set_output(0, Value::of(std::move(y)));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), shape));
    if (y->numel() == 0) return Status::ok();
    return tensor_ops::copy_strided(x->dtype(), y->raw(), tensor_ops::element_ptr(*x, offset), shape, strides);
  }

 private:
  // True when the selected elements form one run in memory: leading axes of length 1,
  // then one axis with step 1, then whole axes.
  static bool is_contiguous(const std::vector<int64_t>& shape, const std::vector<AxisRange>& ranges) {
    size_t d = 0;
    while (d < ranges.size() && ranges[d].length == 1) ++d;
    if (d < ranges.size() && ranges[d].step != 1) return false;
    for (++d; d < ranges.size(); ++d)
      if (ranges[d].length != shape[d] || ranges[d].step != 1) return false;
    return true;
  }

  static std::optional<SliceArgs> constant_args(const InferContext& ctx) {
    SliceArgs a;
    auto starts = constant_ints(ctx.constant_inputs, 1);
    auto ends = constant_ints(ctx.constant_inputs, 2);
    if (!starts || !ends) return std::nullopt;
    a.starts = *starts;
    a.ends = *ends;
    if (ctx.has_input(3) && !(a.axes = constant_ints(ctx.constant_inputs, 3))) return std::nullopt;
    if (ctx.has_input(4) && !(a.steps = constant_ints(ctx.constant_inputs, 4))) return std::nullopt;
    return a;
  }

  static Result<SliceArgs> run_args(const RunContext& ctx) {
    SliceArgs a;
    ASSIGN_OR_RETURN(a.starts, tensor_ops::input_ints(ctx, 1, "Slice 'starts'"));
    ASSIGN_OR_RETURN(a.ends, tensor_ops::input_ints(ctx, 2, "Slice 'ends'"));
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(a.axes, tensor_ops::input_ints(ctx, 3, "Slice 'axes'"));
    }
    if (ctx.has_input(4)) {
      ASSIGN_OR_RETURN(a.steps, tensor_ops::input_ints(ctx, 4, "Slice 'steps'"));
    }
    return a;
  }

  std::optional<SliceArgs> fixed_;  // opset < 10
};

Result<std::unique_ptr<OpKernel>> create_slice(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Slice takes data and one output");
  if (init.opset >= 10) {
    if (!init.has_input(1) || !init.has_input(2)) return init.error("Slice needs the 'starts' and 'ends' inputs");
    return make_kernel<SliceKernel>(std::nullopt);
  }
  if (!init.has_attr("starts") || !init.has_attr("ends"))
    return init.error("Slice before opset 10 needs the 'starts' and 'ends' attributes");
  SliceArgs args;
  ASSIGN_OR_RETURN(args.starts, init.attr_ints("starts"));
  ASSIGN_OR_RETURN(args.ends, init.attr_ints("ends"));
  if (init.has_attr("axes")) {
    ASSIGN_OR_RETURN(args.axes, init.attr_ints("axes"));
  }
  return make_kernel<SliceKernel>(std::move(args));
}

}  // namespace

TWINRT_REGISTER_OP("Slice", 1, create_slice);

}  // namespace twinrt
