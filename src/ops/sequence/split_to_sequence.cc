// SplitToSequence: splits a tensor along `axis` into a sequence, by a chunk size (scalar
// `split`, last chunk smaller), by explicit lengths (1-D `split`), or into single slices
// (no `split`; keepdims=0 then drops the axis).
#include <algorithm>

#include "ops/control/axis_blocks.h"
#include "ops/sequence/sequence_util.h"

namespace twinrt {
namespace {

class SplitToSequenceKernel final : public OpKernel {
 public:
  SplitToSequenceKernel(int64_t axis, bool keepdims) : axis_(axis), keepdims_(keepdims) {}

  Status infer(InferContext& ctx) const override {
    ctx.output_types[0] = sequence_type(ctx.dtype(0));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, x->rank(), "axis"));
    const int64_t dim = x->dim(axis);
    std::vector<int64_t> lengths;
    bool keep_axis = true;
    if (!ctx.has_input(1)) {
      lengths.assign(static_cast<size_t>(dim), 1);
      keep_axis = keepdims_;
    } else {
      ASSIGN_OR_RETURN(lengths, split_lengths(ctx, dim));
    }
    std::vector<Tensor> parts;
    int64_t start = 0;
    for (int64_t len : lengths) {
      ASSIGN_OR_RETURN(Tensor part, slice_axis(*x, axis, start, len, keep_axis));
      parts.push_back(std::move(part));
      start += len;
    }
    ctx.set_output(0, Value::of_sequence(std::move(parts), x->dtype()));
    return Status::ok();
  }

 private:
  static Result<std::vector<int64_t>> split_lengths(const RunContext& ctx, int64_t dim) {
    ASSIGN_OR_RETURN(const Tensor* split, ctx.tensor_input(1));
    if (split->dtype() != DataType::kInt64 && split->dtype() != DataType::kInt32)
      return invalid_argument(std::string("split must be int32 or int64, got ") + dtype_name(split->dtype()));
    if (split->rank() > 1) return invalid_argument("split must be a scalar or 1-D, got shape " + shape_to_string(split->shape()));
    std::vector<int64_t> values;
    for (int64_t i = 0; i < split->numel(); ++i)
      values.push_back(split->dtype() == DataType::kInt64 ? split->data<int64_t>()[i] : split->data<int32_t>()[i]);
    if (split->rank() == 0) {
      const int64_t chunk = values[0];
      if (chunk <= 0) return invalid_argument("split chunk size must be positive, got " + std::to_string(chunk));
      std::vector<int64_t> lengths;
      for (int64_t start = 0; start < dim;) {
        lengths.push_back(std::min(chunk, dim - start));
        start += lengths.back();
      }
      return lengths;
    }
    int64_t total = 0;
    for (int64_t v : values) {
      if (v < 0 || v > dim - total)
        return invalid_argument("split lengths must be non-negative and sum to the axis size " + std::to_string(dim));
      total += v;
    }
    if (total != dim)
      return invalid_argument("split lengths sum to " + std::to_string(total) + ", the axis has " + std::to_string(dim));
    return values;
  }

  int64_t axis_;
  bool keepdims_;
};

Result<std::unique_ptr<OpKernel>> create_split_to_sequence(const KernelInit& init) {
  if (init.num_inputs() < 1 || init.num_inputs() > 2 || !init.has_input(0))
    return init.error("takes an input tensor and an optional split");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  ASSIGN_OR_RETURN(int64_t keepdims, init.attr_int("keepdims", 1));
  if (keepdims != 0 && keepdims != 1) return init.error("attribute 'keepdims' must be 0 or 1, got " + std::to_string(keepdims));
  return make_kernel<SplitToSequenceKernel>(axis, keepdims == 1);
}

}  // namespace

TWINRT_REGISTER_OP("SplitToSequence", 11, create_split_to_sequence);

}  // namespace twinrt
