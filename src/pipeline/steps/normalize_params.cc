#include "pipeline/steps/normalize_params.h"

namespace twinrt::pipeline {

Result<parity::PreprocessSpec> normalize_params(const nlohmann::json& params) {
  parity::PreprocessSpec spec;
  ASSIGN_OR_RETURN(spec.scale, number_param(params, "scale", 1.0 / 255.0));
  ASSIGN_OR_RETURN(spec.mean, numbers_param(params, "mean", {0, 0, 0}));
  ASSIGN_OR_RETURN(spec.std, numbers_param(params, "std", {1, 1, 1}));
  for (double s : spec.std)
    if (s == 0) return invalid_argument("parameter 'std' must not contain 0");
  ASSIGN_OR_RETURN(spec.bgr, bool_param(params, "bgr", spec.bgr));
  return spec;
}

}  // namespace twinrt::pipeline
