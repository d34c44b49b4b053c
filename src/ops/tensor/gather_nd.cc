// GatherND: each row of the last indices dimension picks a slice of data; batch_dims
// leading dimensions are shared by data and indices (opset 12).
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/indexing.h"

namespace twinrt {
namespace {

class GatherNdKernel final : public OpKernel {
 public:
  explicit GatherNdKernel(int64_t batch_dims) : batch_dims_(batch_dims) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* data = ctx.shape(0);
    const ir::Shape* indices = ctx.shape(1);
    if (!data || !indices || indices->empty() || !indices->back().known()) return Status::ok();
    const int64_t k = indices->back().value;
    const int64_t rest = static_cast<int64_t>(data->size()) - batch_dims_ - k;
    if (rest < 0)
      return invalid_model("GatherND index rows have " + std::to_string(k) + " coordinates for data of rank " +
                           std::to_string(data->size()) + " with batch_dims " + std::to_string(batch_dims_));
    ir::Shape out(indices->begin(), indices->end() - 1);
    out.insert(out.end(), data->end() - rest, data->end());
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* data, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(auto slices, tensor_ops::nd_slices(*data, *indices, batch_dims_, "GatherND"));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, data->dtype(), slices.out_shape));
    const DataType dt = data->dtype();
    for (size_t i = 0; i < slices.offsets.size(); ++i)
      tensor_ops::copy_elements(dt, tensor_ops::element_ptr(*y, static_cast<int64_t>(i) * slices.slice_size),
                                tensor_ops::element_ptr(*data, slices.offsets[i]), slices.slice_size);
    return Status::ok();
  }

 private:
  int64_t batch_dims_;
};

Result<std::unique_ptr<OpKernel>> create_gather_nd(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("GatherND takes data, indices and one output");
  ASSIGN_OR_RETURN(int64_t batch_dims, init.attr_int("batch_dims", 0));
  if (batch_dims < 0) return init.error("batch_dims must be >= 0, got " + std::to_string(batch_dims));
  return make_kernel<GatherNdKernel>(batch_dims);
}

}  // namespace

TWINRT_REGISTER_OP("GatherND", 11, create_gather_nd);

}  // namespace twinrt
