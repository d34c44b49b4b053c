#include "ops/fused/elementwise_program.h"

#include <algorithm>
#include <cmath>

#include "kernels/math/fast_float.h"
#include "kernels/math/math.h"
#include "ops/unary/activation_math.h"

namespace twinrt {

namespace {

using Step = ElementwiseProgram::Step;
using StepKind = kernels::F32StepKind;

Result<Step> parse_step(const ir::ElementwiseStep& s, size_t first_free_value) {
  static const std::pair<const char*, StepKind> kKinds[] = {
      {"Add", StepKind::kAdd},         {"Sub", StepKind::kSub},       {"Mul", StepKind::kMul},
      {"Div", StepKind::kDiv},         {"Clip", StepKind::kClip},     {"Relu", StepKind::kRelu},
      {"HardSigmoid", StepKind::kHardSigmoid}, {"HardSwish", StepKind::kHardSwish},
      {"LeakyRelu", StepKind::kLeakyRelu}, {"Sigmoid", StepKind::kSigmoid}, {"Tanh", StepKind::kTanh},
      {"Sqrt", StepKind::kSqrt},       {"Exp", StepKind::kExp},       {"Erf", StepKind::kErf}};
  Step step{};
  kernels::F32StepParams& params = step.params;
  auto kind = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const auto& k) { return s.op_type == k.first; });
  if (kind == std::end(kKinds)) return invalid_model("fused step '" + s.op_type + "' is not an elementwise op it knows");
  params.kind = kind->second;
  const bool binary = kernels::f32_step_is_binary(params.kind);
  if (s.args.size() != (binary ? 2u : 1u)) return invalid_model("fused step '" + s.op_type + "' has the wrong operand count");
  for (int a : s.args)
    if (a < 0 || static_cast<size_t>(a) >= first_free_value)
      return invalid_model("fused step '" + s.op_type + "' reads a value not computed before it");
  step.a = s.args[0];
  step.b = binary ? s.args[1] : 0;
  const size_t count = params.kind == StepKind::kClip || params.kind == StepKind::kHardSigmoid ? 2
                       : params.kind == StepKind::kLeakyRelu                                  ? 1
                                                                                              : 0;
  if (s.params.size() != count) return invalid_model("fused step '" + s.op_type + "' has the wrong parameter count");
  if (params.kind == StepKind::kClip) {
    params.lo = s.params[0];
    params.hi = s.params[1];
  } else if (count > 0) {  // float32 attributes, widened exactly as their own kernels do
    params.alpha = s.params[0];
    params.beta = count > 1 ? s.params[1] : 0.0;
  }
  return step;
}

template <class F>
void map1(Operand x, float* d, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) d[i] = f(x.p[i]);
}
template <double (*F)(double)>
float through(float x) {
  return static_cast<float>(F(static_cast<double>(x)));
}

}  // namespace

Result<ElementwiseProgram> ElementwiseProgram::parse(const std::vector<ir::ElementwiseStep>& steps, size_t num_inputs,
                                                     Mode mode, Isa isa) {
  if (steps.empty() || num_inputs == 0 || num_inputs + steps.size() > kMaxValues)
    return invalid_model("a fused elementwise group needs 1 to " + std::to_string(kMaxValues - 1) +
                         " steps and inputs, got " + std::to_string(steps.size()) + " steps on " +
                         std::to_string(num_inputs) + " inputs");
  ElementwiseProgram p;
  p.num_inputs_ = num_inputs;
  p.fast_math_ = mode != Mode::kReference;
  p.vector_step_ = kernels::f32_step_kernel(isa);
  // Default mode takes the float-arithmetic exp, erf, sigmoid, HardSigmoid and HardSwish
  // (docs/numerics.md).
  const bool in_float = mode == Mode::kDefault;
  p.exp_n_ = in_float ? math::exp_in_float_n_kernel(isa) : math::exp_f32_n_kernel(isa);
  p.erf_n_ = in_float ? math::erf_in_float_n_kernel(isa) : math::erf_f32_n_kernel(isa);
  p.sigmoid_n_ = in_float ? math::sigmoid_in_float_n_kernel(isa) : math::sigmoid_f32_n_kernel(isa);
  p.silu_n_ = in_float ? math::silu_in_float_n_kernel(isa) : math::silu_f32_n_kernel(isa);
  for (size_t s = 0; s < steps.size(); ++s) {
    ASSIGN_OR_RETURN(Step step, parse_step(steps[s], num_inputs + s));
    step.out = static_cast<int>(num_inputs + s);
    if (in_float && step.params.kind == StepKind::kHardSigmoid) step.params.kind = StepKind::kHardSigmoidInFloat;
    if (in_float && step.params.kind == StepKind::kHardSwish) step.params.kind = StepKind::kHardSwishInFloat;
    p.originals_.push_back(step);
  }
  p.fuse_runs();
  return p;
}

