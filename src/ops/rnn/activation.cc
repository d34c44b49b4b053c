#include "ops/rnn/activation.h"

#include <algorithm>
#include <cmath>

#include "kernels/math/math.h"

namespace twinrt {
namespace {

struct ActivationInfo {
  const char* name;
  RnnActivation::Kind kind;
  bool takes_alpha, takes_beta;
  double default_alpha, default_beta;
};

constexpr ActivationInfo kActivations[] = {
    {"relu", RnnActivation::Kind::kRelu, false, false, 0, 0},
    {"tanh", RnnActivation::Kind::kTanh, false, false, 0, 0},
    {"sigmoid", RnnActivation::Kind::kSigmoid, false, false, 0, 0},
    {"affine", RnnActivation::Kind::kAffine, true, true, 1.0, 0.0},
    {"leakyrelu", RnnActivation::Kind::kLeakyRelu, true, false, 0.01, 0},
    {"thresholdedrelu", RnnActivation::Kind::kThresholdedRelu, true, false, 1.0, 0},
    {"scaledtanh", RnnActivation::Kind::kScaledTanh, true, true, 1.0, 1.0},
    {"hardsigmoid", RnnActivation::Kind::kHardSigmoid, true, true, 0.2, 0.5},
    {"elu", RnnActivation::Kind::kElu, true, false, 1.0, 0},
    {"softsign", RnnActivation::Kind::kSoftsign, false, false, 0, 0},
    {"softplus", RnnActivation::Kind::kSoftplus, false, false, 0, 0},
};

}  // namespace

double RnnActivation::apply(double x) const {
  switch (kind) {
    case Kind::kRelu: return x > 0 ? x : 0.0;
    case Kind::kTanh: return math::tanh(x);
    case Kind::kSigmoid: return 1.0 / (1.0 + math::exp(-x));
    case Kind::kAffine: return alpha * x + beta;
    case Kind::kLeakyRelu: return x >= 0 ? x : alpha * x;
    case Kind::kThresholdedRelu: return x >= alpha ? x : 0.0;
    case Kind::kScaledTanh: return alpha * math::tanh(beta * x);
    case Kind::kHardSigmoid: return std::min(std::max(alpha * x + beta, 0.0), 1.0);
    case Kind::kElu: return x >= 0 ? x : alpha * math::expm1(x);
    case Kind::kSoftsign: return x / (1.0 + std::fabs(x));
    case Kind::kSoftplus:  // log(1 + e^x), written so e^x cannot overflow
      return x > 0 ? x + math::log1p(math::exp(-x)) : math::log1p(math::exp(x));
  }
  return x;
}

Result<std::vector<RnnActivation>> parse_rnn_activations(const KernelInit& init,
                                                         const std::vector<std::string>& names,
                                                         const std::vector<float>& alphas,
                                                         const std::vector<float>& betas) {
  std::vector<RnnActivation> out;
  size_t next_alpha = 0, next_beta = 0;
  for (const std::string& name : names) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    const ActivationInfo* info = nullptr;
    for (const ActivationInfo& a : kActivations)
      if (lower == a.name) info = &a;
    if (!info) return init.unsupported("activation function '" + name + "' is not supported");
    RnnActivation act;
    act.kind = info->kind;
    act.alpha = info->default_alpha;
    act.beta = info->default_beta;
    if (info->takes_alpha && next_alpha < alphas.size()) act.alpha = alphas[next_alpha++];
    if (info->takes_beta && next_beta < betas.size()) act.beta = betas[next_beta++];
    out.push_back(act);
  }
  return out;
}

}  // namespace twinrt
