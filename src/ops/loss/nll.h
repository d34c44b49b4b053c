// The negative log-likelihood core shared by NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss: from log-probabilities (N, C, d1..dk), class targets
// (N, d1..dk) and optional per-class weights (C), loss = -log_prob[n, target, d] * w.
// Targets equal to ignore_index contribute 0 and no weight; reduction "mean" divides
// the summed loss by the summed weights of the targets not ignored (the spec's
// function, and numpy's reference).
#pragma once

#include <optional>

#include "ops/op.h"

namespace twinrt {

enum class LossReduction { kNone, kSum, kMean };

struct LossAttrs {
  LossReduction reduction = LossReduction::kMean;
  std::optional<int64_t> ignore_index;
};

// Reads `reduction` and `ignore_index`.
Result<LossAttrs> parse_loss_attrs(const KernelInit& init);

// Output dtype and shape (the target's shape for "none", a scalar otherwise).
void infer_loss_output(InferContext& ctx, const LossAttrs& attrs);

// Checks the inputs' types and shapes against each other; `names` are the op's input
// names ("input", "target", "weight" or "scores", "labels", "weights").
Status check_loss_inputs(const Tensor& input, const Tensor& target, const Tensor* weight,
                         const char* const names[3]);

// Writes the loss into output 0.
Status nll_loss(RunContext& ctx, const Tensor& log_prob, const Tensor& target, const Tensor* weight,
                const LossAttrs& attrs);

}  // namespace twinrt
