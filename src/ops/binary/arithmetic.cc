// Add, Sub, Mul, Div and Mod. Integers wrap on overflow; integer division truncates
// toward zero. An integer divisor of 0 is an error, as in ONNX Runtime (docs/numerics.md);
// MIN / -1 wraps to MIN and MIN % -1 is 0 where ONNX Runtime dies of SIGFPE.
#include <cmath>

#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

// Integer Div and Mod refuse a zero anywhere in the divisor before computing anything.
Status check_integer_divisor(const Tensor& b, const char* op) {
  return dispatch<kAllNumeric>(b.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_integral_v<T>) {
      const T* d = b.data<T>();
      for (int64_t i = 0; i < b.numel(); ++i)
        if (d[i] == 0)
          return invalid_argument(std::string("integer ") + op + " by zero: divisor B is 0 at flat index " +
                                  std::to_string(i));
    }
    return Status::ok();
  });
}

enum class Arith { kAdd, kSub, kMul, kDiv };

template <Arith K>
struct ArithOp : BinaryOpBase {
  static constexpr unsigned kTypes = kAllNumeric;
  static constexpr bool kBoolOutput = false;
  static Result<ArithOp> parse(const KernelInit& init) {
    ArithOp op;
    op.f32_step_fn = kernels::f32_step_kernel(init.isa);
    return op;
  }
  std::optional<kernels::F32StepParams> f32_step() const {
    using kernels::F32StepKind;
    return kernels::F32StepParams{K == Arith::kAdd   ? F32StepKind::kAdd
                                  : K == Arith::kSub ? F32StepKind::kSub
                                  : K == Arith::kMul ? F32StepKind::kMul
                                                     : F32StepKind::kDiv};
  }
  Status check_operands(const Tensor&, const Tensor& b) const {
    if constexpr (K == Arith::kDiv) return check_integer_divisor(b, "division");
    return Status::ok();
  }

  template <class T>
  T apply(T a, T b) const {
    const compute_t<T> x = load(a), y = load(b);
    if constexpr (K == Arith::kAdd) return store<T>(arith_add(x, y));
    else if constexpr (K == Arith::kSub) return store<T>(arith_sub(x, y));
    else if constexpr (K == Arith::kMul) return store<T>(arith_mul(x, y));
    else if constexpr (std::is_integral_v<T>) return int_div(x, y);
    else return store<T>(x / y);
  }
};

// fmod=0: the remainder takes the divisor's sign (integers only); fmod=1: the dividend's.
struct ModOp : BinaryOpBase {
  static constexpr unsigned kTypes = kAllNumeric;
  static constexpr bool kBoolOutput = false;
  bool fmod = false;

  static Result<ModOp> parse(const KernelInit& init) {
    ASSIGN_OR_RETURN(int64_t f, init.attr_int("fmod", 0));
    if (f != 0 && f != 1) return init.error("attribute fmod must be 0 or 1, got " + std::to_string(f));
    ModOp op;
    op.fmod = f == 1;
    return op;
  }
  Status validate(DataType t) const {
    if (dtype_is_float(t) && !fmod)
      return invalid_model(std::string("Mod on ") + dtype_name(t) + " inputs requires fmod=1");
    return Status::ok();
  }
  Status check_operands(const Tensor&, const Tensor& b) const { return check_integer_divisor(b, "modulo"); }
  template <class T>
  T apply(T a, T b) const {
    if constexpr (std::is_integral_v<T>) return fmod ? int_rem(a, b) : int_mod(a, b);
    else return store<T>(std::fmod(load(a), load(b)));
  }
};

}  // namespace

TWINRT_REGISTER_OP("Add", 1, create_binary<ArithOp<Arith::kAdd>>);
TWINRT_REGISTER_OP("Sub", 1, create_binary<ArithOp<Arith::kSub>>);
TWINRT_REGISTER_OP("Mul", 1, create_binary<ArithOp<Arith::kMul>>);
TWINRT_REGISTER_OP("Div", 1, create_binary<ArithOp<Arith::kDiv>>);
TWINRT_REGISTER_OP("Mod", 10, create_binary<ModOp>);

}  // namespace twinrt
