// A unary elementwise op, written once for every op that maps one element to one element
// of the same shape. An op supplies a policy:
//
//   struct XOp {
//     static constexpr unsigned kTypes = kFloats;   // accepted input types (TypeSet)
//     static constexpr bool kBoolOutput = false;    // output is bool (IsNaN, IsInf)
//     static Result<XOp> parse(const KernelInit&);  // reads and checks its attributes
//     template <class T> auto apply(T x) const;     // one element
//   };
//
// and registers `create_unary<XOp>`. A policy with a member `math::F32ArrayFn array` that
// is set has float32 tensors mapped through it a chunk at a time. Attributes that only older opsets carry
// (consumed_inputs before opset 6) are ignored.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/math/fast_float.h"
#include "ops/binary/numeric.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {

// Float elements computed through double: widen, apply f, round once to the element's
// compute type (float for float16/bfloat16, which then round to their own format).
template <class T, class F>
T through_double(T x, F f) {
  return store<T>(static_cast<compute_t<T>>(f(static_cast<double>(load(x)))));
}

inline constexpr int64_t kMapGrain = 1 << 14;

// out[i] = f(in[i]) over contiguous chunks; each element is written by exactly one call.
template <class In, class Out, class F>
void map_elements(ThreadPool& pool, const In* in, Out* out, int64_t n, F f) {
  pool.parallel_for(n, kMapGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = f(in[i]);
  });
}

// A policy's whole-array function for float32 (its member `math::F32ArrayFn array`), or null.
template <class Op>
math::F32ArrayFn array_function(const Op& op) {
  if constexpr (requires { op.array; }) return op.array;
  else return nullptr;
}

template <class Op>
class UnaryKernel final : public OpKernel {
 public:
  explicit UnaryKernel(Op op) : op_(std::move(op)) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    const ir::Shape* shape = ctx.shape(0);
    ctx.set_output(0, Op::kBoolOutput ? DataType::kBool : t,
                   shape ? std::optional<ir::Shape>(*shape) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    return dispatch<Op::kTypes>(x->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      using Out = std::conditional_t<Op::kBoolOutput, bool, T>;
      ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, dtype_of<Out>(), x->shape()));
      if constexpr (std::is_same_v<T, float>) {
        if (const math::F32ArrayFn array = array_function(op_)) {  // every element gets the same bits
          const float* in = x->data<float>();
          float* out = y->data<float>();
          ctx.pool().parallel_for(x->numel(), kMapGrain, [&](int64_t begin, int64_t end) {
            array(in + begin, out + begin, end - begin);
          });
          return Status::ok();
        }
      }
      map_elements(ctx.pool(), x->data<T>(), y->data<Out>(), x->numel(),
                   [this](T v) -> Out { return op_.apply(v); });
      return Status::ok();
    });
  }

 private:
  Op op_;
};

template <class Op>
Result<std::unique_ptr<OpKernel>> create_unary(const KernelInit& init) {
  if (init.num_inputs() != 1 || init.num_outputs() != 1)
    return init.error("expects 1 input and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(Op op, Op::parse(init));
  if (const DataType t = init.input_dtype(0); t != DataType::kUndefined) {
    if (Status st = check_type_in<Op::kTypes>(t); !st.is_ok()) return init.unsupported(st.message());
  }
  return make_kernel<UnaryKernel<Op>>(std::move(op));
}

// A policy without attributes: `Fn::template apply<T>(x)` on the types `Types`.
template <unsigned Types, class Fn, bool BoolOutput = false>
struct StatelessUnaryOp {
  static constexpr unsigned kTypes = Types;
  static constexpr bool kBoolOutput = BoolOutput;
  static Result<StatelessUnaryOp> parse(const KernelInit&) { return StatelessUnaryOp{}; }
  template <class T>
  auto apply(T x) const { return Fn::apply(x); }
};

// A float function of double (twinrt::math or a composition of it) as a unary op.
template <double (*F)(double)>
struct DoubleFunction {
  template <class T>
  static T apply(T x) { return through_double(x, F); }
};
template <double (*F)(double)>
using FloatFunctionOp = StatelessUnaryOp<kFloats, DoubleFunction<F>>;

// The same with the array functions of kernels/math/fast_float.h for float and half
// elements: Exact's in exact mode, Default's in default mode, for the session's ISA tier
// (float32 tensors go through them a chunk at a time); reference mode and double elements
// keep F.
template <double (*F)(double), math::F32ArrayFn (*Exact)(Isa), math::F32ArrayFn (*Default)(Isa) = Exact>
struct FastFloatFunctionOp {
  static constexpr unsigned kTypes = kFloats;
  static constexpr bool kBoolOutput = false;
  math::F32ArrayFn array = nullptr;
  static Result<FastFloatFunctionOp> parse(const KernelInit& init) {
    if (init.mode == Mode::kReference) return FastFloatFunctionOp{};
    return FastFloatFunctionOp{(init.mode == Mode::kDefault ? Default : Exact)(init.isa)};
  }
  template <class T>
  T apply(T x) const {
    if constexpr (std::is_same_v<compute_t<T>, float>) {
      if (array) {
        float v = load(x);
        array(&v, &v, 1);
        return store<T>(v);
      }
    }
    return through_double(x, F);
  }
};

}  // namespace twinrt
