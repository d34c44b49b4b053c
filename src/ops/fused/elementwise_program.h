// A group of float32 elementwise steps (ir::ElementwiseStep, made by
// passes/fuse_elementwise.cc) run over blocks of elements small enough to stay in L1.
// Each step computes, element by element, what its own op's kernel computes (the same
// IEEE operation, or the same double formula rounded once), so a program gives the
// separate nodes' bits in every mode. Used by the FusedElementwise node and by the
// producers a group was folded into (Conv's output, run by run of finished rows).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"
#include "kernels/elementwise/f32_steps.h"
#include "kernels/math/fast_float.h"
#include "twinrt/session.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

// A value inside a block: n elements, or one element that stands for all of them (a
// broadcast operand, and whatever is computed from such operands alone).
using Operand = kernels::F32StepOperand;

class ElementwiseProgram {
 public:
  static constexpr int64_t kBlock = 1024;   // elements per value buffer (4 KiB: per-step costs spread wider)
  static constexpr size_t kMaxValues = 32;  // inputs + steps

  // Checks the steps against `num_inputs` values before them; `mode` picks exp/erf, `isa`
  // (never kAuto) the vector kernels (the same bits on every tier).
  static Result<ElementwiseProgram> parse(const std::vector<ir::ElementwiseStep>& steps, size_t num_inputs, Mode mode,
                                          Isa isa);

  size_t num_inputs() const { return num_inputs_; }
  bool empty() const { return steps_.empty(); }

  // Runs the steps on n <= kBlock elements: `values` holds the inputs' operands and has
  // room for kMaxValues; `scratch` holds kMaxValues * kBlock floats. The last step writes
  // y, which may be a vector input's own elements (each is read before it is written).
  void run_block(Operand* values, int64_t n, float* scratch, float* y) const;

  // Rows of a broadcast too short for blocks of their own (SE blocks' x * sigmoid(s) on
  // 7 x 7 planes: the per-call costs, once per row, were most of the node's time):
  // `rows` rows of `row_len` elements (rows * row_len <= kBlock, rows <= kMaxRows), where
  // input k holds the rows' elements side by side, or one value per row where per_row[k].
  // The steps whose operands are all per-row values run on those values side by side,
  // the others on the elements, per-row values spread along their rows first. `scratch`
  // holds kRowsScratch floats; y as in run_block.
  static constexpr int64_t kMaxRows = 128;
  static constexpr int64_t kRowsScratch = kMaxValues * (kBlock + kMaxRows);
  void run_rows(const float* const* inputs, const bool* per_row, int64_t rows, int64_t row_len, float* scratch,
                float* y) const;

  // y[i] = program(y[i], extras...) for n contiguous elements, where every extra input is
  // one value (a scalar, or a per-channel constant's element for y's channel).
  void run_in_place(float* y, int64_t n, const float* const* extras, float* scratch) const;

  struct Step {
    kernels::F32StepParams params;
    int a = 0, b = 0;  // value indices (b for binary steps)
    int out = 0;       // the value it computes
    // A run of the model's steps in one pass (kMulAdd, kHardSwishSteps, kSilu): originals_[first,
    // first + count) for blocks whose operands do not fit it, and c, its third operand.
    int c = 0, first = 0, count = 0;
  };

 private:
  void run_step(const Step& step, Operand a, Operand b, float* d, int64_t n) const;
  // One step (or run of steps) of run_block; `last` writes y.
  void run_one(const Step& step, Operand* values, int64_t n, float* scratch, float* y, bool last) const;
  // A run's operands on this block: its varying operand, with the constants put in
  // `params`, or false when the constants vary (the run then goes step by step).
  bool bind_run(const Step& run, const Operand* values, kernels::F32StepParams& params, Operand& x) const;
  void fuse_runs();

  std::vector<Step> steps_;     // what run_block runs
  std::vector<Step> originals_; // the model's steps, one by one
  size_t num_inputs_ = 0;
  bool fast_math_ = true;
  kernels::F32StepFn vector_step_ = nullptr;
  math::F32ArrayFn exp_n_ = nullptr, erf_n_ = nullptr, sigmoid_n_ = nullptr, silu_n_ = nullptr;
};

// A program folded into a producer whose output has channels (Conv): value 0 is the
// producer's result, every other input holds one value or one per channel.
class ChannelProgram {
 public:
  ChannelProgram() = default;
  // Binds the extra inputs (float32, 1 or `channels` elements each).
  static Result<ChannelProgram> bind(const ElementwiseProgram& program, const std::vector<const Tensor*>& extras,
                                     int64_t channels);

  bool active() const { return program_ != nullptr; }
  // y[i] = program(y[i], extras for `channel`) for n contiguous elements of one channel.
  void apply(float* y, int64_t n, int64_t channel) const;
  // The same on `rows` runs of n elements, ld apart, of the channels from `channel0` on.
  void apply_rows(float* y, int64_t ld, int64_t rows, int64_t n, int64_t channel0) const;

 private:
  const ElementwiseProgram* program_ = nullptr;
  std::vector<const float*> extras_;
  std::vector<bool> per_channel_;
  bool any_per_channel_ = false;
};

}  // namespace twinrt
