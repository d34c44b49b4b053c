#include "ops/nn/channel_map.h"

#include <algorithm>

namespace twinrt::nn {

std::optional<std::pair<const Tensor*, ChannelMap>> split_channel_scale(const Tensor& a, const Tensor& b) {
  const auto per_channel = [](const Tensor& x, const Tensor& s) {
    if (x.dtype() != DataType::kFloat || s.dtype() != DataType::kFloat || x.rank() < 3 || s.rank() != x.rank() ||
        x.dim(1) <= 1 || s.dim(1) != x.dim(1) || (s.dim(0) != 1 && s.dim(0) != x.dim(0)))
      return false;
    for (int64_t d = 2; d < s.rank(); ++d)
      if (s.dim(d) != 1) return false;
    return true;
  };
  for (auto [x, s] : {std::pair{&a, &b}, std::pair{&b, &a}})
    if (per_channel(*x, *s)) return std::pair{x, ChannelMap{{s->data<float>()}, s->dim(0) == 1 ? 0 : s->dim(1)}};
  return std::nullopt;
}

void pack_mapped_panels(kernels::F32MapPanelFn map_panel, const float* image, const ChannelMap& map, int64_t taps,
                        int64_t positions, int64_t first, int64_t panels, int nr, float* out) {
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t col0 = first + q * nr;
    const int64_t valid = std::clamp<int64_t>(positions - col0, 0, nr);
    map_panel(map.rows, image + col0, positions, taps, valid, nr, out + q * taps * nr);
  }
}

void scale_weight_panels(const float* panels, int64_t count, int64_t taps, int mr, const float* factors, float* out) {
  for (int64_t q = 0; q < count; ++q)
    for (int64_t k = 0; k < taps; ++k) {
      const float* src = panels + (q * taps + k) * mr;
      float* dst = out + (q * taps + k) * mr;
      const float factor = factors[k];
      for (int r = 0; r < mr; ++r) dst[r] = src[r] * factor;
    }
}

}  // namespace twinrt::nn
