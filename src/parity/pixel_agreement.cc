// Segmentation outputs: agreement of the per-position class (argmax over channels).
#include <cmath>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// Argmax over `channels` values spaced `stride` apart; ties to the lower channel; -1 when
// a value is NaN (a NaN position never agrees).
int64_t argmax(const double* v, int64_t channels, int64_t stride) {
  int64_t best = 0;
  for (int64_t c = 0; c < channels; ++c) {
    if (std::isnan(v[c * stride])) return -1;
    if (v[c * stride] > v[best * stride]) best = c;
  }
  return best;
}

}  // namespace

Result<double> pixel_agreement(const std::vector<double>& ref, const std::vector<double>& test,
                               const std::vector<int64_t>& shape, bool labels) {
  if (ref.empty()) return 1.0;
  if (labels) {
    int64_t equal = 0;
    for (size_t i = 0; i < ref.size(); ++i) equal += ref[i] == test[i];
    return static_cast<double>(equal) / static_cast<double>(ref.size());
  }
  if (shape.size() < 2 || shape[1] == 0)
    return invalid_argument("pixel agreement: output shape " + shape_to_string(shape) +
                            " is not [N, C, ...] with C > 0");
  const int64_t channels = shape[1];
  int64_t inner = 1;
  for (size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
  const int64_t outer = shape[0];
  int64_t equal = 0;
  for (int64_t n = 0; n < outer; ++n) {
    for (int64_t p = 0; p < inner; ++p) {
      const size_t base = static_cast<size_t>(n * channels * inner + p);
      const int64_t a = argmax(&ref[base], channels, inner);
      equal += a >= 0 && a == argmax(&test[base], channels, inner);
    }
  }
  return static_cast<double>(equal) / static_cast<double>(outer * inner);
}

}  // namespace twinrt::parity
