// The pixel normalization parameters shared by the image steps: scale, mean, std, bgr.
#pragma once

#include "parity/preprocess.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {

// Reads "scale" (default 1/255), "mean", "std" (3 numbers each) and "bgr" into a
// PreprocessSpec producing NCHW float32.
Result<parity::PreprocessSpec> normalize_params(const nlohmann::json& params);
inline const std::vector<std::string> kNormalizeKeys = {"scale", "mean", "std", "bgr"};

}  // namespace twinrt::pipeline
