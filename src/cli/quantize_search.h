// `twinrt quantize --static --target ACCURACY --policy NAME|FILE`: the sensitivity search
// (quantize/search.h) with models run on twinrt in-process and judged under a parity
// policy against the float model on the calibration inputs.
//
// ACCURACY is the share of calibration cases on which every graph output of the quantized
// model passes the policy against the float model's (compare's per-case verdicts), in
// (0, 1]: 1 means every case passes. A node's sensitivity is the largest relative RMS error
// (rmse_relative, over all cases) of the graph outputs when that node alone is quantized.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "cli/progress_bar.h"
#include "ir/ir.h"
#include "parity/inputs.h"
#include "parity/policy.h"
#include "quantize/quantize.h"
#include "quantize/search.h"

namespace twinrt::cli {

struct SearchRequest {
  const ir::Model* float_model = nullptr;
  std::string float_model_path;
  quantize::QuantizeOptions options;  // the user's exclusions stay excluded
  quantize::ActivationRanges ranges;  // from one calibration of the full quantization
  const parity::InputSet* inputs = nullptr;
  parity::PolicySet policies;
  double target = 1.0;
  int max_steps = 10;
  ProgressBar progress;  // null: no bar
};

// Runs the search and prints each step and a summary on stdout. The result's `chosen`
// step is the configuration to write.
Result<quantize::SearchOutcome> run_sensitivity_search(const SearchRequest& request,
                                                       const std::vector<std::string>& candidates);

}  // namespace twinrt::cli