// Runs of steps with constant operands become one pass (each step a load and a store of
// the block per element: 15% of the PaddleOCR recognizer's time natively): the exporters'
// BatchNormalization as Mul then Add, and HardSwish as Add, Clip, Mul, Div. The values
// inside a run must have no other reader. Which operands are constant is known per block
// (bind_run). So does SiLU, x * Sigmoid(x) (in the fast modes: reference mode's sigmoid is
// math.h's): EfficientNet-B0 spent a fifth of its time in it, the Mul pass after it a fifth of that.
void ElementwiseProgram::fuse_runs() {
  std::vector<int> reads(num_inputs_ + originals_.size(), 0);
  for (const Step& s : originals_) {
    ++reads[static_cast<size_t>(s.a)];
    if (kernels::f32_step_is_binary(s.params.kind)) ++reads[static_cast<size_t>(s.b)];
  }
  const auto only_read_by = [&](const Step& producer, const Step& reader) {
    return reads[static_cast<size_t>(producer.out)] == 1 &&
           (reader.a == producer.out || (kernels::f32_step_is_binary(reader.params.kind) && reader.b == producer.out));
  };
  const auto other = [](const Step& s, int v) { return s.a == v ? s.b : s.a; };
  const auto is = [&](size_t i, StepKind kind) { return i < originals_.size() && originals_[i].params.kind == kind; };
  for (size_t i = 0; i < originals_.size();) {
    const Step& s0 = originals_[i];
    Step run;
    if (fast_math_ && is(i, StepKind::kSigmoid) && is(i + 1, StepKind::kMul) && only_read_by(s0, originals_[i + 1]) &&
        other(originals_[i + 1], s0.out) == s0.a) {
      run.params.kind = StepKind::kSilu;
      run.a = s0.a;
      run.count = 2;
    } else if (is(i, StepKind::kMul) && is(i + 1, StepKind::kAdd) && only_read_by(s0, originals_[i + 1])) {
      run.params.kind = StepKind::kMulAdd;
      run.a = s0.a;
      run.b = s0.b;
      run.c = other(originals_[i + 1], s0.out);
      run.count = 2;
    } else if (is(i, StepKind::kAdd) && is(i + 1, StepKind::kClip) && is(i + 2, StepKind::kMul) &&
               is(i + 3, StepKind::kDiv) && only_read_by(s0, originals_[i + 1]) &&
               only_read_by(originals_[i + 1], originals_[i + 2]) && originals_[i + 3].a == originals_[i + 2].out &&
               only_read_by(originals_[i + 2], originals_[i + 3])) {  // the product is the dividend
      const int x = other(originals_[i + 2], originals_[i + 1].out);  // multiplied by the clipped sum
      if (x == s0.a || x == s0.b) {
        run.params.kind = StepKind::kHardSwishSteps;
        run.params.lo = originals_[i + 1].params.lo;
        run.params.hi = originals_[i + 1].params.hi;
        run.a = x;
        run.b = other(s0, x);
        run.c = originals_[i + 3].b;
        run.count = 4;
      }
    }
    if (run.count == 0) {
      steps_.push_back(s0);
      ++i;
      continue;
    }
    run.first = static_cast<int>(i);
    run.out = originals_[i + static_cast<size_t>(run.count) - 1].out;
    steps_.push_back(run);
    i += static_cast<size_t>(run.count);
  }
}

