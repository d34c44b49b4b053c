// Calls a generic lambda with a typed null pointer for a runtime DataType, so a kernel is
// written once as a template and instantiated for the types an op supports:
//
//   return dispatch<kAllNumeric>(x.dtype(), [&](auto* tag) {
//     using T = std::remove_pointer_t<decltype(tag)>;
//     ...
//     return Status::ok();
//   });
//
// Types outside the set give a not_implemented Status naming the type.
#pragma once

#include <string>
#include <type_traits>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

enum TypeSet : unsigned {
  kF32 = 1u << 0, kF64 = 1u << 1, kF16 = 1u << 2, kBF16 = 1u << 3,
  kI8 = 1u << 4, kI16 = 1u << 5, kI32 = 1u << 6, kI64 = 1u << 7,
  kU8 = 1u << 8, kU16 = 1u << 9, kU32 = 1u << 10, kU64 = 1u << 11,
  kBoolT = 1u << 12, kStr = 1u << 13,
  kFloats = kF32 | kF64 | kF16 | kBF16,
  kSignedInts = kI8 | kI16 | kI32 | kI64,
  kUnsignedInts = kU8 | kU16 | kU32 | kU64,
  kInts = kSignedInts | kUnsignedInts,
  kAllNumeric = kFloats | kInts,
  kAllTypes = kAllNumeric | kBoolT | kStr,
};

template <unsigned Set, class F>
Status dispatch(DataType dt, F&& f) {
#define TWINRT_DISPATCH_CASE(code, bit, T) \
  case DataType::code:                     \
    if constexpr ((Set & (bit)) != 0) return f(static_cast<T*>(nullptr)); else break;
  switch (dt) {
    TWINRT_DISPATCH_CASE(kFloat, kF32, float)
    TWINRT_DISPATCH_CASE(kDouble, kF64, double)
    TWINRT_DISPATCH_CASE(kFloat16, kF16, Float16)
    TWINRT_DISPATCH_CASE(kBFloat16, kBF16, BFloat16)
    TWINRT_DISPATCH_CASE(kInt8, kI8, int8_t)
    TWINRT_DISPATCH_CASE(kInt16, kI16, int16_t)
    TWINRT_DISPATCH_CASE(kInt32, kI32, int32_t)
    TWINRT_DISPATCH_CASE(kInt64, kI64, int64_t)
    TWINRT_DISPATCH_CASE(kUInt8, kU8, uint8_t)
    TWINRT_DISPATCH_CASE(kUInt16, kU16, uint16_t)
    TWINRT_DISPATCH_CASE(kUInt32, kU32, uint32_t)
    TWINRT_DISPATCH_CASE(kUInt64, kU64, uint64_t)
    TWINRT_DISPATCH_CASE(kBool, kBoolT, bool)
    TWINRT_DISPATCH_CASE(kString, kStr, std::string)
    default: break;
  }
#undef TWINRT_DISPATCH_CASE
  return not_implemented(std::string("type ") + dtype_name(dt) + " is not supported here");
}

}  // namespace twinrt
