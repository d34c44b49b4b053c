// ReverseSequence: for each batch entry b, reverses the first sequence_lens[b] steps
// along the time axis and copies the rest unchanged. Time and batch are axes 0 and 1
// (either way round); each (time, batch) pair owns one contiguous slab.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class ReverseSequenceKernel final : public OpKernel {
 public:
  ReverseSequenceKernel(int64_t batch_axis, int64_t time_axis) : batch_axis_(batch_axis), time_axis_(time_axis) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    ctx.set_output(0, ctx.dtype(0), in ? std::optional<ir::Shape>(*in) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto lens, tensor_ops::input_ints(ctx, 1, "ReverseSequence sequence_lens"));
    if (x->rank() < 2) return invalid_argument("ReverseSequence input must have rank >= 2");
    const int64_t batch = x->dim(batch_axis_), time = x->dim(time_axis_);
    if (static_cast<int64_t>(lens.size()) != batch)
      return invalid_argument("ReverseSequence has " + std::to_string(lens.size()) + " sequence lengths for batch " +
                              std::to_string(batch));
    for (int64_t l : lens)
      if (l < 0 || l > time)
        return invalid_argument("ReverseSequence length " + std::to_string(l) + " is outside [0, " +
                                std::to_string(time) + "]");
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));
    const int64_t slab = x->numel() / std::max<int64_t>(1, batch * time);
    const auto slab_index = [&](int64_t t, int64_t b) {
      return (time_axis_ == 0 ? t * batch + b : b * time + t) * slab;
    };
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = lens[static_cast<size_t>(b)];
      for (int64_t t = 0; t < time; ++t) {
        const int64_t src_t = t < len ? len - 1 - t : t;
        tensor_ops::copy_elements(x->dtype(), tensor_ops::element_ptr(*y, slab_index(t, b)),
                                  tensor_ops::element_ptr(*x, slab_index(src_t, b)), slab);
      }
    }
    return Status::ok();
  }

 private:
  int64_t batch_axis_, time_axis_;
};

Result<std::unique_ptr<OpKernel>> create_reverse_sequence(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("ReverseSequence takes input, sequence_lens and one output");
  ASSIGN_OR_RETURN(int64_t batch_axis, init.attr_int("batch_axis", 1));
  ASSIGN_OR_RETURN(int64_t time_axis, init.attr_int("time_axis", 0));
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0)))
    return init.error("batch_axis and time_axis must be 0 and 1 in either order, got " + std::to_string(batch_axis) +
                      " and " + std::to_string(time_axis));
  return make_kernel<ReverseSequenceKernel>(batch_axis, time_axis);
}

}  // namespace

TWINRT_REGISTER_OP("ReverseSequence", 10, create_reverse_sequence);

}  // namespace twinrt
