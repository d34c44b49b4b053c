#include "io/declared_bfloat16.h"

namespace twinrt::io {

Result<Value> uint16_as_bfloat16(Value v, const ir::TypeInfo& declared) {
  if (!v.is_tensor() || !declared.is_tensor() || declared.elem != DataType::kBFloat16 ||
      v.tensor.dtype() != DataType::kUInt16)
    return v;
  ASSIGN_OR_RETURN(Tensor t, Tensor::view(DataType::kBFloat16, v.tensor.shape(), v.tensor.storage(),
                                          v.tensor.byte_offset()));
  return Value::of(std::move(t));
}

}  // namespace twinrt::io
