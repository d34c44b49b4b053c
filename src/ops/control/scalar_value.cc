#include "ops/control/scalar_value.h"

namespace twinrt {
namespace {

Result<const Tensor*> one_element_tensor(const Value* v, const std::string& what) {
  if (!v) return invalid_argument(what + " is missing");
  if (!v->is_tensor()) return invalid_argument(what + " must be a tensor");
  if (v->tensor.numel() != 1)
    return invalid_argument(what + " must have exactly one element, got shape " +
                            shape_to_string(v->tensor.shape()));
  return &v->tensor;
}

}  // namespace

Result<bool> read_bool_scalar(const Value* v, const std::string& what) {
  ASSIGN_OR_RETURN(const Tensor* t, one_element_tensor(v, what));
  if (t->dtype() != DataType::kBool)
    return invalid_argument(what + " must be bool, got " + dtype_name(t->dtype()));
  return *static_cast<const uint8_t*>(t->raw()) != 0;  // any nonzero byte is true
}

Result<int64_t> read_int_scalar(const Value* v, const std::string& what) {
  ASSIGN_OR_RETURN(const Tensor* t, one_element_tensor(v, what));
  if (t->dtype() == DataType::kInt64) return *t->data<int64_t>();
  if (t->dtype() == DataType::kInt32) return static_cast<int64_t>(*t->data<int32_t>());
  return invalid_argument(what + " must be int32 or int64, got " + dtype_name(t->dtype()));
}

Result<Tensor> make_scalar_int64(int64_t v) { return Tensor::from_vector<int64_t>({}, {v}); }
Result<Tensor> make_scalar_bool(bool v) { return Tensor::from_vector<bool>({}, {v}); }

}  // namespace twinrt
