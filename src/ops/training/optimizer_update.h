// The shared shape of the ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum):
// inputs are R (scalar learning rate), T (scalar update count), then G groups of n
// tensors (X_1..X_n, G_1..G_n, ...); outputs are K groups of n tensors. Every variable is
// updated element by element, so the op runs one scalar rule over all elements of all
// variables. The rule computes in double and the result is rounded once to the tensor
// type, in every mode.
//
// The spec allows numpy broadcasting between a variable and its companions; twinrt
// requires them to have the same shape (what every optimizer graph produces) and says so.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "ops/op.h"

namespace twinrt {

struct OptimizerStep {
  double learning_rate;  // R
  int64_t update_count;  // T
};

// rule(step, in, out): `in` holds one element of each input group, `out` receives one
// element of each output group.
using ElementRule = std::function<void(const OptimizerStep&, const double* in, double* out)>;

class OptimizerKernel final : public OpKernel {
 public:
  OptimizerKernel(size_t in_groups, size_t out_groups, ElementRule rule)
      : in_groups_(in_groups), out_groups_(out_groups), rule_(std::move(rule)) {}
  Status infer(InferContext& ctx) const override;
  Status run(RunContext& ctx) const override;

 private:
  size_t in_groups_, out_groups_;
  ElementRule rule_;
};

// Checks the node's input/output counts for the group layout and builds the kernel.
Result<std::unique_ptr<OpKernel>> make_optimizer_kernel(const KernelInit& init, size_t in_groups,
                                                        size_t out_groups, ElementRule rule);

}  // namespace twinrt
