// Equal, Greater, GreaterOrEqual, Less, LessOrEqual: bool outputs; any comparison with
// NaN is false (IEEE), float16/bfloat16 compare as float.
#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

enum class Cmp { kEqual, kGreater, kGreaterOrEqual, kLess, kLessOrEqual };

template <Cmp K>
struct CompareOp : BinaryOpBase {
  static constexpr unsigned kTypes = K == Cmp::kEqual ? (kAllNumeric | kBoolT) : kAllNumeric;
  static constexpr bool kBoolOutput = true;
  static Result<CompareOp> parse(const KernelInit&) { return CompareOp{}; }

  template <class T>
  bool apply(T a, T b) const {
    const compute_t<T> x = load(a), y = load(b);
    if constexpr (K == Cmp::kEqual) return x == y;
    else if constexpr (K == Cmp::kGreater) return x > y;
    else if constexpr (K == Cmp::kGreaterOrEqual) return x >= y;
    else if constexpr (K == Cmp::kLess) return x < y;
    else return x <= y;
  }
};

}  // namespace

TWINRT_REGISTER_OP("Equal", 1, create_binary<CompareOp<Cmp::kEqual>>);
TWINRT_REGISTER_OP("Greater", 1, create_binary<CompareOp<Cmp::kGreater>>);
TWINRT_REGISTER_OP("GreaterOrEqual", 12, create_binary<CompareOp<Cmp::kGreaterOrEqual>>);
TWINRT_REGISTER_OP("Less", 1, create_binary<CompareOp<Cmp::kLess>>);
TWINRT_REGISTER_OP("LessOrEqual", 12, create_binary<CompareOp<Cmp::kLessOrEqual>>);

}  // namespace twinrt
