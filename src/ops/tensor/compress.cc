// Compress: keeps the slices along `axis` (or, without an axis, the elements of the
// flattened input) whose condition entry is true. A condition shorter than the axis
// drops the rest.
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class CompressKernel final : public OpKernel {
 public:
  explicit CompressKernel(std::optional<int64_t> axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!axis_) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(1));
    } else if (in) {
      ASSIGN_OR_RETURN(int64_t axis,
                       tensor_ops::normalize_axis(*axis_, static_cast<int64_t>(in->size()), "Compress axis"));
      ir::Shape out = *in;
      out[static_cast<size_t>(axis)] = ir::Dim{};
      ctx.set_output(0, ctx.dtype(0), std::move(out));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* cond, ctx.tensor_input(1));
    if (cond->dtype() != DataType::kBool || cond->rank() != 1)
      return invalid_argument("Compress condition must be a 1-D bool tensor, got " +
                              std::string(dtype_name(cond->dtype())) + shape_to_string(cond->shape()));
    // Without an axis the input is treated as flat.
    const std::vector<int64_t> shape = axis_ ? x->shape() : std::vector<int64_t>{x->numel()};
    int64_t axis = 0;
    if (axis_) {
      ASSIGN_OR_RETURN(axis, tensor_ops::normalize_axis(*axis_, x->rank(), "Compress axis"));
    }
    const int64_t len = shape[static_cast<size_t>(axis)];
    if (cond->numel() > len)
      return invalid_argument("Compress condition has " + std::to_string(cond->numel()) +
                              " entries, the axis only " + std::to_string(len));
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < cond->numel(); ++i)
      if (cond->data<bool>()[i]) kept.push_back(i);
    std::vector<int64_t> out_shape = shape;
    out_shape[static_cast<size_t>(axis)] = static_cast<int64_t>(kept.size());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), out_shape));
    tensor_ops::AxisBlock block = tensor_ops::axis_block(shape, static_cast<size_t>(axis));
    block.dst_axis = static_cast<int64_t>(kept.size());
    for (size_t k = 0; k < kept.size(); ++k)
      tensor_ops::copy_axis_block(x->dtype(), block, y->raw(), static_cast<int64_t>(k), x->raw(), kept[k], 1);
    return Status::ok();
  }

 private:
  std::optional<int64_t> axis_;
};

Result<std::unique_ptr<OpKernel>> create_compress(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("Compress takes input, condition and one output");
  std::optional<int64_t> axis;
  if (init.has_attr("axis")) {
    ASSIGN_OR_RETURN(axis, init.attr_int("axis", 0));
  }
  return make_kernel<CompressKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_OP("Compress", 9, create_compress);

}  // namespace twinrt
