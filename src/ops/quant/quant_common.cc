#include "ops/quant/quant_common.h"

namespace twinrt::quant {

Result<std::vector<int32_t>> read_zero_points(const Tensor& t, const std::string& what) {
  std::vector<int32_t> out(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < out.size(); ++i) {
    switch (t.dtype()) {
      case DataType::kUInt8: out[i] = t.data<uint8_t>()[i]; break;
      case DataType::kInt8: out[i] = t.data<int8_t>()[i]; break;
      case DataType::kInt32: out[i] = t.data<int32_t>()[i]; break;
      default:
        return invalid_argument(what + " must be uint8, int8 or int32, got " + dtype_name(t.dtype()));
    }
  }
  return out;
}

Result<std::vector<float>> read_scales(const Tensor& t, const std::string& what) {
  if (t.dtype() != DataType::kFloat) return invalid_argument(what + " must be float32, got " + dtype_name(t.dtype()));
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

Result<ParamLayout> param_layout(const std::vector<int64_t>& shape, int64_t axis, const Tensor& params,
                                 const std::string& what) {
  ParamLayout l;
  if (params.rank() == 0 || (params.rank() == 1 && params.numel() == 1)) return l;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (params.rank() != 1 || a < 0 || a >= rank || params.dim(0) != shape[static_cast<size_t>(a)])
    return invalid_argument(what + " of shape " + shape_to_string(params.shape()) +
                            " is neither a scalar nor a 1-D tensor matching axis " + std::to_string(axis) +
                            " of input shape " + shape_to_string(shape));
  l.count = params.dim(0);
  for (int64_t d = a + 1; d < rank; ++d) l.inner *= shape[static_cast<size_t>(d)];
  return l;
}

}  // namespace twinrt::quant
