#include "ops/sequence/sequence_util.h"

#include "ops/control/scalar_value.h"

namespace twinrt {

Result<const Value*> sequence_input(const RunContext& ctx, size_t i) {
  const Value* v = ctx.input_value(i);
  if (!v) return invalid_argument("input " + std::to_string(i) + " (a sequence) is missing");
  if (!v->is_sequence()) return invalid_argument("input " + std::to_string(i) + " must be a sequence");
  return v;
}

Result<size_t> sequence_position(const Value* position, size_t n, bool allow_end) {
  ASSIGN_OR_RETURN(int64_t pos, read_int_scalar(position, "position"));
  const auto len = static_cast<int64_t>(n);
  const int64_t hi = allow_end ? len : len - 1;
  if (pos < -len || pos > hi)
    return invalid_argument("position " + std::to_string(pos) + " is out of range [" + std::to_string(-len) +
                            ", " + std::to_string(hi) + "] for a sequence of " + std::to_string(n) + " tensors");
  return static_cast<size_t>(pos < 0 ? pos + len : pos);
}

ir::TypeInfo sequence_type(DataType elem) { return ir::TypeInfo::sequence_of(ir::TypeInfo::tensor(elem)); }

DataType sequence_elem_type(const ir::TypeInfo& t) {
  if (t.kind != ir::TypeInfo::Kind::kSequence || !t.inner) return DataType::kUndefined;
  return t.inner->elem;
}

}  // namespace twinrt
