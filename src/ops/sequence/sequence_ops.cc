// The basic sequence ops: SequenceEmpty, SequenceConstruct, SequenceLength, SequenceAt,
// SequenceInsert, SequenceErase. Sequences hold tensors by value; tensors are never
// mutated after creation, so inserting or reading shares storage instead of copying.
#include "ops/control/scalar_value.h"
#include "ops/sequence/sequence_util.h"

namespace twinrt {
namespace {

class SequenceEmptyKernel final : public OpKernel {
 public:
  explicit SequenceEmptyKernel(DataType dtype) : dtype_(dtype) {}
  Status infer(InferContext& ctx) const override {
    ctx.output_types[0] = sequence_type(dtype_);
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ctx.set_output(0, Value::of_sequence({}, dtype_));
    return Status::ok();
  }

 private:
  DataType dtype_;
};

Result<std::unique_ptr<OpKernel>> create_sequence_empty(const KernelInit& init) {
  ASSIGN_OR_RETURN(int64_t dtype, init.attr_int("dtype", static_cast<int64_t>(DataType::kFloat)));
  if (!dtype_is_valid(static_cast<int32_t>(dtype)) || dtype > INT32_MAX)
    return init.error("attribute 'dtype' " + std::to_string(dtype) + " is not a tensor data type");
  return make_kernel<SequenceEmptyKernel>(static_cast<DataType>(dtype));
}

class SequenceConstructKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.output_types[0] = sequence_type(ctx.dtype(0));
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    std::vector<Tensor> items;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
      if (t->dtype() != ctx.input(0).dtype())
        return invalid_argument("input " + std::to_string(i) + " is " + dtype_name(t->dtype()) + ", input 0 is " +
                                dtype_name(ctx.input(0).dtype()) + ": all tensors must have the same type");
      items.push_back(*t);
    }
    const DataType dtype = items[0].dtype();
    ctx.set_output(0, Value::of_sequence(std::move(items), dtype));
    return Status::ok();
  }
};

Result<std::unique_ptr<OpKernel>> create_sequence_construct(const KernelInit& init) {
  if (init.num_inputs() < 1) return init.error("SequenceConstruct needs at least one input");
  return make_kernel<SequenceConstructKernel>();
}

class SequenceLengthKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, DataType::kInt64, std::vector<int64_t>{});
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* seq, sequence_input(ctx, 0));
    ASSIGN_OR_RETURN(Tensor* out, ctx.output(0, DataType::kInt64, {}));
    *out->data<int64_t>() = static_cast<int64_t>(seq->sequence.size());
    return Status::ok();
  }
};

class SequenceAtKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const ir::TypeInfo& seq = ctx.input_types[0];
    if (seq.kind == ir::TypeInfo::Kind::kSequence && seq.inner) ctx.output_types[0] = *seq.inner;
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* seq, sequence_input(ctx, 0));
    ASSIGN_OR_RETURN(size_t pos, sequence_position(ctx.input_value(1), seq->sequence.size(), false));
    ctx.set_output(0, Value::of(seq->sequence[pos]));
    return Status::ok();
  }
};

class SequenceInsertKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const DataType elem = sequence_elem_type(ctx.input_types[0]);
    ctx.output_types[0] = sequence_type(elem != DataType::kUndefined ? elem : ctx.dtype(1));
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* seq, sequence_input(ctx, 0));
    ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(1));
    if (seq->sequence_dtype != DataType::kUndefined && t->dtype() != seq->sequence_dtype)
      return invalid_argument(std::string("cannot insert a ") + dtype_name(t->dtype()) + " tensor into a sequence of " +
                              dtype_name(seq->sequence_dtype));
    size_t pos = seq->sequence.size();
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(pos, sequence_position(ctx.input_value(2), seq->sequence.size(), true));
    }
    std::vector<Tensor> items = seq->sequence;
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(pos), *t);
    ctx.set_output(0, Value::of_sequence(std::move(items), t->dtype()));
    return Status::ok();
  }
};

class SequenceEraseKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.output_types[0] = ctx.input_types[0];
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* seq, sequence_input(ctx, 0));
    const size_t n = seq->sequence.size();
    if (n == 0) return invalid_argument("cannot erase from an empty sequence");
    size_t pos = n - 1;
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(pos, sequence_position(ctx.input_value(1), n, false));
    }
    std::vector<Tensor> items = seq->sequence;
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(pos));
    ctx.set_output(0, Value::of_sequence(std::move(items), seq->sequence_dtype));
    return Status::ok();
  }
};

}  // namespace

TWINRT_REGISTER_OP("SequenceEmpty", 11, create_sequence_empty);
TWINRT_REGISTER_OP("SequenceConstruct", 11, create_sequence_construct);
TWINRT_REGISTER_OP("SequenceLength", 11, (create_fixed_arity<SequenceLengthKernel, 1, 1>));
TWINRT_REGISTER_OP("SequenceAt", 11, (create_fixed_arity<SequenceAtKernel, 2, 2>));
TWINRT_REGISTER_OP("SequenceInsert", 11, (create_fixed_arity<SequenceInsertKernel, 2, 3>));
TWINRT_REGISTER_OP("SequenceErase", 11, (create_fixed_arity<SequenceEraseKernel, 1, 2>));

}  // namespace twinrt
