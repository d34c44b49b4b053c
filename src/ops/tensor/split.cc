// Split: cuts a tensor along one axis into parts given by `split` (an attribute before
// opset 13, an input from 13) or into equal parts, one per output.
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class SplitKernel final : public OpKernel {
 public:
  SplitKernel(int64_t axis, size_t outputs, std::optional<std::vector<int64_t>> fixed_sizes,
              bool sizes_from_input)
      : axis_(axis), outputs_(outputs), fixed_sizes_(std::move(fixed_sizes)),
        sizes_from_input_(sizes_from_input) {}

  Status infer(InferContext& ctx) const override {
    const size_t n = ctx.output_types.size();
    for (size_t i = 0; i < n; ++i) ctx.set_output(i, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, static_cast<int64_t>(in->size()), "Split axis"));
    const ir::Dim& len = (*in)[static_cast<size_t>(axis)];
    std::optional<std::vector<int64_t>> sizes = fixed_sizes_;
    if (sizes_from_input_) sizes = tensor_ops::constant_ints(ctx.constant_inputs, 1);
    const bool equal = sizes ? sizes->empty() : !sizes_from_input_;
    std::optional<std::vector<int64_t>> parts;
    if (sizes && !equal) {
      ASSIGN_OR_RETURN(parts, checked_sizes(*sizes, len.known() ? len.value : -1));
    } else if (len.known() && equal) {
      ASSIGN_OR_RETURN(parts, equal_parts(len.value, outputs_));
    }
    for (size_t i = 0; i < n; ++i) {
      ir::Shape out = *in;
      out[static_cast<size_t>(axis)] = parts ? ir::Dim::of((*parts)[i]) : ir::Dim{};
      ctx.set_output(i, ctx.dtype(0), std::move(out));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, x->rank(), "Split axis"));
    const int64_t len = x->dim(axis);
    std::vector<int64_t> sizes, parts;
    if (fixed_sizes_) {
      sizes = *fixed_sizes_;
    } else if (sizes_from_input_) {
      ASSIGN_OR_RETURN(sizes, tensor_ops::input_ints(ctx, 1, "Split 'split' input"));
    }
    if (sizes.empty()) {  // no sizes (or an empty list): equal parts
      ASSIGN_OR_RETURN(parts, equal_parts(len, outputs_));
    } else {
      ASSIGN_OR_RETURN(parts, checked_sizes(sizes, len));
    }
    tensor_ops::AxisBlock block = tensor_ops::axis_block(x->shape(), static_cast<size_t>(axis));
    int64_t offset = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      std::vector<int64_t> shape = x->shape();
      shape[static_cast<size_t>(axis)] = parts[i];
      ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(i, x->dtype(), shape));  // the block copy fills it
      block.dst_axis = parts[i];
      tensor_ops::copy_axis_block(x->dtype(), block, y->raw(), 0, x->raw(), offset, parts[i]);
      offset += parts[i];
    }
    return Status::ok();
  }

 private:
  // Validates explicit sizes against the output count and (when known, >= 0) the axis length.
  Result<std::vector<int64_t>> checked_sizes(const std::vector<int64_t>& sizes, int64_t len) const {
    if (sizes.size() != outputs_)
      return invalid_argument("split has " + std::to_string(sizes.size()) + " sizes for " +
                              std::to_string(outputs_) + " outputs");
    int64_t total = 0;
    for (int64_t s : sizes) {
      if (s < 0) return invalid_argument("split sizes " + shape_to_string(sizes) + " contain a negative size");
      if (__builtin_add_overflow(total, s, &total))
        return invalid_argument("split sizes " + shape_to_string(sizes) + " overflow");
    }
    if (len >= 0 && total != len)
      return invalid_argument("split sizes " + shape_to_string(sizes) + " sum to " + std::to_string(total) +
                              ", the axis has length " + std::to_string(len));
    return sizes;
  }

  // Equal parts; when the length does not divide, every part but the last has
  // ceil(len / n) elements (as opset 18 defines it).
  static Result<std::vector<int64_t>> equal_parts(int64_t len, size_t n) {
    const int64_t count = static_cast<int64_t>(n);
    const int64_t chunk = (len + count - 1) / count;
    std::vector<int64_t> parts(n, chunk);
    parts.back() = len - chunk * (count - 1);
    if (parts.back() < 0)
      return invalid_argument("cannot split an axis of length " + std::to_string(len) + " into " +
                              std::to_string(n) + " parts");
    return parts;
  }

  int64_t axis_;
  size_t outputs_;
  std::optional<std::vector<int64_t>> fixed_sizes_;
  bool sizes_from_input_;
};

Result<std::unique_ptr<OpKernel>> create_split(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() == 0) return init.error("Split takes data and at least one output");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  std::optional<std::vector<int64_t>> sizes;
  if (init.has_attr("split")) {
    ASSIGN_OR_RETURN(sizes, init.attr_ints("split"));
  }
  const bool from_input = !sizes && init.has_input(1);
  return make_kernel<SplitKernel>(axis, init.num_outputs(), std::move(sizes), from_input);
}

}  // namespace

TWINRT_REGISTER_OP("Split", 1, create_split);

}  // namespace twinrt
