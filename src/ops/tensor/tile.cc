// Tile: repeats the input `repeats[d]` times along each axis d.
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

Status check_repeats(const std::vector<int64_t>& repeats, size_t rank) {
  if (repeats.size() != rank)
    return invalid_argument("Tile repeats " + shape_to_string(repeats) + " must have one entry per input dim (" +
                            std::to_string(rank) + ")");
  for (int64_t r : repeats)
    if (r < 0) return invalid_argument("Tile repeats " + shape_to_string(repeats) + " has a negative entry");
  return Status::ok();
}

class TileKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) {  // the rank is the length of repeats
      if (auto rank = tensor_ops::static_length(ctx, 1))
        ctx.set_output(0, ctx.dtype(0), ir::Shape(static_cast<size_t>(*rank)));
      return Status::ok();
    }
    auto repeats = tensor_ops::constant_ints(ctx.constant_inputs, 1);
    if (!repeats) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(in->size()));
      return Status::ok();
    }
    TRY(check_repeats(*repeats, in->size()));
    ir::Shape out = *in;
    for (size_t d = 0; d < out.size(); ++d) {
      const int64_t r = (*repeats)[d];
      if (out[d].known())
        out[d] = r != 0 && out[d].value > INT64_MAX / r ? ir::Dim{} : ir::Dim::of(out[d].value * r);
      else if (r != 1) out[d] = r == 0 ? ir::Dim::of(0) : ir::Dim{};
    }
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto repeats, tensor_ops::input_ints(ctx, 1, "Tile 'repeats' input"));
    TRY(check_repeats(repeats, x->shape().size()));
    std::vector<int64_t> out_shape;
    for (size_t d = 0; d < repeats.size(); ++d) {
      const int64_t n = x->shape()[d];
      if (n != 0 && repeats[d] > INT64_MAX / n) return invalid_argument("Tile output is too large");
      out_shape.push_back(n * repeats[d]);
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), out_shape));  // every element gathered
    if (y->numel() == 0) return Status::ok();
    std::vector<std::vector<int64_t>> maps;  // output coordinate -> source coordinate
    for (size_t d = 0; d < out_shape.size(); ++d) {
      std::vector<int64_t> map(static_cast<size_t>(out_shape[d]));
      for (size_t i = 0; i < map.size(); ++i) map[i] = static_cast<int64_t>(i) % x->shape()[d];
      maps.push_back(std::move(map));
    }
    return tensor_ops::gather_by_axis_maps(x->dtype(), y->raw(), x->raw(), x->shape(), maps, nullptr);
  }
};

Result<std::unique_ptr<OpKernel>> create_tile(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("Tile takes input, repeats and one output");
  return make_kernel<TileKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Tile", 6, create_tile);

}  // namespace twinrt
