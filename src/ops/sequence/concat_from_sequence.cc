// ConcatFromSequence: concatenates (new_axis=0) or stacks (new_axis=1) the tensors of a
// sequence along `axis`.
#include "ops/control/axis_blocks.h"
#include "ops/sequence/sequence_util.h"

namespace twinrt {
namespace {

class ConcatFromSequenceKernel final : public OpKernel {
 public:
  ConcatFromSequenceKernel(int64_t axis, bool new_axis) : axis_(axis), new_axis_(new_axis) {}

  Status infer(InferContext& ctx) const override {
    const DataType elem = sequence_elem_type(ctx.input_types[0]);
    if (elem != DataType::kUndefined) ctx.set_output(0, elem);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* seq, sequence_input(ctx, 0));
    if (seq->sequence.empty()) return invalid_argument("cannot concatenate an empty sequence (its shape is unknown)");
    const int64_t rank = seq->sequence[0].rank();
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(axis_, new_axis_ ? rank + 1 : rank, "axis"));
    ASSIGN_OR_RETURN(Tensor out, new_axis_ ? stack_axis(seq->sequence, axis, false, seq->sequence_dtype, {})
                                           : concat_axis(seq->sequence, axis));
    ctx.set_output(0, Value::of(std::move(out)));
    return Status::ok();
  }

 private:
  int64_t axis_;
  bool new_axis_;
};

Result<std::unique_ptr<OpKernel>> create_concat_from_sequence(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes exactly one input sequence");
  if (!init.has_attr("axis")) return init.error("attribute 'axis' is required");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  ASSIGN_OR_RETURN(int64_t new_axis, init.attr_int("new_axis", 0));
  if (new_axis != 0 && new_axis != 1) return init.error("attribute 'new_axis' must be 0 or 1, got " + std::to_string(new_axis));
  return make_kernel<ConcatFromSequenceKernel>(axis, new_axis == 1);
}

}  // namespace

TWINRT_REGISTER_OP("ConcatFromSequence", 11, create_concat_from_sequence);

}  // namespace twinrt
