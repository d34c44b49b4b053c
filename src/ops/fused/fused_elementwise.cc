// FusedElementwise (domain ai.twinrt): a group of float32 elementwise nodes that
// passes/fuse_elementwise.cc merged into one node. It runs the group over blocks small
// enough to stay in L1, so the group reads its inputs and writes its output once instead
// of once per node. Each step computes, element by element, what its own op's kernel
// computes (the same IEEE operation, or the same double formula rounded once), so fusing
// changes no bit in any mode.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/math/fast_float.h"
#include "kernels/math/math.h"
#include "ops/binary/broadcast_rows.h"
#include "ops/binary/elementwise.h"
#include "ops/binary/numeric.h"
#include "ops/common/broadcast.h"
#include "ops/op.h"
#include "ops/unary/activation_math.h"

namespace twinrt {
namespace {

enum class StepKind { kAdd, kSub, kMul, kDiv, kClip, kRelu, kHardSigmoid, kHardSwish, kLeakyRelu, kSigmoid, kTanh, kSqrt, kExp, kErf };

struct Step {
  StepKind kind;
  int a = 0, b = 0;
  float lo = 0, hi = 0;        // Clip
  double alpha = 0, beta = 0;  // HardSigmoid, LeakyRelu
};

constexpr int64_t kBlock = 256;    // elements per value buffer: all buffers fit in L1
constexpr size_t kMaxValues = 32;  // inputs + steps; passes/fuse_elementwise.cc stays below

Result<Step> parse_step(const ir::ElementwiseStep& s, size_t first_free_value) {
  static const std::pair<const char*, StepKind> kKinds[] = {
      {"Add", StepKind::kAdd},         {"Sub", StepKind::kSub},       {"Mul", StepKind::kMul},
      {"Div", StepKind::kDiv},         {"Clip", StepKind::kClip},     {"Relu", StepKind::kRelu},
      {"HardSigmoid", StepKind::kHardSigmoid}, {"HardSwish", StepKind::kHardSwish},
      {"LeakyRelu", StepKind::kLeakyRelu}, {"Sigmoid", StepKind::kSigmoid}, {"Tanh", StepKind::kTanh},
      {"Sqrt", StepKind::kSqrt},       {"Exp", StepKind::kExp},       {"Erf", StepKind::kErf}};
  Step step{};
  auto kind = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const auto& k) { return s.op_type == k.first; });
  if (kind == std::end(kKinds)) return invalid_model("fused step '" + s.op_type + "' is not an elementwise op it knows");
  step.kind = kind->second;
  const bool binary = step.kind <= StepKind::kDiv;
  if (s.args.size() != (binary ? 2u : 1u)) return invalid_model("fused step '" + s.op_type + "' has the wrong operand count");
  for (int a : s.args)
    if (a < 0 || static_cast<size_t>(a) >= first_free_value)
      return invalid_model("fused step '" + s.op_type + "' reads a value not computed before it");
  step.a = s.args[0];
  step.b = binary ? s.args[1] : 0;
  const size_t params = step.kind == StepKind::kClip || step.kind == StepKind::kHardSigmoid ? 2
                        : step.kind == StepKind::kLeakyRelu                                ? 1
                                                                                           : 0;
  if (s.params.size() != params) return invalid_model("fused step '" + s.op_type + "' has the wrong parameter count");
  if (step.kind == StepKind::kClip) {
    step.lo = s.params[0];
    step.hi = s.params[1];
  } else if (params > 0) {  // float32 attributes, widened exactly as their own kernels do
    step.alpha = s.params[0];
    step.beta = params > 1 ? s.params[1] : 0.0;
  }
  return step;
}

// A value inside a block: n elements, or one element that stands for all of them (a
// broadcast operand, and whatever is computed from such operands alone).
struct Operand {
  const float* p;
  bool scalar;
};

template <class F>
void map1(Operand x, float* d, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) d[i] = f(x.p[i]);
}
template <class F>
void map2(Operand x, Operand y, float* d, int64_t n, F f) {
  if (x.scalar == y.scalar) {  // both scalar only with n == 1
    for (int64_t i = 0; i < n; ++i) d[i] = f(x.p[i], y.p[i]);
  } else if (y.scalar) {
    const float b = *y.p;
    for (int64_t i = 0; i < n; ++i) d[i] = f(x.p[i], b);
  } else {
    const float a = *x.p;
    for (int64_t i = 0; i < n; ++i) d[i] = f(a, y.p[i]);
  }
}
template <double (*F)(double)>
float through(float x) {
  return static_cast<float>(F(static_cast<double>(x)));
}

void run_step(const Step& s, bool fast_math, Operand x, Operand y, float* d, int64_t n) {
  switch (s.kind) {
    case StepKind::kAdd: map2(x, y, d, n, [](float a, float b) { return a + b; }); break;
    case StepKind::kSub: map2(x, y, d, n, [](float a, float b) { return a - b; }); break;
    case StepKind::kMul: map2(x, y, d, n, [](float a, float b) { return a * b; }); break;
    case StepKind::kDiv: map2(x, y, d, n, [](float a, float b) { return a / b; }); break;
    case StepKind::kClip: {  // the Clip kernel's comparisons, in its order
      const float lo = s.lo, hi = s.hi;
      map1(x, d, n, [lo, hi](float v) {
        v = v < lo ? lo : v;
        return v > hi ? hi : v;
      });
      break;
    }
    case StepKind::kRelu: map1(x, d, n, through<activation::relu>); break;
    case StepKind::kHardSigmoid: {
      const double alpha = s.alpha, beta = s.beta;
      map1(x, d, n, [=](float v) { return static_cast<float>(activation::hard_sigmoid(v, alpha, beta)); });
      break;
    }
    case StepKind::kHardSwish: map1(x, d, n, through<activation::hard_swish>); break;
    case StepKind::kLeakyRelu: {
      const double alpha = s.alpha;
      map1(x, d, n, [=](float v) { return static_cast<float>(activation::leaky_relu(v, alpha)); });
      break;
    }
    case StepKind::kSigmoid: map1(x, d, n, through<activation::sigmoid>); break;
    case StepKind::kTanh: map1(x, d, n, through<math::tanh>); break;
    case StepKind::kSqrt: map1(x, d, n, through<math::sqrt>); break;
    case StepKind::kExp: fast_math ? map1(x, d, n, math::exp_f32) : map1(x, d, n, through<math::exp>); break;
    case StepKind::kErf: fast_math ? map1(x, d, n, math::erf_f32) : map1(x, d, n, through<math::erf>); break;
  }
}