void ElementwiseProgram::run_step(const Step& step, Operand x, Operand y, float* d, int64_t n) const {
  const kernels::F32StepParams& s = step.params;
  if (kernels::f32_step_is_vectorized(s.kind)) return vector_step_(s, x, y, d, n);
  switch (s.kind) {
    case StepKind::kSigmoid: return fast_math_ ? sigmoid_n_(x.p, d, n) : map1(x, d, n, through<activation::sigmoid>);
    case StepKind::kTanh: return map1(x, d, n, through<math::tanh>);
    case StepKind::kSqrt: return map1(x, d, n, through<math::sqrt>);
    case StepKind::kExp: return fast_math_ ? exp_n_(x.p, d, n) : map1(x, d, n, through<math::exp>);
    case StepKind::kErf: return fast_math_ ? erf_n_(x.p, d, n) : map1(x, d, n, through<math::erf>);
    default: return;  // vectorized above
  }
}

bool ElementwiseProgram::bind_run(const Step& run, const Operand* values, kernels::F32StepParams& params,
                                  Operand& x) const {
  Operand a = values[run.a], b = values[run.b];
  const Operand c = values[run.c];
  if (run.params.kind == StepKind::kMulAdd && a.scalar) std::swap(a, b);  // either factor may be the constant
  if (a.scalar || !b.scalar || !c.scalar) return false;
  params = run.params;
  params.alpha = *b.p;  // kMulAdd: factor, addend; kHardSwishSteps: addend, divisor
  params.beta = *c.p;
  x = a;
  return true;
}

void ElementwiseProgram::run_one(const Step& step, Operand* values, int64_t n, float* scratch, float* y,
                                 bool last) const {
  const size_t v = static_cast<size_t>(step.out);
  if (step.count > 0) {
    kernels::F32StepParams params;
    Operand x;
    if (step.params.kind == StepKind::kSilu && !values[step.a].scalar) {
      float* dst = last ? y : scratch + v * kBlock;
      silu_n_(values[step.a].p, dst, n);
      values[v] = {dst, false};
      return;
    }
    if (step.params.kind == StepKind::kSilu || !bind_run(step, values, params, x)) {
      for (int k = 0; k < step.count; ++k)
        run_one(originals_[static_cast<size_t>(step.first + k)], values, n, scratch, y, last && k + 1 == step.count);
      return;
    }
    float* dst = last ? y : scratch + v * kBlock;
    vector_step_(params, x, x, dst, n);
    values[v] = {dst, false};
    return;
  }
  const Operand x = values[step.a], b = kernels::f32_step_is_binary(step.params.kind) ? values[step.b] : x;
  const bool scalar = x.scalar && b.scalar;
  float* dst = last && !scalar ? y : scratch + v * kBlock;
  run_step(step, x, b, dst, scalar ? 1 : n);
  values[v] = {dst, scalar};
  if (last && scalar) std::fill(y, y + n, dst[0]);
}

void ElementwiseProgram::run_block(Operand* values, int64_t n, float* scratch, float* y) const {
  for (size_t s = 0; s < steps_.size(); ++s) run_one(steps_[s], values, n, scratch, y, s + 1 == steps_.size());
}

