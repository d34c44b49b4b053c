// Concat: joins tensors along one axis; every other dimension must match.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/symbolic_shape.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class ConcatKernel final : public OpKernel {
 public:
  explicit ConcatKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    const size_t n = ctx.node.inputs.size();
    DataType dt = DataType::kUndefined;
    const ir::Shape* first = nullptr;
    for (size_t i = 0; i < n; ++i) {
      if (dt == DataType::kUndefined) dt = ctx.dtype(i);
      if (!first) first = ctx.shape(i);
    }
    ctx.set_output(0, dt);
    if (!first) return Status::ok();
    const int64_t rank = static_cast<int64_t>(first->size());
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, rank, "Concat axis"));
    ir::Shape out = *first;
    int64_t axis_sum = 0;
    bool axis_known = true;
    for (size_t i = 0; i < n; ++i) {
      const ir::Shape* s = ctx.shape(i);
      if (!s) {
        axis_known = false;
        continue;
      }
      if (static_cast<int64_t>(s->size()) != rank)
        return invalid_model("Concat input " + std::to_string(i) + " has rank " + std::to_string(s->size()) +
                             ", input 0 has rank " + std::to_string(rank));
      for (int64_t d = 0; d < rank; ++d) {
        const ir::Dim& dim = (*s)[static_cast<size_t>(d)];
        ir::Dim& o = out[static_cast<size_t>(d)];
        if (d == axis) {
          axis_known = axis_known && dim.known() && !__builtin_add_overflow(axis_sum, dim.value, &axis_sum);
        } else if (o.known() && dim.known() && o.value != dim.value) {
          return invalid_model("Concat input " + std::to_string(i) + " has shape " + ir::shape_to_string(*s) +
                               ", incompatible with " + ir::shape_to_string(out) + " outside axis " +
                               std::to_string(axis));
        } else {
          o = tensor_ops::merge_dim(o, dim);
        }
      }
    }
    out[static_cast<size_t>(axis)] = axis_known ? ir::Dim::of(axis_sum) : ir::Dim{};
    if (n == 1) out[static_cast<size_t>(axis)] = (*first)[static_cast<size_t>(axis)];
    ctx.set_output(0, dt, std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    const size_t n = ctx.num_inputs();
    std::vector<const Tensor*> xs;
    for (size_t i = 0; i < n; ++i) {
      ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(i));
      xs.push_back(x);
    }
    const Tensor& x0 = *xs[0];
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, x0.rank(), "Concat axis"));
    std::vector<int64_t> out_shape = x0.shape();
    out_shape[static_cast<size_t>(axis)] = 0;
    for (size_t i = 0; i < n; ++i) {
      const Tensor& x = *xs[i];
      bool same = x.dtype() == x0.dtype() && x.rank() == x0.rank();
      for (int64_t d = 0; same && d < x0.rank(); ++d) same = d == axis || x.dim(d) == x0.dim(d);
      if (!same)
        return invalid_argument("Concat input " + std::to_string(i) + " (" + dtype_name(x.dtype()) +
                                shape_to_string(x.shape()) + ") does not match input 0 (" +
                                dtype_name(x0.dtype()) + shape_to_string(x0.shape()) + ") outside axis " +
                                std::to_string(axis));
      out_shape[static_cast<size_t>(axis)] += x.dim(axis);
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x0.dtype(), out_shape));
    tensor_ops::AxisBlock block = tensor_ops::axis_block(out_shape, static_cast<size_t>(axis));
    const size_t part_bytes = static_cast<size_t>(block.inner) * dtype_size(x0.dtype());  // per index along the axis
    int64_t offset = 0;
    for (const Tensor* x : xs) {
      block.src_axis = x->dim(axis);
      // The arena may have placed an input where it belongs in y already (ArenaRecorder::finish).
      const bool in_place = block.outer == 1 && x->raw() == static_cast<const std::byte*>(y->raw()) + offset * part_bytes;
      if (!in_place) tensor_ops::copy_axis_block(x0.dtype(), block, y->raw(), offset, x->raw(), 0, block.src_axis);
      offset += block.src_axis;
    }
    return Status::ok();
  }

  bool output_is_inputs_in_order(const std::vector<int64_t>& output_shape) const override {
    auto axis = tensor_ops::normalize_axis(axis_, static_cast<int64_t>(output_shape.size()), "Concat axis");
    return axis.is_ok() &&
           std::all_of(output_shape.begin(), output_shape.begin() + *axis, [](int64_t d) { return d == 1; });
  }

 private:
  int64_t axis_;
};

Result<std::unique_ptr<OpKernel>> create_concat(const KernelInit& init) {
  if (init.num_inputs() == 0 || init.num_outputs() != 1) return init.error("Concat takes inputs and one output");
  for (size_t i = 0; i < init.num_inputs(); ++i)
    if (!init.has_input(i)) return init.error("Concat input " + std::to_string(i) + " is empty");
  if (init.opset >= 4 && !init.has_attr("axis")) return init.error("Concat needs the 'axis' attribute");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 1));  // opset < 4 defaults to 1
  return make_kernel<ConcatKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_OP("Concat", 1, create_concat);

}  // namespace twinrt
