#include "runtime/feed_check.h"

#include <memory>

#include "ir/bool_values.h"

namespace twinrt {
namespace {

Status check_tensor(const ir::TypeInfo& t, const Tensor& tensor, const std::string& what) {
  if (t.elem != DataType::kUndefined && tensor.dtype() != t.elem)
    return invalid_argument(what + " must be " + dtype_name(t.elem) + ", got " + dtype_name(tensor.dtype()));
  if (!t.shape) return Status::ok();
  const ir::Shape& s = *t.shape;
  bool ok = static_cast<size_t>(tensor.rank()) == s.size();
  for (size_t i = 0; ok && i < s.size(); ++i) ok = !s[i].known() || s[i].value == tensor.shape()[i];
  if (!ok)
    return invalid_argument(what + " must have shape " + ir::shape_to_string(s) + ", got " +
                            shape_to_string(tensor.shape()));
  return Status::ok();
}

Result<Value> conform_sequence(const ir::TypeInfo& t, const Value& v, const std::string& what) {
  const ir::TypeInfo* elem = t.inner && t.inner->is_tensor() ? t.inner.get() : nullptr;
  if (elem && elem->elem != DataType::kUndefined && v.sequence_dtype != DataType::kUndefined &&
      v.sequence_dtype != elem->elem)
    return invalid_argument(what + " must be a sequence of " + dtype_name(elem->elem) + " tensors, got one of " +
                            dtype_name(v.sequence_dtype));
  std::vector<Tensor> items;
  items.reserve(v.sequence.size());
  for (size_t i = 0; i < v.sequence.size(); ++i) {
    const std::string item_what = what + " element " + std::to_string(i);
    if (v.sequence_dtype != DataType::kUndefined && v.sequence[i].dtype() != v.sequence_dtype)
      return invalid_argument(item_what + " is " + dtype_name(v.sequence[i].dtype()) + " in a sequence of " +
                              dtype_name(v.sequence_dtype));
    if (elem) TRY(check_tensor(*elem, v.sequence[i], item_what));
    ASSIGN_OR_RETURN(Tensor item, ir::with_canonical_bools(v.sequence[i]));
    items.push_back(std::move(item));
  }
  DataType dtype = v.sequence_dtype;
  if (dtype == DataType::kUndefined && elem) dtype = elem->elem;
  return Value::of_sequence(std::move(items), dtype);
}

}  // namespace

Result<Value> conform_feed(const ir::TypeInfo& t, const Value& v, const std::string& what) {
  switch (t.kind) {
    case ir::TypeInfo::Kind::kTensor: {
      if (!v.is_tensor()) return invalid_argument(what + " must be a tensor");
      TRY(check_tensor(t, v.tensor, what));
      ASSIGN_OR_RETURN(Tensor tensor, ir::with_canonical_bools(v.tensor));
      return Value::of(std::move(tensor));
    }
    case ir::TypeInfo::Kind::kSequence:
      if (!v.is_sequence()) return invalid_argument(what + " must be a sequence");
      return conform_sequence(t, v, what);
    case ir::TypeInfo::Kind::kOptional: {
      if (!v.is_optional()) return invalid_argument(what + " must be an optional");
      if (!v.optional || !t.inner) return v;
      ASSIGN_OR_RETURN(Value inner, conform_feed(*t.inner, *v.optional, what));
      return Value::of_optional(std::make_shared<const Value>(std::move(inner)));
    }
    default:
      if (v.is_tensor()) {
        ASSIGN_OR_RETURN(Tensor tensor, ir::with_canonical_bools(v.tensor));
        return Value::of(std::move(tensor));
      }
      return v;
  }
}

}  // namespace twinrt
