// C ABI for values: JavaScript builds tensors, sequences and optionals to feed a run and
// reads the outputs back (dtype codes are ONNX TensorProto.DataType numbers).
#include <emscripten/emscripten.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "binding.h"

namespace twinrt::wasm {
namespace {

// Dimensions arrive as doubles (exact for every size a tensor can have).
Result<std::vector<int64_t>> read_dims(const double* dims, int rank) {
  if (rank < 0) return invalid_argument("tensor rank must be >= 0");
  std::vector<int64_t> shape;
  for (int i = 0; i < rank; ++i) {
    double d = dims[i];
    if (!(d >= 0 && d <= 9007199254740992.0) || d != static_cast<double>(static_cast<int64_t>(d)))
      return invalid_argument("tensor dims must be non-negative integers, got " + std::to_string(d) +
                              " at index " + std::to_string(i));
    shape.push_back(static_cast<int64_t>(d));
  }
  return shape;
}

// A numeric tensor of `dims` with unspecified contents, refused unless it takes exactly
// `nbytes`: whoever fills it writes nbytes, so the check keeps that write inside.
Result<Tensor> numeric_tensor_for_overwrite(int dtype, const double* dims, int rank, size_t nbytes) {
  if (!dtype_is_valid(dtype) || dtype == static_cast<int>(DataType::kString))
    return invalid_argument("unsupported tensor type code " + std::to_string(dtype));
  ASSIGN_OR_RETURN(auto shape, read_dims(dims, rank));
  ASSIGN_OR_RETURN(Tensor t, Tensor::create_for_overwrite(static_cast<DataType>(dtype), shape));
  if (t.nbytes() != nbytes)
    return invalid_argument("tensor data has " + std::to_string(nbytes) + " bytes, dims " +
                            shape_to_string(t.shape()) + " of " + dtype_name(t.dtype()) + " need " +
                            std::to_string(t.nbytes()));
  return t;
}

// `bytes` holds `nbytes` of UTF-8: `count` strings back to back, `lengths` their byte
// counts. Counts and lengths are checked here even though JavaScript checked them: a
// length past the buffer would copy heap memory into the tensor (and out to the caller).
Result<Tensor> string_tensor(const double* dims, int rank, const char* bytes, size_t nbytes,
                             const uint32_t* lengths, size_t count) {
  ASSIGN_OR_RETURN(auto shape, read_dims(dims, rank));
  const int64_t numel = shape_numel(shape);
  if (numel < 0) return invalid_argument("string tensor: invalid dims " + shape_to_string(shape));
  if (static_cast<uint64_t>(numel) != count)
    return invalid_argument("string tensor: dims " + shape_to_string(shape) + " need " + std::to_string(numel) +
                            " strings, got " + std::to_string(count));
  size_t used = 0;
  for (size_t i = 0; i < count; ++i) {
    if (lengths[i] > nbytes - used)
      return invalid_argument("string tensor: string " + std::to_string(i) + " (" + std::to_string(lengths[i]) +
                              " bytes) runs past the " + std::to_string(nbytes) + " bytes of string data");
    used += lengths[i];
  }
  if (used != nbytes)
    return invalid_argument("string tensor: the strings take " + std::to_string(used) + " of the " +
                            std::to_string(nbytes) + " bytes of string data");
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(DataType::kString, shape));
  auto* out = t.data<std::string>();
  size_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    out[i].assign(bytes + offset, lengths[i]);
    offset += lengths[i];
  }
  return t;
}

// Takes over every item, so that all are freed whatever happens.
Result<Value> sequence_value(int elem_dtype, Value** items, int count) {
  std::vector<std::unique_ptr<Value>> owned;
  for (int i = 0; i < count; ++i) owned.emplace_back(items[i]);
  if (elem_dtype != 0 && !dtype_is_valid(elem_dtype))
    return invalid_argument("unsupported sequence element type code " + std::to_string(elem_dtype));
  const auto elem = static_cast<DataType>(elem_dtype);
  std::vector<Tensor> tensors;
  for (int i = 0; i < count; ++i) {
    const Value* item = owned[static_cast<size_t>(i)].get();
    if (!item || !item->is_tensor()) return invalid_argument("sequence items must be tensors");
    if (elem != DataType::kUndefined && item->tensor.dtype() != elem)
      return invalid_argument("sequence item " + std::to_string(i) + " is " + dtype_name(item->tensor.dtype()) +
                              ", the sequence holds " + dtype_name(elem));
    tensors.push_back(item->tensor);
  }
  return Value::of_sequence(std::move(tensors), elem);
}

Value* new_tensor_value(Result<Tensor> t) {
  if (!t) return fail<Value>(t.status());
  return new Value(Value::of(std::move(t.value())));
}

}  // namespace
}  // namespace twinrt::wasm

using namespace twinrt;
using namespace twinrt::wasm;

