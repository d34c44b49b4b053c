// ReduceSum, ReduceMean, ReduceProd, ReduceMax, ReduceMin, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare.
//
// The input is walked once in row-major order and each element is folded into its
// output's accumulator, so every output sees its elements in the same fixed order
// whatever the layout or thread count (blocks of outputs that share no input run on
// separate threads). Sums accumulate in double in reference mode and in float in
// default mode (integers in 64-bit, wrapping), and round once. Max/Min are exact and
// propagate NaN. Reducing an empty set gives the identity: 0 for sums, 1 for the
// product, -inf/+inf (the type's lowest/highest) for Max/Min, -inf for the log-sums.
#include <algorithm>
#include <cmath>

#include "ops/binary/broadcast_rows.h"
#include "ops/binary/numeric.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "ops/reduce/axes.h"

namespace twinrt {
namespace {

enum class ReduceKind { kSum, kMean, kProd, kMax, kMin, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

constexpr unsigned kReduceTypes = kFloats | kI32 | kI64 | kU32 | kU64;
constexpr unsigned kMinMaxTypes = kReduceTypes | kI8 | kU8;

bool is_min_max(ReduceKind k) { return k == ReduceKind::kMax || k == ReduceKind::kMin; }

// The reduction split into independent blocks: the leading dims that are kept index
// disjoint groups of outputs, so blocks can run on different threads while each output
// still sees its elements in the same order.
struct ReducePlan {
  int64_t blocks = 1;     // product of the leading kept dims
  int64_t in_block = 1;   // input elements per block
  int64_t out_block = 1;  // outputs per block
  BroadcastRows rows;     // walks one block: input 0 is the data, input 1 the output index
};

ReducePlan make_reduce_plan(const std::vector<int64_t>& shape, const std::vector<bool>& mask) {
  size_t lead = 0;
  while (lead < shape.size() && !mask[lead]) ++lead;
  const std::vector<int64_t> block(shape.begin() + static_cast<std::ptrdiff_t>(lead), shape.end());
  std::vector<int64_t> kept = block;
  for (size_t d = lead; d < shape.size(); ++d)
    if (mask[d]) kept[d - lead] = 1;
  ReducePlan p{1, shape_numel(block), shape_numel(kept), BroadcastRows(block, {block, kept})};
  for (size_t d = 0; d < lead; ++d) p.blocks *= shape[d];
  return p;
}

// acc[o] = step(acc[o], x, o) for every input element x in row-major order, where o is
// the element's output index.
template <class Acc, class T, class Step>
void accumulate(const ReducePlan& p, ThreadPool& pool, const T* x, Acc* acc, Step step) {
  const int64_t n = p.rows.row_len();
  const bool acc_steps = p.rows.step(1) != 0;
  const int64_t grain = std::max<int64_t>(1, kElementsPerTask / std::max<int64_t>(p.in_block, 1));
  pool.parallel_for(p.blocks, grain, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      const T* xb = x + b * p.in_block;
      const int64_t ob = b * p.out_block;
      p.rows.visit(0, p.rows.rows(), [&](int64_t, const int64_t* off) {
        const T* px = xb + off[0];
        const int64_t o = ob + off[1];
        if (acc_steps) {
          for (int64_t i = 0; i < n; ++i) acc[o + i] = step(acc[o + i], px[i], o + i);
        } else {
          Acc a = acc[o];
          for (int64_t i = 0; i < n; ++i) a = step(a, px[i], o);
          acc[o] = a;
        }
      });
    }
  });
}

template <class Acc, class T>
Acc to_acc(T v) { return static_cast<Acc>(load(v)); }

template <class Acc>
Acc magnitude(Acc v) {
  if constexpr (std::is_unsigned_v<Acc>) return v;
  else if constexpr (std::is_integral_v<Acc>) return v < 0 ? wrap_sub<Acc>(0, v) : v;
  else return std::fabs(v);
}

// The accumulated value turned into the output element.
template <class T, class Acc>
T finish(ReduceKind kind, Acc a, int64_t count) {
  if constexpr (std::is_integral_v<Acc>) {
    if (kind == ReduceKind::kMean) return static_cast<T>(int_div(a, static_cast<Acc>(count)));
    if (kind == ReduceKind::kL2) return saturating_cast<T>(std::sqrt(static_cast<double>(a)));
    if (kind == ReduceKind::kLogSum) return saturating_cast<T>(math::log(static_cast<double>(a)));
    return static_cast<T>(a);
  } else {
    Acc r = a;
    if (kind == ReduceKind::kMean) r = a / static_cast<Acc>(count);
    if (kind == ReduceKind::kL2) r = std::sqrt(a);
    if (kind == ReduceKind::kLogSum) r = acc_log(a);
    if constexpr (std::is_integral_v<T>) return saturating_cast<T>(r);
    else return store<T>(static_cast<compute_t<T>>(r));
  }
}

// log(sum(exp(x))) computed as max + log(sum(exp(x - max))) so exp cannot overflow.
template <class T, class Acc>
void log_sum_exp(const ReducePlan& plan, ThreadPool& pool, const T* x, T* y, int64_t out_n) {
  using C = compute_t<T>;
  using F = std::conditional_t<std::is_integral_v<Acc>, double, Acc>;
  std::vector<C> mx(static_cast<size_t>(out_n), lowest_value<C>());
  accumulate(plan, pool, x, mx.data(), [](C m, T v, int64_t) { return nan_max(m, load(v)); });
  std::vector<F> sum(static_cast<size_t>(out_n), F(0));
  accumulate(plan, pool, x, sum.data(), [&](F s, T v, int64_t o) {
    return s + acc_exp(static_cast<F>(load(v)) - static_cast<F>(mx[static_cast<size_t>(o)]));
  });
  for (int64_t o = 0; o < out_n; ++o) {
    const F m = static_cast<F>(mx[static_cast<size_t>(o)]);
    const F r = std::isfinite(m) ? m + acc_log(sum[static_cast<size_t>(o)]) : m;  // +-inf, NaN as is
    if constexpr (std::is_integral_v<T>) y[o] = saturating_cast<T>(r);
    else y[o] = store<T>(static_cast<compute_t<T>>(r));
  }
}

template <class T, class Acc>
void reduce_typed(ReduceKind kind, const Tensor& x, const std::vector<bool>& mask, Tensor& out,
                  ThreadPool& pool) {
  const int64_t out_n = out.numel();
  if (out_n == 0) return;
  const ReducePlan plan = make_reduce_plan(x.shape(), mask);
  const T* px = x.data<T>();
  T* y = out.data<T>();
  if (kind == ReduceKind::kLogSumExp) return log_sum_exp<T, Acc>(plan, pool, px, y, out_n);

  Acc init = 0;
  if (kind == ReduceKind::kProd) init = 1;
  if (kind == ReduceKind::kMax) init = lowest_value<Acc>();
  if (kind == ReduceKind::kMin) init = highest_value<Acc>();
  std::vector<Acc> acc(static_cast<size_t>(out_n), init);
  Acc* a = acc.data();
  switch (kind) {
    case ReduceKind::kProd:
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) { return arith_mul(s, to_acc<Acc>(v)); });
      break;
    case ReduceKind::kMax:
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) { return nan_max(s, to_acc<Acc>(v)); });
      break;
    case ReduceKind::kMin:
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) { return nan_min(s, to_acc<Acc>(v)); });
      break;
    case ReduceKind::kL1:
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) { return arith_add(s, magnitude(to_acc<Acc>(v))); });
      break;
    case ReduceKind::kL2:
    case ReduceKind::kSumSquare:
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) {
        const Acc e = to_acc<Acc>(v);
        return arith_add(s, arith_mul(e, e));
      });
      break;
    default:  // kSum, kMean, kLogSum
      accumulate(plan, pool, px, a, [](Acc s, T v, int64_t) { return arith_add(s, to_acc<Acc>(v)); });
      break;
  }
  const int64_t count = x.numel() / out_n;
  for (int64_t o = 0; o < out_n; ++o) y[o] = finish<T, Acc>(kind, acc[static_cast<size_t>(o)], count);
}

