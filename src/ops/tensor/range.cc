// Range: start, start + delta, ... while below limit (above it for a negative delta).
// Element i is start + i * delta, computed in the element type.
#include <cmath>
#include <type_traits>

#include "ops/common/dispatch.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr int64_t kMaxRangeLength = int64_t{1} << 40;

// Number of elements: max(ceil((limit - start) / delta), 0).
template <class T>
Result<int64_t> range_length(T start, T limit, T delta) {
  if (delta == T(0)) return invalid_argument("Range delta must not be 0");
  int64_t n;
  if constexpr (std::is_floating_point_v<T>) {
    const double q = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta));
    if (!(q <= static_cast<double>(kMaxRangeLength))) return invalid_argument("Range would have too many elements");
    n = q > 0 ? static_cast<int64_t>(q) : 0;
  } else {
    int64_t span;
    if (__builtin_sub_overflow(static_cast<int64_t>(limit), static_cast<int64_t>(start), &span))
      return invalid_argument("Range limit - start overflows");
    const int64_t d = static_cast<int64_t>(delta);
    int64_t q = span / d;
    if (span % d != 0 && ((span > 0) == (d > 0))) ++q;
    n = q > 0 ? q : 0;
    if (n > kMaxRangeLength) return invalid_argument("Range would have too many elements");
  }
  return n;
}

Status check_scalar(const Tensor& t, const char* name, DataType dt) {
  if (t.numel() != 1 || t.dtype() != dt)
    return invalid_argument(std::string("Range '") + name + "' must be one " + dtype_name(dt) + " value, got " +
                            dtype_name(t.dtype()) + shape_to_string(t.shape()));
  return Status::ok();
}

class RangeKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const DataType dt = ctx.dtype(0);
    ir::Shape out(1);
    const auto& c = ctx.constant_inputs;
    if (c.size() == 3 && c[0] && c[1] && c[2]) {
      auto n = length(*c[0], *c[1], *c[2]);
      if (n.is_ok()) out[0] = ir::Dim::of(*n);
    }
    ctx.set_output(0, dt, std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* start, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* limit, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* delta, ctx.tensor_input(2));
    ASSIGN_OR_RETURN(int64_t n, length(*start, *limit, *delta));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, start->dtype(), {n}));
    return dispatch<kF32 | kF64 | kI16 | kI32 | kI64>(start->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      const T s = *start->data<T>(), d = *delta->data<T>();
      T* out = y->data<T>();
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(s + static_cast<T>(i) * d);
      return Status::ok();
    });
  }

 private:
  static Result<int64_t> length(const Tensor& start, const Tensor& limit, const Tensor& delta) {
    const DataType dt = start.dtype();
    TRY(check_scalar(start, "start", dt));
    TRY(check_scalar(limit, "limit", dt));
    TRY(check_scalar(delta, "delta", dt));
    int64_t n = 0;
    TRY(dispatch<kF32 | kF64 | kI16 | kI32 | kI64>(dt, [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      ASSIGN_OR_RETURN(n, range_length<T>(*start.data<T>(), *limit.data<T>(), *delta.data<T>()));
      return Status::ok();
    }));
    return n;
  }
};

Result<std::unique_ptr<OpKernel>> create_range(const KernelInit& init) {
  if (init.num_inputs() != 3 || !init.has_input(0) || !init.has_input(1) || !init.has_input(2) ||
      init.num_outputs() != 1)
    return init.error("Range takes start, limit, delta and one output");
  return make_kernel<RangeKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Range", 11, create_range);

}  // namespace twinrt
