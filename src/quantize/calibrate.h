// Activation ranges from calibration runs of the float model.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"
#include "quantize/quantize.h"

namespace twinrt::quantize {

// [lo, hi] per value: minmax takes the extremes over every case; percentile clips each
// side at the given percentile of the values seen (a histogram over the minmax range);
// entropy clips both sides at the magnitude whose clipped, quantized distribution is
// closest in KL divergence to the one seen (histogram.h).
Result<ActivationRanges> calibrate(const ir::Model& model, const std::vector<std::string>& values,
                                   const std::vector<Feeds>& cases, const QuantizeOptions& options,
                                   const std::function<void(size_t, size_t)>& progress);

}  // namespace twinrt::quantize
