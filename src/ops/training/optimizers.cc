// Adagrad, Adam and Momentum (ai.onnx.preview.training, version 1), written as the
// element rules of the spec's pseudo code.
#include <cmath>

#include "kernels/math/math.h"
#include "ops/training/optimizer_update.h"

namespace twinrt {
namespace {

constexpr const char* kTrainingDomain = "ai.onnx.preview.training";

// Inputs per variable: X, G, H. Outputs: X_new, H_new.
Result<std::unique_ptr<OpKernel>> create_adagrad(const KernelInit& init) {
  ASSIGN_OR_RETURN(float decay, init.attr_float("decay_factor", 0.0f));
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-6f));
  ASSIGN_OR_RETURN(float norm, init.attr_float("norm_coefficient", 0.0f));
  return make_optimizer_kernel(init, 3, 2, [=](const OptimizerStep& s, const double* in, double* out) {
    const double x = in[0], g = in[1], h = in[2];
    const double r = s.learning_rate / (1.0 + static_cast<double>(s.update_count) * decay);
    const double g_reg = norm * x + g;
    const double h_new = h + g_reg * g_reg;
    const double h_adaptive = std::sqrt(h_new) + epsilon;
    out[0] = x - r * g_reg / h_adaptive;
    out[1] = h_new;
  });
}

// Inputs per variable: X, G, V, H. Outputs: X_new, V_new, H_new.
Result<std::unique_ptr<OpKernel>> create_adam(const KernelInit& init) {
  ASSIGN_OR_RETURN(float alpha, init.attr_float("alpha", 0.9f));
  ASSIGN_OR_RETURN(float beta, init.attr_float("beta", 0.999f));
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-6f));
  ASSIGN_OR_RETURN(float norm, init.attr_float("norm_coefficient", 0.0f));
  ASSIGN_OR_RETURN(float norm_post, init.attr_float("norm_coefficient_post", 0.0f));
  return make_optimizer_kernel(init, 4, 3, [=](const OptimizerStep& s, const double* in, double* out) {
    const double x = in[0], g = in[1], v = in[2], h = in[3];
    const double g_reg = norm * x + g;
    const double v_new = alpha * v + (1.0 - alpha) * g_reg;
    const double h_new = beta * h + (1.0 - beta) * g_reg * g_reg;
    const double h_sqrt = std::sqrt(h_new) + epsilon;
    const auto t = static_cast<double>(s.update_count);
    const double r_adjusted =
        s.update_count > 0 ? s.learning_rate * std::sqrt(1.0 - math::pow(beta, t)) / (1.0 - math::pow(alpha, t))
                           : s.learning_rate;
    const double x_new = x - r_adjusted * v_new / h_sqrt;
    out[0] = (1.0 - norm_post) * x_new;
    out[1] = v_new;
    out[2] = h_new;
  });
}

Result<bool> is_nesterov(const KernelInit& init) {
  auto mode = init.attr_string("mode", "");
  if (!mode) return mode.status();
  if (*mode == "nesterov") return true;
  if (*mode == "standard") return false;
  return init.error("mode must be 'standard' or 'nesterov', got '" + *mode + "'");
}

// Inputs per variable: X, G, V. Outputs: X_new, V_new.
Result<std::unique_ptr<OpKernel>> create_momentum(const KernelInit& init) {
  for (const char* required : {"alpha", "beta", "mode", "norm_coefficient"})
    if (!init.has_attr(required)) return init.error(std::string("attribute '") + required + "' is required");
  ASSIGN_OR_RETURN(float alpha, init.attr_float("alpha", 0.0f));
  ASSIGN_OR_RETURN(float beta, init.attr_float("beta", 0.0f));
  ASSIGN_OR_RETURN(float norm, init.attr_float("norm_coefficient", 0.0f));
  ASSIGN_OR_RETURN(bool nesterov, is_nesterov(init));
  return make_optimizer_kernel(init, 3, 2, [=](const OptimizerStep& s, const double* in, double* out) {
    const double x = in[0], g = in[1], v = in[2];
    const double g_reg = norm * x + g;
    const double beta_adjusted = s.update_count > 0 ? beta : 1.0;
    const double v_new = alpha * v + beta_adjusted * g_reg;
    out[0] = nesterov ? x - s.learning_rate * (g_reg + alpha * v_new) : x - s.learning_rate * v_new;
    out[1] = v_new;
  });
}

}  // namespace

TWINRT_REGISTER_OP_EX(kTrainingDomain, "Adagrad", 1, INT64_MAX, "ref", 0, create_adagrad);
TWINRT_REGISTER_OP_EX(kTrainingDomain, "Adam", 1, INT64_MAX, "ref", 0, create_adam);
TWINRT_REGISTER_OP_EX(kTrainingDomain, "Momentum", 1, INT64_MAX, "ref", 0, create_momentum);

}  // namespace twinrt
