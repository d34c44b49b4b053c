// `twinrt inspect --markdown FILE`: a model card (MODEL.md) with what the file says
// (opsets, input/output contract with dynamic axes, hashes, sizes) and sections the
// model's owner fills in (preprocessing, postprocessing, export versions).
#pragma once

#include <string>

#include "cli/model_summary.h"

namespace twinrt::cli {

std::string render_model_card(const ModelSummary& s);

}  // namespace twinrt::cli
