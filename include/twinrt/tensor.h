// Tensors and runtime values (tensor, sequence of tensors, optional).
//
// A Tensor is a dtype, a shape and a byte offset into a shared Storage. Tensors are
// always dense and row-major; ops that only reinterpret the shape (Reshape, Flatten,
// Squeeze, Identity, ...) share the storage instead of copying. Weights loaded from a
// memory-mapped model file point into the mapping (zero copy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "twinrt/status.h"

namespace twinrt {

// Numbering follows ONNX TensorProto.DataType so the loader can cast directly.
enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};

// IEEE binary16 and bfloat16 are stored as their bit patterns; arithmetic converts
// to float (see src/kernels/math/half.h).
struct Float16 { uint16_t bits = 0; };
struct BFloat16 { uint16_t bits = 0; };

// Bytes per element; string tensors hold std::string objects (sizeof(std::string)).
size_t dtype_size(DataType t);
const char* dtype_name(DataType t);         // "float32", "int64", ... (numpy-style names)
bool dtype_is_valid(int32_t code);          // a known TensorProto.DataType value
bool dtype_is_float(DataType t);            // float16/bfloat16/float/double

template <class T> constexpr DataType dtype_of();
template <> constexpr DataType dtype_of<float>() { return DataType::kFloat; }
template <> constexpr DataType dtype_of<double>() { return DataType::kDouble; }
template <> constexpr DataType dtype_of<Float16>() { return DataType::kFloat16; }
template <> constexpr DataType dtype_of<BFloat16>() { return DataType::kBFloat16; }
template <> constexpr DataType dtype_of<int8_t>() { return DataType::kInt8; }
template <> constexpr DataType dtype_of<int16_t>() { return DataType::kInt16; }
template <> constexpr DataType dtype_of<int32_t>() { return DataType::kInt32; }
template <> constexpr DataType dtype_of<int64_t>() { return DataType::kInt64; }
template <> constexpr DataType dtype_of<uint8_t>() { return DataType::kUInt8; }
template <> constexpr DataType dtype_of<uint16_t>() { return DataType::kUInt16; }
template <> constexpr DataType dtype_of<uint32_t>() { return DataType::kUInt32; }
template <> constexpr DataType dtype_of<uint64_t>() { return DataType::kUInt64; }
template <> constexpr DataType dtype_of<bool>() { return DataType::kBool; }
template <> constexpr DataType dtype_of<std::string>() { return DataType::kString; }

// Owns (or keeps alive) the bytes a tensor points into.
class Storage {
 public:
  virtual ~Storage() = default;
  virtual std::byte* data() = 0;
  virtual size_t size() const = 0;
  // Gives the whole pages inside [offset, offset + bytes) back to the system while the
  // storage lives (weights a session keeps only in another form); returns the bytes given
  // back, 0 where this storage cannot. Reading released bytes faults.
  virtual size_t release(size_t offset, size_t bytes) {
    (void)offset;
    (void)bytes;
    return 0;
  }
  // Identifies the storage classes the runtime must recognise (file bytes, arena blocks)
  // without RTTI, which the WebAssembly build leaves out: null for the others.
  virtual const void* kind() const { return nullptr; }
};

class Tensor {
 public:
  Tensor() = default;

  // Allocates a zero-filled tensor. Fails on negative dims, size overflow or when the
  // allocation is refused (never throws).
  static Result<Tensor> create(DataType dtype, std::vector<int64_t> shape);
  // The same without the zero fill: the contents are unspecified until written. For
  // kernels that write every element (string tensors are still constructed empty).
  static Result<Tensor> create_for_overwrite(DataType dtype, std::vector<int64_t> shape);
  // Wraps existing storage (e.g. a memory-mapped initializer). No copy.
  static Result<Tensor> view(DataType dtype, std::vector<int64_t> shape,
                             std::shared_ptr<Storage> storage, size_t byte_offset);
  template <class T>
  static Result<Tensor> from_vector(std::vector<int64_t> shape, const std::vector<T>& values);

  DataType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[static_cast<size_t>(i)]; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * dtype_size(dtype_); }
  bool defined() const { return dtype_ != DataType::kUndefined; }

  void* raw() { return storage_ ? storage_->data() + offset_ : nullptr; }
  const void* raw() const { return storage_ ? storage_->data() + offset_ : nullptr; }
  template <class T> T* data() { return static_cast<T*>(raw()); }
  template <class T> const T* data() const { return static_cast<const T*>(raw()); }

  // Same storage, new shape with the same element count (Reshape and friends).
  Result<Tensor> reshaped(std::vector<int64_t> shape) const;
  // A deep copy that owns its bytes.
  Result<Tensor> clone() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  size_t byte_offset() const { return offset_; }

 private:
  DataType dtype_ = DataType::kUndefined;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::shared_ptr<Storage> storage_;
  size_t offset_ = 0;
};

// Element count of a shape; -1 on negative dims or int64 overflow.
int64_t shape_numel(const std::vector<int64_t>& shape);
std::string shape_to_string(const std::vector<int64_t>& shape);

// What flows along a graph edge: a tensor, a sequence of tensors, or an optional.
struct Value {
  enum class Kind { kNone, kTensor, kSequence, kOptional };
  Kind kind = Kind::kNone;
  Tensor tensor;                         // kTensor
  std::vector<Tensor> sequence;          // kSequence
  DataType sequence_dtype = DataType::kUndefined;  // element type, kept for empty sequences
  std::shared_ptr<const Value> optional; // kOptional: null means "no value"

  static Value of(Tensor t) { Value v; v.kind = Kind::kTensor; v.tensor = std::move(t); return v; }
  static Value of_sequence(std::vector<Tensor> s, DataType elem) {
    Value v; v.kind = Kind::kSequence; v.sequence = std::move(s); v.sequence_dtype = elem; return v;
  }
  static Value of_optional(std::shared_ptr<const Value> inner) {
    Value v; v.kind = Kind::kOptional; v.optional = std::move(inner); return v;
  }
  bool is_tensor() const { return kind == Kind::kTensor; }
  bool is_sequence() const { return kind == Kind::kSequence; }
  bool is_optional() const { return kind == Kind::kOptional; }
};

template <class T>
Result<Tensor> Tensor::from_vector(std::vector<int64_t> shape, const std::vector<T>& values) {
  auto t = Tensor::create(dtype_of<T>(), std::move(shape));
  if (!t) return t.status();
  if (static_cast<size_t>(t->numel()) != values.size())
    return invalid_argument("from_vector: " + std::to_string(values.size()) +
                            " values for shape " + shape_to_string(t->shape()));
  T* out = t->template data<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

}  // namespace twinrt
