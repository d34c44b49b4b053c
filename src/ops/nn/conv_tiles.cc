#include "ops/nn/conv_tiles.h"

namespace twinrt::nn {

bool ConvPlan::is_pointwise() const {
  for (size_t d = 0; d < window.rank(); ++d)
    if (window.kernel[d] != 1 || window.strides[d] != 1 || window.pad_begin[d] != 0 || window.pad_end[d] != 0)
      return false;
  return true;
}

Result<ConvPlan> make_conv_plan(const WindowAttrs& attrs, int64_t group, const std::vector<int64_t>& x,
                                const std::vector<int64_t>& w) {
  if (x.size() < 3 || w.size() != x.size())
    return invalid_argument("convolution needs X [N, C, spatial...] and W of the same rank, got X " +
                            shape_to_string(x) + " and W " + shape_to_string(w));
  ConvPlan p;
  p.batch = x[0];
  p.in_channels = x[1];
  p.out_channels = w[0];
  p.group = group;
  if (p.in_channels % group != 0 || p.out_channels % group != 0 || w[1] * group != p.in_channels)
    return invalid_argument("channels do not split into " + std::to_string(group) + " groups: X " +
                            shape_to_string(x) + ", W " + shape_to_string(w));
  std::vector<int64_t> spatial(x.begin() + 2, x.end()), kernel(w.begin() + 2, w.end());
  if (!attrs.kernel_shape.empty() && attrs.kernel_shape != kernel)
    return invalid_argument("kernel_shape " + shape_to_string(attrs.kernel_shape) + " differs from W's " +
                            shape_to_string(kernel));
  ASSIGN_OR_RETURN(p.window, forward_geometry(attrs, spatial, kernel));
  return p;
}

std::optional<ir::Shape> conv_output_shape(const WindowAttrs& attrs, const ir::Shape* x, const ir::Shape* w) {
  if (!x || x->size() < 3) return std::nullopt;
  ir::Shape out(x->size());
  out[0] = (*x)[0];
  if (w && w->size() == x->size()) out[1] = (*w)[0];
  if (!w || w->size() != x->size()) return out;
  std::vector<int64_t> spatial, kernel;
  for (size_t d = 2; d < x->size(); ++d) {
    if (!(*x)[d].known() || !(*w)[d].known()) return out;
    spatial.push_back((*x)[d].value);
    kernel.push_back((*w)[d].value);
  }
  auto g = forward_geometry(attrs, spatial, kernel);
  if (!g) return out;
  for (size_t d = 0; d < spatial.size(); ++d) out[d + 2] = ir::Dim::of(g->out[d]);
  return out;
}

}  // namespace twinrt::nn
