// The activation functions RNN, GRU and LSTM accept in their `activations` attribute,
// with the alpha/beta parameters some of them take.
#pragma once

#include <string>
#include <vector>

#include "ops/op.h"

namespace twinrt {

class RnnActivation {
 public:
  enum class Kind { kRelu, kTanh, kSigmoid, kAffine, kLeakyRelu, kThresholdedRelu, kScaledTanh,
                    kHardSigmoid, kElu, kSoftsign, kSoftplus };

  // Computed in double with twinrt::math and rounded once to the caller's type.
  double apply(double x) const;

  Kind kind = Kind::kTanh;
  double alpha = 0, beta = 0;
};

// Parses `names` (case-insensitive) and hands out activation_alpha / activation_beta
// values in order to the functions that take them; the others keep the defaults of the
// ONNX operators of the same name (LeakyRelu alpha 0.01, HardSigmoid 0.2/0.5, ...).
Result<std::vector<RnnActivation>> parse_rnn_activations(const KernelInit& init,
                                                         const std::vector<std::string>& names,
                                                         const std::vector<float>& alphas,
                                                         const std::vector<float>& betas);

}  // namespace twinrt
