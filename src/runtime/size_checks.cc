#include "runtime/size_checks.h"

#include <limits>

#include "ir/memory_budget.h"

namespace twinrt {
namespace {

constexpr uint64_t kOverflow = std::numeric_limits<uint64_t>::max();

// Bytes of a tensor type whose every dimension is known; 0 when not known (or not a tensor).
uint64_t static_bytes(const ir::TypeInfo& t) {
  if (!t.is_tensor() || !t.shape || !dtype_is_valid(static_cast<int32_t>(t.elem))) return 0;
  uint64_t bytes = dtype_size(t.elem);
  for (const ir::Dim& d : *t.shape) {
    if (!d.known()) return 0;
    const auto dim = static_cast<uint64_t>(d.value);
    if (dim != 0 && bytes > kOverflow / dim) return kOverflow;
    bytes *= dim;
  }
  return bytes;
}

uint64_t value_bytes(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kTensor: return v.tensor.nbytes();
    case Value::Kind::kSequence: {
      uint64_t total = 0;
      for (const Tensor& t : v.sequence) total += t.nbytes();
      return total;
    }
    case Value::Kind::kOptional: return v.optional ? value_bytes(*v.optional) : 0;
    case Value::Kind::kNone: return 0;
  }
  return 0;
}

Status check_empty_extents(const Value& v, const std::string& what, const ResourceLimits& limits) {
  switch (v.kind) {
    case Value::Kind::kTensor: return check_empty_extent(dtype_size(v.tensor.dtype()), v.tensor.shape(), what, limits);
    case Value::Kind::kSequence:
      for (const Tensor& t : v.sequence) TRY(check_empty_extent(dtype_size(t.dtype()), t.shape(), what, limits));
      return Status::ok();
    case Value::Kind::kOptional: return v.optional ? check_empty_extents(*v.optional, what, limits) : Status::ok();
    case Value::Kind::kNone: return Status::ok();
  }
  return Status::ok();
}

}  // namespace

uint64_t constant_bytes(const Subgraph& g) {
  uint64_t total = 0;
  for (const auto& [slot, v] : g.constants) total += value_bytes(v);
  return total;
}

Status check_declared_sizes(const Subgraph& g, const ResourceLimits& limits) {
  uint64_t inputs = 0;
  for (const ir::ValueInfo& in : g.inputs) {
    const uint64_t bytes = static_bytes(in.type);
    TRY(check_tensor_bytes(bytes, "input '" + in.name + "' (" + ir::type_to_string(in.type) + ")", limits));
    inputs += bytes;
  }
  TRY(check_memory_bytes(constant_bytes(g), inputs, "the inputs as declared", limits));
  for (size_t i = 0; i < g.slot_types.size(); ++i)
    TRY(check_tensor_bytes(static_bytes(g.slot_types[i]),
                           "value '" + g.slot_names[i] + "' (" + ir::type_to_string(g.slot_types[i]) + ")", limits));
  return Status::ok();
}

Result<uint64_t> check_feed_sizes(const std::map<std::string, Value>& feeds, const Subgraph& g,
                                  const ResourceLimits& limits) {
  uint64_t total = 0;
  for (const auto& [name, v] : feeds) {
    const uint64_t bytes = value_bytes(v);
    TRY(check_tensor_bytes(bytes, "input '" + name + "'", limits));
    TRY(check_empty_extents(v, "input '" + name + "'", limits));
    total += bytes;
  }
  TRY(check_memory_bytes(constant_bytes(g), total, "the inputs", limits));
  return total;
}

}  // namespace twinrt
