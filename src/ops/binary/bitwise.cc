// BitShift (unsigned integers) and the logical And, Or, Xor (bool).
#include <limits>

#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

// Shifting by the type's width or more gives 0 (in C++ it is undefined).
struct BitShiftOp : BinaryOpBase {
  static constexpr unsigned kTypes = kUnsignedInts;
  static constexpr bool kBoolOutput = false;
  bool left = true;

  static Result<BitShiftOp> parse(const KernelInit& init) {
    ASSIGN_OR_RETURN(std::string direction, init.attr_string("direction", ""));
    if (direction != "LEFT" && direction != "RIGHT")
      return init.error("attribute direction must be \"LEFT\" or \"RIGHT\", got \"" + direction + "\"");
    BitShiftOp op;
    op.left = direction == "LEFT";
    return op;
  }
  template <class T>
  T apply(T a, T b) const {
    if (b >= static_cast<T>(std::numeric_limits<T>::digits)) return 0;
    const uint64_t wide = a;
    return static_cast<T>(left ? wide << b : wide >> b);
  }
};

enum class Logic { kAnd, kOr, kXor };

template <Logic K>
struct LogicOp : BinaryOpBase {
  static constexpr unsigned kTypes = kBoolT;
  static constexpr bool kBoolOutput = true;
  static Result<LogicOp> parse(const KernelInit&) { return LogicOp{}; }
  template <class T>
  bool apply(T a, T b) const {
    if constexpr (K == Logic::kAnd) return a && b;
    else if constexpr (K == Logic::kOr) return a || b;
    else return a != b;
  }
};

}  // namespace

TWINRT_REGISTER_OP("BitShift", 11, create_binary<BitShiftOp>);
TWINRT_REGISTER_OP("And", 1, create_binary<LogicOp<Logic::kAnd>>);
TWINRT_REGISTER_OP("Or", 1, create_binary<LogicOp<Logic::kOr>>);
TWINRT_REGISTER_OP("Xor", 1, create_binary<LogicOp<Logic::kXor>>);

}  // namespace twinrt
