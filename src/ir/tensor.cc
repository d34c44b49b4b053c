#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "ir/block_cache.h"
#include "ir/memory_budget.h"
#include "twinrt/tensor.h"

namespace twinrt {
namespace {

// Heap bytes, 64-byte aligned for SIMD kernels, from the block cache; `charged` bytes go
// back to the budget (if any) they were charged to.
class HeapStorage final : public Storage {
 public:
  HeapStorage(std::byte* p, size_t n, std::shared_ptr<MemoryBudget> budget, uint64_t charged)
      : p_(p), n_(n), budget_(std::move(budget)), charged_(charged) {}
  ~HeapStorage() override {
    give_block(p_, n_);
    if (budget_) budget_->release(charged_);
  }
  std::byte* data() override { return p_; }
  size_t size() const override { return n_; }

 private:
  std::byte* p_;
  size_t n_;
  std::shared_ptr<MemoryBudget> budget_;
  uint64_t charged_;
};

// An array of std::string objects (string tensors).
class StringStorage final : public Storage {
 public:
  explicit StringStorage(size_t n) : v_(n) {}
  std::byte* data() override { return reinterpret_cast<std::byte*>(v_.data()); }
  size_t size() const override { return v_.size() * sizeof(std::string); }

 private:
  std::vector<std::string> v_;
};

// Refuse absurd sizes from hostile files; on 32-bit targets (wasm32) byte counts and their
// alignment padding must stay representable in size_t.
constexpr uint64_t kMaxTensorBytes = std::min<uint64_t>(uint64_t{1} << 40, SIZE_MAX / 2);

}  // namespace

size_t dtype_size(DataType t) {
  switch (t) {
    case DataType::kFloat: case DataType::kInt32: case DataType::kUInt32: return 4;
    case DataType::kUInt8: case DataType::kInt8: case DataType::kBool: return 1;
    case DataType::kUInt16: case DataType::kInt16: case DataType::kFloat16:
    case DataType::kBFloat16: return 2;
    case DataType::kInt64: case DataType::kUInt64: case DataType::kDouble:
    case DataType::kComplex64: return 8;
    case DataType::kComplex128: return 16;
    case DataType::kString: return sizeof(std::string);
    case DataType::kUndefined: return 0;
  }
  return 0;
}

const char* dtype_name(DataType t) {
  switch (t) {
    case DataType::kFloat: return "float32";
    case DataType::kUInt8: return "uint8";
    case DataType::kInt8: return "int8";
    case DataType::kUInt16: return "uint16";
    case DataType::kInt16: return "int16";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kString: return "string";
    case DataType::kBool: return "bool";
    case DataType::kFloat16: return "float16";
    case DataType::kDouble: return "float64";
    case DataType::kUInt32: return "uint32";
    case DataType::kUInt64: return "uint64";
    case DataType::kComplex64: return "complex64";
    case DataType::kComplex128: return "complex128";
    case DataType::kBFloat16: return "bfloat16";
    case DataType::kUndefined: return "undefined";
  }
  return "undefined";
}

bool dtype_is_valid(int32_t code) { return code >= 1 && code <= 16; }

bool dtype_is_float(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 ||
         t == DataType::kBFloat16;
}

int64_t shape_numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

Result<Tensor> Tensor::create(DataType dtype, std::vector<int64_t> shape) {
  ASSIGN_OR_RETURN(Tensor t, create_for_overwrite(dtype, std::move(shape)));
  if (t.dtype_ != DataType::kString) std::memset(t.storage_->data(), 0, t.storage_->size());
  return t;
}

Result<Tensor> Tensor::create_for_overwrite(DataType dtype, std::vector<int64_t> shape) {
  if (!dtype_is_valid(static_cast<int32_t>(dtype)))
    return invalid_argument("cannot create a tensor of undefined type");
  int64_t n = shape_numel(shape);
  if (n < 0) return invalid_argument("invalid tensor shape " + shape_to_string(shape));
  size_t esize = dtype_size(dtype);
  // Within a session's run the budget refuses sizes beyond its limits first, so that they
  // are errors naming the limit. Strings grow after creation: checked, not held.
  const uint64_t want = static_cast<uint64_t>(n) > UINT64_MAX / esize ? UINT64_MAX : static_cast<uint64_t>(n) * esize;
  const std::shared_ptr<MemoryBudget>& budget = BudgetScope::current();
  const bool held = budget && dtype != DataType::kString;
  if (budget) TRY(held ? budget->charge(want, dtype, shape) : budget->check(want, dtype, shape));
  const auto give_back = [&] {
    if (held) budget->release(want);
  };
  if (static_cast<uint64_t>(n) > kMaxTensorBytes / esize) {
    give_back();
    return out_of_memory("tensor of shape " + shape_to_string(shape) + " is too large");
  }
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = n;
  if (dtype == DataType::kString) {
    t.storage_ = std::make_shared<StringStorage>(static_cast<size_t>(n));
    return t;
  }
  size_t alloc = 0;
  std::byte* p = take_block(static_cast<size_t>(want), &alloc);
  if (!p) {
    give_back();
    return out_of_memory("could not allocate " + std::to_string(want) + " bytes");
  }
  t.storage_ = std::make_shared<HeapStorage>(p, alloc, held ? budget : nullptr, held ? want : 0);
  return t;
}

Result<Tensor> Tensor::view(DataType dtype, std::vector<int64_t> shape,
                            std::shared_ptr<Storage> storage, size_t byte_offset) {
  int64_t n = shape_numel(shape);
  if (n < 0) return invalid_argument("invalid tensor shape " + shape_to_string(shape));
  size_t esize = dtype_size(dtype);
  if (esize == 0 || !storage) return invalid_argument("cannot view storage as this tensor type");
  if (static_cast<uint64_t>(n) > kMaxTensorBytes / esize ||
      byte_offset > storage->size() ||
      static_cast<size_t>(n) * esize > storage->size() - byte_offset)
    return invalid_argument("tensor of shape " + shape_to_string(shape) + " (" +
                            dtype_name(dtype) + ") does not fit its storage");
  // Kernels read elements through typed pointers: a misaligned one is undefined behaviour
  // (found by fuzzing a float feed viewed at byte offset 1).
  const size_t align = dtype == DataType::kComplex64 || dtype == DataType::kComplex128 ? esize / 2
                                                                                       : std::min<size_t>(esize, 8);
  if (n > 0 && reinterpret_cast<uintptr_t>(storage->data() + byte_offset) % align != 0)
    return invalid_argument(std::string("cannot view storage at byte offset ") + std::to_string(byte_offset) +
                            " as " + dtype_name(dtype) + ": its data must be aligned to " + std::to_string(align) +
                            " bytes");
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = n;
  t.storage_ = std::move(storage);
  t.offset_ = byte_offset;
  return t;
}

Result<Tensor> Tensor::reshaped(std::vector<int64_t> shape) const {
  int64_t n = shape_numel(shape);
  if (n != numel_)
    return invalid_argument("cannot reshape " + shape_to_string(shape_) + " to " +
                            shape_to_string(shape));
  // A view allocates nothing, but an empty one may still have huge dims (memory_budget.h).
  if (const auto& budget = BudgetScope::current()) TRY(budget->check(0, dtype_, shape));
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

Result<Tensor> Tensor::clone() const {
  auto t = Tensor::create(dtype_, shape_);
  if (!t) return t;
  if (dtype_ == DataType::kString) {
    const auto* src = data<std::string>();
    auto* dst = t->data<std::string>();
    for (int64_t i = 0; i < numel_; ++i) dst[i] = src[i];
  } else if (nbytes()) {
    std::memcpy(t->raw(), raw(), nbytes());
  }
  return t;
}

}  // namespace twinrt
