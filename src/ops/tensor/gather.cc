// Gather (whole slices picked by an index tensor along one axis) and GatherElements
// (one element per index, the index replacing the coordinate along the axis).
// Every index is checked; negative indices count from the end.
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/indexing.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

using tensor_ops::checked_index;
using tensor_ops::normalize_axis;

class GatherKernel final : public OpKernel {
 public:
  explicit GatherKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* data = ctx.shape(0);
    const ir::Shape* indices = ctx.shape(1);
    if (!data || !indices) return Status::ok();
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, static_cast<int64_t>(data->size()), "Gather axis"));
    ir::Shape out(data->begin(), data->begin() + axis);
    out.insert(out.end(), indices->begin(), indices->end());
    out.insert(out.end(), data->begin() + axis + 1, data->end());
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* data, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(1));
    TRY(tensor_ops::check_indices_dtype(*indices, "Gather"));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, data->rank(), "Gather axis"));
    ASSIGN_OR_RETURN(auto idx, tensor_ops::read_ints(*indices, "Gather indices"));
    const int64_t len = data->dim(axis);
    for (int64_t& i : idx) {
      ASSIGN_OR_RETURN(i, checked_index(i, len, "Gather index"));
    }
    std::vector<int64_t> shape(data->shape().begin(), data->shape().begin() + axis);
    shape.insert(shape.end(), indices->shape().begin(), indices->shape().end());
    shape.insert(shape.end(), data->shape().begin() + axis + 1, data->shape().end());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, data->dtype(), shape));
    tensor_ops::AxisBlock block = tensor_ops::axis_block(data->shape(), static_cast<size_t>(axis));
    block.dst_axis = static_cast<int64_t>(idx.size());
    for (size_t k = 0; k < idx.size(); ++k)
      tensor_ops::copy_axis_block(data->dtype(), block, y->raw(), static_cast<int64_t>(k), data->raw(), idx[k], 1);
    return Status::ok();
  }

 private:
  int64_t axis_;
};

class GatherElementsKernel final : public OpKernel {
 public:
  explicit GatherElementsKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* indices = ctx.shape(1);
    ctx.set_output(0, ctx.dtype(0), indices ? std::optional<ir::Shape>(*indices) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* data, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(1));
    TRY(tensor_ops::check_indices_dtype(*indices, "GatherElements"));
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, data->rank(), "GatherElements axis"));
    TRY(tensor_ops::check_element_shapes(*data, *indices, axis, "GatherElements"));
    ASSIGN_OR_RETURN(auto idx, tensor_ops::read_ints(*indices, "GatherElements indices"));
    ASSIGN_OR_RETURN(auto offsets,
                     tensor_ops::element_offsets(*data, indices->shape(), idx, axis, "GatherElements index"));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, data->dtype(), indices->shape()));
    return tensor_ops::dispatch_by_size(data->dtype(), [&](auto* tag) {
      using E = std::remove_pointer_t<decltype(tag)>;
      const E* src = data->data<E>();
      E* dst = y->data<E>();
      for (size_t i = 0; i < offsets.size(); ++i) dst[i] = src[offsets[i]];
      return Status::ok();
    });
  }

 private:
  int64_t axis_;
};

Result<std::unique_ptr<OpKernel>> create_gather(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("Gather takes data, indices and one output");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  return make_kernel<GatherKernel>(axis);
}

Result<std::unique_ptr<OpKernel>> create_gather_elements(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("GatherElements takes data, indices and one output");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  return make_kernel<GatherElementsKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_OP("Gather", 1, create_gather);
TWINRT_REGISTER_OP("GatherElements", 11, create_gather_elements);

}  // namespace twinrt