bool is_binary(StepKind k) { return k <= StepKind::kDiv; }

class FusedElementwiseKernel final : public OpKernel {
 public:
  FusedElementwiseKernel(std::vector<Step> steps, bool fast_math) : steps_(std::move(steps)), fast_math_(fast_math) {}

  Status infer(InferContext& ctx) const override {
    std::vector<const ir::Shape*> shapes;
    for (size_t i = 0; i < ctx.input_types.size(); ++i) shapes.push_back(ctx.shape(i));
    const bool known = std::all_of(shapes.begin(), shapes.end(), [](const ir::Shape* s) { return s != nullptr; });
    if (known) ctx.set_output(0, DataType::kFloat, broadcast_symbolic(shapes));
    else ctx.set_output(0, DataType::kFloat);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<const Tensor*> inputs;
    std::vector<std::vector<int64_t>> shapes;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
      if (t->dtype() != DataType::kFloat)
        return invalid_argument(std::string("input ") + std::to_string(i) + " must be float32, got " + dtype_name(t->dtype()));
      inputs.push_back(t);
      shapes.push_back(t->shape());
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_shapes(shapes));
    ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, DataType::kFloat, out_shape));
    BroadcastRows plan(out_shape, shapes);
    const int64_t row_len = plan.row_len();
    if (plan.rows() == 0 || row_len == 0) return Status::ok();
    const int64_t blocks_per_row = (row_len + kBlock - 1) / kBlock;
    float* y = out->data<float>();
    // Units of work are (row, block) pairs, so one long row still splits across threads.
    ctx.pool().parallel_for(plan.rows() * blocks_per_row, std::max<int64_t>(1, kElementsPerTask / kBlock),
                            [&](int64_t begin, int64_t end) {
      // On the heap: WebAssembly threads have small stacks.
      std::vector<float> scratch(kMaxValues * kBlock);
      const int64_t first_row = begin / blocks_per_row, last_row = (end - 1) / blocks_per_row;
      plan.visit(first_row, last_row + 1, [&](int64_t out_off, const int64_t* in_off) {
        const int64_t row = out_off / row_len;
        const int64_t b0 = std::max(begin - row * blocks_per_row, int64_t{0});
        const int64_t b1 = std::min(end - row * blocks_per_row, blocks_per_row);
        for (int64_t blk = b0; blk < b1; ++blk) {
          const int64_t at = blk * kBlock, n = std::min(kBlock, row_len - at);
          run_block(inputs, plan, in_off, at, n, scratch.data(), y + out_off + at);
        }
      });
    });
    return Status::ok();
  }

 private:
  void run_block(const std::vector<const Tensor*>& inputs, const BroadcastRows& plan, const int64_t* in_off,
                 int64_t at, int64_t n, float* scratch, float* y) const {
    float* buffers[kMaxValues];
    for (size_t v = 0; v < kMaxValues; ++v) buffers[v] = scratch + v * kBlock;
    Operand values[kMaxValues];
    for (size_t k = 0; k < inputs.size(); ++k) {
      const float* base = inputs[k]->data<float>() + in_off[k];
      values[k] = plan.step(k) != 0 ? Operand{base + at, false} : Operand{base, true};
    }
    for (size_t s = 0; s < steps_.size(); ++s) {
      const Step& step = steps_[s];
      const size_t v = inputs.size() + s;
      const Operand x = values[step.a], b = is_binary(step.kind) ? values[step.b] : x;
      const bool scalar = x.scalar && b.scalar;
      const bool last = s + 1 == steps_.size();
      float* dst = last && !scalar ? y : buffers[v];
      run_step(step, fast_math_, x, b, dst, scalar ? 1 : n);
      values[v] = {dst, scalar};
      if (last && scalar) std::fill(y, y + n, dst[0]);
    }
  }

  std::vector<Step> steps_;
  bool fast_math_;
};

Result<std::unique_ptr<OpKernel>> create_fused_elementwise(const KernelInit& init) {
  const ir::Node& node = init.node;
  const auto& steps = node.elementwise_steps;
  if (steps.empty() || node.outputs.size() != 1 || node.inputs.empty() ||
      node.inputs.size() + steps.size() > kMaxValues)
    return init.error("is not a fused elementwise group made by twinrt's graph passes");
  std::vector<Step> parsed;
  for (size_t s = 0; s < steps.size(); ++s) {
    auto step = parse_step(steps[s], node.inputs.size() + s);
    if (!step.is_ok()) return init.error(step.status().message());
    parsed.push_back(*step);
  }
  return make_kernel<FusedElementwiseKernel>(std::move(parsed), init.mode != Mode::kReference);
}

}  // namespace

TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "FusedElementwise", 1, INT64_MAX, "ref", 0, create_fused_elementwise);

}  // namespace twinrt
