// float16 and bfloat16 have no arithmetic of their own: nn ops widen them to float,
// compute, and round the result back once. Every other type computes as itself.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"
#include "twinrt/tensor.h"

namespace twinrt::nn {

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

template <class T>
compute_t<T> to_compute(T v) {
  if constexpr (is_half_v<T>) return math::to_float(v);
  else return v;
}

template <class T>
T from_compute(compute_t<T> v) {
  if constexpr (std::is_same_v<T, Float16>) return math::to_float16(v);
  else if constexpr (std::is_same_v<T, BFloat16>) return math::to_bfloat16(v);
  else return v;
}

// The accumulator for sums of T: double in reference mode, else the compute type.
template <class T, bool kReference>
using accum_t = std::conditional_t<kReference && std::is_floating_point_v<compute_t<T>>, double, compute_t<T>>;

// A constant half-type input widened to float once, when the op's kernel is created.
class WidenedConstant {
 public:
  WidenedConstant() = default;
  // Widens `constant` when it is float16/bfloat16; otherwise (or when null) holds nothing.
  static Result<WidenedConstant> make(const Tensor* constant);
  // The widened copy when `t` is that constant (same bytes), else null.
  const Tensor* match(const Tensor& t) const {
    return widened_.defined() && t.raw() == source_ ? &widened_ : nullptr;
  }

 private:
  Tensor widened_;
  const void* source_ = nullptr;
};

// A tensor's elements as compute_t<T>: the tensor's own memory, a pre-widened constant,
// or a widened copy.
template <class T>
class ComputeInput {
 public:
  explicit ComputeInput(const Tensor& t, const WidenedConstant* constant = nullptr) {
    if (const Tensor* w = constant ? constant->match(t) : nullptr) {
      ptr_ = w->data<compute_t<T>>();
    } else if constexpr (is_half_v<T>) {
      const T* src = t.data<T>();
      copy_.resize(static_cast<size_t>(t.numel()));
      for (size_t i = 0; i < copy_.size(); ++i) copy_[i] = to_compute(src[i]);
      ptr_ = copy_.data();
    } else {
      ptr_ = t.data<T>();
    }
  }
  const compute_t<T>* data() const { return ptr_; }

 private:
  std::vector<compute_t<T>> copy_;
  const compute_t<T>* ptr_ = nullptr;
};

// Where a kernel writes compute_t<T> results for an output tensor; commit() rounds a
// widened buffer back into the tensor (a no-op when T computes as itself).
template <class T>
class ComputeOutput {
 public:
  explicit ComputeOutput(Tensor& t) : tensor_(t) {
    if constexpr (is_half_v<T>) {
      buffer_.assign(static_cast<size_t>(t.numel()), 0.0f);
      ptr_ = buffer_.data();
    } else {
      ptr_ = t.data<T>();
    }
  }
  compute_t<T>* data() { return ptr_; }
  void commit() {
    if constexpr (is_half_v<T>) {
      T* dst = tensor_.data<T>();
      for (size_t i = 0; i < buffer_.size(); ++i) dst[i] = from_compute<T>(buffer_[i]);
    }
  }

 private:
  Tensor& tensor_;
  std::vector<compute_t<T>> buffer_;
  compute_t<T>* ptr_ = nullptr;
};

// The elements of a floating-point tensor as doubles (small parameter tensors: scales,
// biases, running statistics). `what` names the tensor in the error for other types.
inline Result<std::vector<double>> read_doubles(const Tensor& t, const std::string& what) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  Status st = dispatch<kFloats>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(to_compute(p[i]));
    return Status::ok();
  });
  if (!st.is_ok()) return invalid_argument(what + " must be a floating-point tensor, got " + dtype_name(t.dtype()));
  return out;
}

// Writes doubles into a floating-point tensor of any float type, rounding once.
inline void write_doubles(const std::vector<double>& values, Tensor& t) {
  (void)dispatch<kFloats>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T* p = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) p[i] = from_compute<T>(static_cast<compute_t<T>>(values[i]));
    return Status::ok();
  });
}

inline Result<WidenedConstant> WidenedConstant::make(const Tensor* constant) {
  WidenedConstant w;
  if (!constant || (constant->dtype() != DataType::kFloat16 && constant->dtype() != DataType::kBFloat16)) return w;
  auto widened = Tensor::create(DataType::kFloat, constant->shape());
  if (!widened) return widened.status();
  w.widened_ = std::move(widened).value();
  float* dst = w.widened_.data<float>();
  for (int64_t i = 0; i < constant->numel(); ++i)
    dst[i] = constant->dtype() == DataType::kFloat16 ? math::to_float(constant->data<Float16>()[i])
                                                     : math::to_float(constant->data<BFloat16>()[i]);
  w.source_ = constant->raw();
  return w;
}

}  // namespace twinrt::nn