struct ReduceAttrs {
  ReduceKind kind = ReduceKind::kSum;
  bool keepdims = true;
  bool noop_with_empty_axes = false;
  bool axes_from_input = false;  // ReduceSum from opset 13, the others from 18
  std::vector<int64_t> axes;     // when they are an attribute
};

class ReduceKernel final : public OpKernel {
 public:
  explicit ReduceKernel(ReduceAttrs attrs) : a_(std::move(attrs)) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    const ir::Shape* in = ctx.shape(0);
    std::vector<int64_t> axes = a_.axes;
    if (a_.axes_from_input && ctx.has_input(1)) {
      const Tensor* c = ctx.constant_inputs.size() > 1 ? ctx.constant_inputs[1] : nullptr;
      if (!c || !in) {
        ctx.set_output(0, t);
        return Status::ok();
      }
      ASSIGN_OR_RETURN(axes, read_int_values(*c, "axes"));
    }
    if (!in) {
      ctx.set_output(0, t);
      return Status::ok();
    }
    if (axes.empty() && a_.noop_with_empty_axes) {
      ctx.set_output(0, t, *in);
      return Status::ok();
    }
    ASSIGN_OR_RETURN(std::vector<bool> mask, reduction_mask(axes, static_cast<int64_t>(in->size())));
    ir::Shape out;
    for (size_t d = 0; d < in->size(); ++d) {
      if (!mask[d]) out.push_back((*in)[d]);
      else if (a_.keepdims) out.push_back(ir::Dim::of(1));
    }
    ctx.set_output(0, t, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    std::vector<int64_t> axes = a_.axes;
    if (a_.axes_from_input && ctx.has_input(1)) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(1));
      ASSIGN_OR_RETURN(axes, read_int_values(*t, "axes"));
    }
    if (axes.empty() && a_.noop_with_empty_axes) {
      ctx.set_output(0, Value::of(*x));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(std::vector<bool> mask, reduction_mask(axes, x->rank()));
    ASSIGN_OR_RETURN(Tensor * out, ctx.output(0, x->dtype(), reduced_shape(x->shape(), mask, a_.keepdims)));
    const bool reference = ctx.mode() == Mode::kReference;
    auto go = [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (is_min_max(a_.kind)) reduce_typed<T, compute_t<T>>(a_.kind, *x, mask, *out, ctx.pool());
      else if (reference) reduce_typed<T, accum_t<T, true>>(a_.kind, *x, mask, *out, ctx.pool());
      else reduce_typed<T, accum_t<T, false>>(a_.kind, *x, mask, *out, ctx.pool());
      return Status::ok();
    };
    if (is_min_max(a_.kind)) return dispatch<kMinMaxTypes>(x->dtype(), go);
    return dispatch<kReduceTypes>(x->dtype(), go);
  }

 private:
  ReduceAttrs a_;
};

