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

Result<Tensor> numeric_tensor(int dtype, const double* dims, int rank, const void* data, size_t nbytes) {
  if (!dtype_is_valid(dtype) || dtype == static_cast<int>(DataType::kString))
    return invalid_argument("unsupported tensor type code " + std::to_string(dtype));
  ASSIGN_OR_RETURN(auto shape, read_dims(dims, rank));
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(static_cast<DataType>(dtype), shape));
  if (t.nbytes() != nbytes)
    return invalid_argument("tensor data has " + std::to_string(nbytes) + " bytes, dims " +
                            shape_to_string(t.shape()) + " of " + dtype_name(t.dtype()) + " need " +
                            std::to_string(t.nbytes()));
  if (nbytes) std::memcpy(t.raw(), data, nbytes);
  return t;
}

// `bytes` holds the UTF-8 strings back to back; `lengths` their byte counts.
Result<Tensor> string_tensor(const double* dims, int rank, const char* bytes, const uint32_t* lengths) {
  ASSIGN_OR_RETURN(auto shape, read_dims(dims, rank));
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(DataType::kString, shape));
  auto* out = t.data<std::string>();
  size_t offset = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    out[i].assign(bytes + offset, lengths[i]);
    offset += lengths[i];
  }
  return t;
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

EMSCRIPTEN_KEEPALIVE Value* twinrt_value_tensor(int dtype, const double* dims, int rank, const void* data,
                                                size_t nbytes) {
  return new_tensor_value(numeric_tensor(dtype, dims, rank, data, nbytes));
}

EMSCRIPTEN_KEEPALIVE Value* twinrt_value_string_tensor(const double* dims, int rank, const char* bytes,
                                                       const uint32_t* lengths) {
  return new_tensor_value(string_tensor(dims, rank, bytes, lengths));
}

// Takes the tensors out of `items` (which must hold tensor values) and frees them.
EMSCRIPTEN_KEEPALIVE Value* twinrt_value_sequence(int elem_dtype, Value** items, int count) {
  std::vector<Tensor> tensors;
  for (int i = 0; i < count; ++i) {
    std::unique_ptr<Value> item(items[i]);
    if (!item->is_tensor()) return fail<Value>(invalid_argument("sequence items must be tensors"));
    tensors.push_back(std::move(item->tensor));
  }
  return new Value(Value::of_sequence(std::move(tensors), static_cast<DataType>(elem_dtype)));
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
