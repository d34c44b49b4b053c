#include "ops/quant/qlinear_requant.h"

#include "ops/quant/quant_common.h"

namespace twinrt::quant {

Status read_qlinear_requant(RunContext& ctx, int64_t channels, QLinearRequant& rq) {
  ASSIGN_OR_RETURN(const Tensor* xs_t, ctx.tensor_input(1));
  ASSIGN_OR_RETURN(const Tensor* ws_t, ctx.tensor_input(4));
  ASSIGN_OR_RETURN(const Tensor* ys_t, ctx.tensor_input(6));
  ASSIGN_OR_RETURN(const Tensor* yz_t, ctx.tensor_input(7));
  ASSIGN_OR_RETURN(std::vector<float> xs, read_scales(*xs_t, "x_scale"));
  ASSIGN_OR_RETURN(std::vector<float> ws, read_scales(*ws_t, "w_scale"));
  ASSIGN_OR_RETURN(std::vector<float> ys, read_scales(*ys_t, "y_scale"));
  ASSIGN_OR_RETURN(std::vector<int32_t> yz, read_zero_points(*yz_t, "y_zero_point"));
  if (xs.size() != 1 || ys.size() != 1 || yz.size() != 1 || (ws.size() != 1 && static_cast<int64_t>(ws.size()) != channels))
    return invalid_argument("QLinearConv needs scalar x_scale, y_scale, y_zero_point and a scalar or per-channel w_scale");
  rq.y_zero = yz[0];
  rq.y_type = yz_t->dtype();
  rq.multiplier.resize(static_cast<size_t>(channels));
  for (size_t m = 0; m < rq.multiplier.size(); ++m) rq.multiplier[m] = xs[0] * ws[ws.size() == 1 ? 0 : m] / ys[0];
  rq.bias.assign(static_cast<size_t>(channels), 0);
  if (ctx.has_input(8)) {
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(8));
    if (b->dtype() != DataType::kInt32 || b->rank() != 1 || b->dim(0) != channels)
      return invalid_argument("QLinearConv B must be int32 of shape [" + std::to_string(channels) + "], got " +
                              dtype_name(b->dtype()) + shape_to_string(b->shape()));
    rq.bias.assign(b->data<int32_t>(), b->data<int32_t>() + channels);
  }
  return Status::ok();
}

}  // namespace twinrt::quant
