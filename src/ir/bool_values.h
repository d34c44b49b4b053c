// Bool tensors hold one byte per element, and every kernel assumes that byte is 0 or 1
// (reading any other value into a C++ bool is undefined behaviour; `Not` on 2 gave 3).
// Bytes from outside — raw_data, external data, .npy files, API feeds — are normalised
// (nonzero → 1) where they enter, so kernels never see anything else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "twinrt/tensor.h"

namespace twinrt::ir {

inline bool bool_bytes_are_canonical(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i)
    if (p[i] > 1) return false;
  return true;
}

inline void normalise_bool_bytes(void* data, size_t n) {
  auto* p = static_cast<uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) p[i] = p[i] != 0;
}

// `t` itself when it is not bool or already canonical, else a normalised copy (the
// caller's tensor is never written).
inline Result<Tensor> with_canonical_bools(const Tensor& t) {
  if (t.dtype() != DataType::kBool || bool_bytes_are_canonical(t.raw(), t.nbytes())) return t;
  ASSIGN_OR_RETURN(Tensor copy, Tensor::create(DataType::kBool, t.shape()));
  std::memcpy(copy.raw(), t.raw(), t.nbytes());
  normalise_bool_bytes(copy.raw(), copy.nbytes());
  return copy;
}

}  // namespace twinrt::ir