void ElementwiseProgram::run_rows(const float* const* inputs, const bool* per_row, int64_t rows, int64_t row_len,
                                  float* scratch, float* y) const {
  const int64_t n = rows * row_len;
  float* const row_scratch = scratch + kMaxValues * kBlock;
  const float* elements[kMaxValues] = {};    // a value's n elements, once known
  const float* row_values[kMaxValues] = {};  // a value's per-row values, for per-row values
  for (size_t k = 0; k < num_inputs_; ++k) (per_row[k] ? row_values : elements)[k] = inputs[k];
  const auto spread = [&](size_t v, float* d) {
    for (int64_t r = 0; r < rows; ++r) std::fill_n(d + r * row_len, row_len, row_values[v][r]);
    return d;
  };
  const auto elements_of = [&](int v) {
    const size_t i = static_cast<size_t>(v);
    return elements[i] ? elements[i] : (elements[i] = spread(i, scratch + i * kBlock));
  };
  // The model's steps one by one: the runs of steps_ bind constants, not per-row values.
  for (size_t s = 0; s < originals_.size(); ++s) {
    const Step& step = originals_[s];
    const bool binary = kernels::f32_step_is_binary(step.params.kind), last = s + 1 == originals_.size();
    const size_t out = static_cast<size_t>(step.out);
    if (row_values[static_cast<size_t>(step.a)] && (!binary || row_values[static_cast<size_t>(step.b)])) {
      float* d = row_scratch + out * kMaxRows;
      const Operand a{row_values[static_cast<size_t>(step.a)], false};
      run_step(step, a, binary ? Operand{row_values[static_cast<size_t>(step.b)], false} : a, d, rows);
      row_values[out] = d;
      if (last) spread(out, y);
      continue;
    }
    float* d = last ? y : scratch + out * kBlock;
    const Operand a{elements_of(step.a), false};
    run_step(step, a, binary ? Operand{elements_of(step.b), false} : a, d, n);
    elements[out] = d;
  }
}

void ElementwiseProgram::run_in_place(float* y, int64_t n, const float* const* extras, float* scratch) const {
  Operand values[kMaxValues];
  for (size_t k = 1; k < num_inputs_; ++k) values[k] = {extras[k - 1], true};
  for (int64_t at = 0; at < n; at += kBlock) {
    values[0] = {y + at, false};
    run_block(values, std::min(kBlock, n - at), scratch, y + at);
  }
}

Result<ChannelProgram> ChannelProgram::bind(const ElementwiseProgram& program, const std::vector<const Tensor*>& extras,
                                            int64_t channels) {
  if (extras.size() + 1 != program.num_inputs())
    return invalid_argument("the fused elementwise group expects " + std::to_string(program.num_inputs() - 1) +
                            " operands besides the output, got " + std::to_string(extras.size()));
  ChannelProgram c;
  c.program_ = &program;
  for (size_t k = 0; k < extras.size(); ++k) {
    const Tensor& t = *extras[k];
    if (t.dtype() != DataType::kFloat || (t.numel() != 1 && t.numel() != channels))
      return invalid_argument("fused elementwise operand " + std::to_string(k + 1) + " must be float32 with 1 or " +
                              std::to_string(channels) + " elements, got " + dtype_name(t.dtype()) + " " +
                              shape_to_string(t.shape()));
    c.extras_.push_back(t.data<float>());
    c.per_channel_.push_back(t.numel() != 1);
    c.any_per_channel_ = c.any_per_channel_ || t.numel() != 1;
  }
  return c;
}

void ChannelProgram::apply(float* y, int64_t n, int64_t channel) const {
  // Per thread, on the heap: WebAssembly threads have small stacks.
  thread_local std::vector<float> scratch(ElementwiseProgram::kMaxValues * ElementwiseProgram::kBlock);
  const float* values[ElementwiseProgram::kMaxValues];
  for (size_t k = 0; k < extras_.size(); ++k) values[k] = per_channel_[k] ? extras_[k] + channel : extras_[k];
  program_->run_in_place(y, n, values, scratch.data());
}

void ChannelProgram::apply_rows(float* y, int64_t ld, int64_t rows, int64_t n, int64_t channel0) const {
  if (!any_per_channel_ && n == ld) return apply(y, rows * n, channel0);  // one run: the same values for all
  for (int64_t r = 0; r < rows; ++r) apply(y + r * ld, n, channel0 + r);
}

}  // namespace twinrt
