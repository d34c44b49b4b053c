// A binary elementwise op with broadcasting, written once for every op that maps two
// same-typed elements to one. An op supplies a policy:
//
//   struct XOp : BinaryOpBase {
//     static constexpr unsigned kTypes = kAllNumeric;  // accepted input types (TypeSet)
//     static constexpr bool kBoolOutput = false;       // output is bool (comparisons)
//     static Result<XOp> parse(const KernelInit&);     // reads its attributes
//     template <class T> auto apply(T a, T b) const;   // one element
//   };
//
// An op that is one of kernels/elementwise/f32_steps.h's steps on float32 says so through
// `f32_step()`, and its float32 rows run through that vector kernel.
//
// and registers `create_binary<XOp>`. Opset < 7 broadcasting is handled by BinaryShapes.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "ops/binary/binary_shapes.h"
#include "ops/binary/elementwise.h"
#include "ops/binary/numeric.h"
#include "ops/common/dispatch.h"

namespace twinrt {

struct BinaryOpBase {
  // Rejects a type/attribute combination the spec forbids (e.g. Mod on floats with fmod=0).
  Status validate(DataType) const { return Status::ok(); }
  // Rejects operand values the op cannot compute (integer division by zero).
  Status check_operands(const Tensor&, const Tensor&) const { return Status::ok(); }
  // The vectorized step that computes apply() on float32, and its kernel; none by default.
  std::optional<kernels::F32StepParams> f32_step() const { return std::nullopt; }
  kernels::F32StepFn f32_step_fn = nullptr;
};

template <class Op>
class BinaryKernel final : public OpKernel {
 public:
  BinaryKernel(Op op, BinaryShapes shapes) : op_(std::move(op)), shapes_(std::move(shapes)) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    ctx.set_output(0, Op::kBoolOutput ? DataType::kBool : t, shapes_.infer(ctx.shape(0), ctx.shape(1)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(1));
    if (a->dtype() != b->dtype())
      return invalid_argument(std::string("inputs A and B must have the same type, got ") +
                              dtype_name(a->dtype()) + " and " + dtype_name(b->dtype()));
    TRY(op_.validate(a->dtype()));
    TRY(op_.check_operands(*a, *b));
    ASSIGN_OR_RETURN(auto shapes, shapes_.resolve(a->shape(), b->shape()));
    if (const auto step = op_.f32_step(); step && a->dtype() == DataType::kFloat) {
      ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, DataType::kFloat, shapes.out));
      apply_f32_step_rows(BroadcastRows(shapes.out, {shapes.a, shapes.b}), ctx.pool(), a->data<float>(),
                          b->data<float>(), out->data<float>(), op_.f32_step_fn, *step);
      return Status::ok();
    }
    return dispatch<Op::kTypes>(a->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using Out = std::conditional_t<Op::kBoolOutput, bool, T>;
      return broadcast_binary<T, T, Out>(ctx, *a, shapes.a, *b, shapes.b, shapes.out,
                                         [this](T x, T y) -> Out { return op_.apply(x, y); });
    });
  }

 private:
  Op op_;
  BinaryShapes shapes_;
};

// Checks the node's arity and the input types known at load time.
inline Status check_binary_node(const KernelInit& init) {
  if (init.num_inputs() != 2 || init.num_outputs() != 1)
    return init.error("expects 2 inputs and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  const DataType a = init.input_dtype(0), b = init.input_dtype(1);
  if (a != DataType::kUndefined && b != DataType::kUndefined && a != b)
    return init.error(std::string("inputs A and B must have the same type, got ") + dtype_name(a) +
                      " and " + dtype_name(b));
  return Status::ok();
}

template <class Op>
Result<std::unique_ptr<OpKernel>> create_binary(const KernelInit& init) {
  TRY(check_binary_node(init));
  ASSIGN_OR_RETURN(Op op, Op::parse(init));
  ASSIGN_OR_RETURN(BinaryShapes shapes, BinaryShapes::parse(init));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined) {
    if (Status st = check_type_in<Op::kTypes>(t); !st.is_ok()) return init.unsupported(st.message());
    if (Status st = op.validate(t); !st.is_ok()) return init.error(st.message());
  }
  return make_kernel<BinaryKernel<Op>>(std::move(op), std::move(shapes));
}

}  // namespace twinrt