extern "C" {

// A numeric tensor of unspecified contents, for the caller to write its `nbytes` bytes at
// twinrt_tensor_data (one copy from JavaScript, none through a staging buffer).
EMSCRIPTEN_KEEPALIVE Value* twinrt_value_tensor_for_write(int dtype, const double* dims, int rank, size_t nbytes) {
  return new_tensor_value(numeric_tensor_for_overwrite(dtype, dims, rank, nbytes));
}

// `count` strings of `nbytes` bytes in all (see string_tensor).
EMSCRIPTEN_KEEPALIVE Value* twinrt_value_string_tensor(const double* dims, int rank, const char* bytes, size_t nbytes,
                                                       const uint32_t* lengths, size_t count) {
  return new_tensor_value(string_tensor(dims, rank, bytes, nbytes, lengths, count));
}

// Takes over and frees `items` (tensor values of type `elem_dtype`; 0: not known).
EMSCRIPTEN_KEEPALIVE Value* twinrt_value_sequence(int elem_dtype, Value** items, int count) {
  auto v = sequence_value(elem_dtype, items, count);
  if (!v) return fail<Value>(v.status());
  return new Value(std::move(v.value()));
}

// An optional holding `inner` (taken over), or no value when `inner` is null.
EMSCRIPTEN_KEEPALIVE Value* twinrt_value_optional(Value* inner) {
  std::shared_ptr<const Value> held;
  if (inner) held.reset(inner);
  return new Value(Value::of_optional(std::move(held)));
}

EMSCRIPTEN_KEEPALIVE void twinrt_value_free(Value* v) { delete v; }

// 0 none, 1 tensor, 2 sequence, 3 optional.
EMSCRIPTEN_KEEPALIVE int twinrt_value_kind(const Value* v) { return static_cast<int>(v->kind); }

// Tensors in the value: 1 for a tensor, the length of a sequence.
EMSCRIPTEN_KEEPALIVE int twinrt_value_count(const Value* v) {
  if (v->is_tensor()) return 1;
  return v->is_sequence() ? static_cast<int>(v->sequence.size()) : 0;
}

EMSCRIPTEN_KEEPALIVE const Tensor* twinrt_value_tensor_at(const Value* v, int i) {
  if (v->is_tensor()) return &v->tensor;
  return &v->sequence[static_cast<size_t>(i)];
}

EMSCRIPTEN_KEEPALIVE int twinrt_value_sequence_dtype(const Value* v) { return static_cast<int>(v->sequence_dtype); }

// Null when the optional holds no value.
EMSCRIPTEN_KEEPALIVE const Value* twinrt_value_optional_inner(const Value* v) { return v->optional.get(); }

EMSCRIPTEN_KEEPALIVE int twinrt_tensor_dtype(const Tensor* t) { return static_cast<int>(t->dtype()); }
EMSCRIPTEN_KEEPALIVE int twinrt_tensor_rank(const Tensor* t) { return static_cast<int>(t->rank()); }
EMSCRIPTEN_KEEPALIVE double twinrt_tensor_dim(const Tensor* t, int i) { return static_cast<double>(t->dim(i)); }
EMSCRIPTEN_KEEPALIVE const void* twinrt_tensor_data(const Tensor* t) { return t->raw(); }
EMSCRIPTEN_KEEPALIVE double twinrt_tensor_nbytes(const Tensor* t) { return static_cast<double>(t->nbytes()); }

EMSCRIPTEN_KEEPALIVE const char* twinrt_tensor_string(const Tensor* t, int i) {
  return t->data<std::string>()[i].data();
}
EMSCRIPTEN_KEEPALIVE int twinrt_tensor_string_size(const Tensor* t, int i) {
  return static_cast<int>(t->data<std::string>()[i].size());
}

EMSCRIPTEN_KEEPALIVE Feeds* twinrt_feeds_new() { return new Feeds(); }
EMSCRIPTEN_KEEPALIVE void twinrt_feeds_free(Feeds* f) { delete f; }

// Takes over `v`.
EMSCRIPTEN_KEEPALIVE void twinrt_feeds_add(Feeds* f, const char* name, Value* v) {
  std::unique_ptr<Value> owned(v);
  f->values[name] = std::move(*owned);
}

EMSCRIPTEN_KEEPALIVE int twinrt_outputs_count(const Outputs* o) { return static_cast<int>(o->entries.size()); }
EMSCRIPTEN_KEEPALIVE const char* twinrt_outputs_name(const Outputs* o, int i) {
  return o->entries[static_cast<size_t>(i)].first.c_str();
}
EMSCRIPTEN_KEEPALIVE const Value* twinrt_outputs_value(const Outputs* o, int i) {
  return &o->entries[static_cast<size_t>(i)].second;
}
EMSCRIPTEN_KEEPALIVE void twinrt_outputs_free(Outputs* o) { delete o; }

}  // extern "C"
