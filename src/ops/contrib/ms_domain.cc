#include "ops/contrib/ms_domain.h"

#include "ops/quant/quant_common.h"

namespace twinrt::contrib {

Result<QParam> read_qparam(RunContext& ctx, size_t scale, size_t zero, DataType q, const std::string& name) {
  QParam p;
  if (!ctx.has_input(scale)) return invalid_argument(name + "_scale (input " + std::to_string(scale) + ") is missing");
  ASSIGN_OR_RETURN(const Tensor* s, ctx.tensor_input(scale));
  if (s->numel() != 1)
    return not_implemented(name + "_scale must be a scalar (per-tensor), got shape " + shape_to_string(s->shape()));
  ASSIGN_OR_RETURN(std::vector<float> sv, quant::read_scales(*s, name + "_scale"));
  p.scale = sv[0];
  if (!ctx.has_input(zero)) return p;
  ASSIGN_OR_RETURN(const Tensor* z, ctx.tensor_input(zero));
  if (z->dtype() != q)
    return invalid_argument(name + "_zero_point must have " + name + "'s type " + dtype_name(q) + ", got " +
                            dtype_name(z->dtype()));
  if (z->numel() != 1)
    return not_implemented(name + "_zero_point must be a scalar (per-tensor), got shape " + shape_to_string(z->shape()));
  ASSIGN_OR_RETURN(std::vector<int32_t> zv, quant::read_zero_points(*z, name + "_zero_point"));
  p.zero = zv[0];
  return p;
}

Result<UnaryQLinear> read_unary_qlinear(RunContext& ctx, const std::string& x, const std::string& y) {
  UnaryQLinear in;
  ASSIGN_OR_RETURN(in.x, ctx.tensor_input(0));
  TRY(check_8bit(*in.x, "X"));
  ASSIGN_OR_RETURN(in.px, read_qparam(ctx, 1, 2, in.x->dtype(), x));
  ASSIGN_OR_RETURN(in.py, read_qparam(ctx, 3, 4, in.x->dtype(), y));
  return in;
}

Status check_8bit(const Tensor& t, const std::string& name) {
  if (t.dtype() == DataType::kUInt8 || t.dtype() == DataType::kInt8) return Status::ok();
  return invalid_argument(name + " must be uint8 or int8, got " + dtype_name(t.dtype()));
}

Status check_inputs(const KernelInit& init, size_t min, size_t max, std::initializer_list<size_t> required) {
  const std::string op = init.node.op_type;
  if (init.num_inputs() < min || init.num_inputs() > max)
    return init.error(op + " takes " + std::to_string(min) + (min == max ? "" : " to " + std::to_string(max)) +
                      " inputs, got " + std::to_string(init.num_inputs()));
  for (size_t i : required)
    if (!init.has_input(i)) return init.error(op + " input " + std::to_string(i) + " is required");
  return Status::ok();
}

}  // namespace twinrt::contrib
