// Which loop runs a QdqAdd step (a residual add of a QDQ model, standalone or absorbed by
// the NHWC convolution). The tier's loop divides by y_scale, as the separate nodes do; a
// division is about ten times slower than a product, and it was half of the step's time.
// Where the parameters are constants, session creation checks the tier's loop that uses
// the reciprocal instead on every (a, b) pair (kernels::qdq_add_by_inverse_is_exact); runs
// with those parameters take it, so the bytes are the same either way.
#pragma once

#include <cstddef>
#include <optional>

#include "kernels/gemm/i8_gemm.h"
#include "ops/op.h"

namespace twinrt::quant {

// Where a node keeps QdqAdd's parameters: each scale's zero point is the next input.
struct QdqAddInputs {
  size_t a_scale, b_scale, y_scale;
};

class QdqAddLoop {
 public:
  // The parameters are read from init's constant inputs when all six are scalars with
  // uint8 zero points (the residual adds of QDQ models).
  QdqAddLoop(const KernelInit& init, QdqAddInputs at, bool relu, const kernels::I8GemmKernel& tier);

  // The tier's loop for uint8 a, b and y with these parameters.
  kernels::I8QdqAddU8Fn for_params(const kernels::QdqAddParams& p) const;

 private:
  const kernels::I8GemmKernel& tier_;
  std::optional<kernels::QdqAddParams> by_inverse_;  // parameters the reciprocal loop was checked for
};

}  // namespace twinrt::quant