template <ReduceKind K>
Result<std::unique_ptr<OpKernel>> create_reduce(const KernelInit& init) {
  ReduceAttrs a;
  a.kind = K;
  a.axes_from_input = init.opset >= (K == ReduceKind::kSum ? 13 : 18);
  const size_t max_inputs = a.axes_from_input ? 2 : 1;
  if (init.num_inputs() < 1 || init.num_inputs() > max_inputs || !init.has_input(0) || init.num_outputs() != 1)
    return init.error("expects " + std::string(a.axes_from_input ? "1 or 2 inputs (data, axes)" : "1 input") +
                      " and 1 output, got " + std::to_string(init.num_inputs()) + " and " +
                      std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(int64_t keepdims, init.attr_int("keepdims", 1));
  ASSIGN_OR_RETURN(int64_t noop, init.attr_int("noop_with_empty_axes", 0));
  a.keepdims = keepdims != 0;
  a.noop_with_empty_axes = noop != 0;
  if (!a.axes_from_input) {
    ASSIGN_OR_RETURN(a.axes, init.attr_ints("axes"));
  } else if (init.has_attr("axes")) {
    return init.error("axes is an input from opset " + std::to_string(K == ReduceKind::kSum ? 13 : 18) +
                      ", not an attribute");
  }
  const DataType t = init.input_dtype(0);
  if (t != DataType::kUndefined) {
    Status st = is_min_max(K) ? check_type_in<kMinMaxTypes>(t) : check_type_in<kReduceTypes>(t);
    if (!st.is_ok()) return init.unsupported(st.message());
  }
  return make_kernel<ReduceKernel>(std::move(a));
}

}  // namespace

TWINRT_REGISTER_OP("ReduceSum", 1, create_reduce<ReduceKind::kSum>);
TWINRT_REGISTER_OP("ReduceMean", 1, create_reduce<ReduceKind::kMean>);
TWINRT_REGISTER_OP("ReduceProd", 1, create_reduce<ReduceKind::kProd>);
TWINRT_REGISTER_OP("ReduceMax", 1, create_reduce<ReduceKind::kMax>);
TWINRT_REGISTER_OP("ReduceMin", 1, create_reduce<ReduceKind::kMin>);
TWINRT_REGISTER_OP("ReduceL1", 1, create_reduce<ReduceKind::kL1>);
TWINRT_REGISTER_OP("ReduceL2", 1, create_reduce<ReduceKind::kL2>);
TWINRT_REGISTER_OP("ReduceLogSum", 1, create_reduce<ReduceKind::kLogSum>);
TWINRT_REGISTER_OP("ReduceLogSumExp", 1, create_reduce<ReduceKind::kLogSumExp>);
TWINRT_REGISTER_OP("ReduceSumSquare", 1, create_reduce<ReduceKind::kSumSquare>);

}  // namespace twinrt
