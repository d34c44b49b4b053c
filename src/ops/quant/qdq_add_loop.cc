#include "ops/quant/qdq_add_loop.h"

#include "ops/quant/quant_common.h"

namespace twinrt::quant {
namespace {

// The scale at `scale` and its uint8 zero point at `scale + 1`, when both are constant scalars.
bool constant_param(const KernelInit& init, size_t scale, float& s, int32_t& z) {
  const Tensor* st = scale + 1 < init.constant_inputs.size() ? init.constant_inputs[scale] : nullptr;
  const Tensor* zt = st ? init.constant_inputs[scale + 1] : nullptr;
  if (!zt || st->dtype() != DataType::kFloat || st->numel() != 1 || zt->dtype() != DataType::kUInt8 || zt->numel() != 1)
    return false;
  s = st->data<float>()[0];
  z = zt->data<uint8_t>()[0];
  return true;
}

}  // namespace

QdqAddLoop::QdqAddLoop(const KernelInit& init, QdqAddInputs at, bool relu, const kernels::I8GemmKernel& tier)
    : tier_(tier) {
  kernels::QdqAddParams p;
  p.relu = relu;
  if (tier.qdq_add_u8_by_inverse && constant_param(init, at.a_scale, p.a_scale, p.a_zero) &&
      constant_param(init, at.b_scale, p.b_scale, p.b_zero) && constant_param(init, at.y_scale, p.y_scale, p.y_zero) &&
      kernels::qdq_add_by_inverse_is_exact(tier, p))
    by_inverse_ = p;
}

kernels::I8QdqAddU8Fn QdqAddLoop::for_params(const kernels::QdqAddParams& p) const {
  if (by_inverse_ && *by_inverse_ == p) return tier_.qdq_add_u8_by_inverse;
  return tier_.qdq_add_u8 ? tier_.qdq_add_u8 : kernels::qdq_add_u8;
}

}  // namespace twinrt::quant
