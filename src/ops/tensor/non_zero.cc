// NonZero: the coordinates of the non-zero elements, one row per axis ([rank, count],
// row-major order). A scalar counts as a 1-element vector, as numpy treats it.
#include <algorithm>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"

namespace twinrt {
namespace {

template <class T>
bool is_nonzero(const T& v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return math::to_float(v) != 0.0f;
  else if constexpr (std::is_same_v<T, std::string>) return !v.empty();
  else return v != T(0);
}

class NonZeroKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    ir::Shape out{ir::Dim{}, ir::Dim{}};
    if (in) out[0] = ir::Dim::of(std::max<int64_t>(1, static_cast<int64_t>(in->size())));
    ctx.set_output(0, DataType::kInt64, std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    std::vector<int64_t> flat;  // flat positions of the non-zero elements
    TRY(dispatch<kAllTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      const T* p = x->data<T>();
      for (int64_t i = 0; i < x->numel(); ++i)
        if (is_nonzero(p[i])) flat.push_back(i);
      return Status::ok();
    }));
    const std::vector<int64_t> shape = x->rank() == 0 ? std::vector<int64_t>{1} : x->shape();
    const int64_t rank = static_cast<int64_t>(shape.size());
    const int64_t count = static_cast<int64_t>(flat.size());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kInt64, {rank, count}));
    int64_t* out = y->data<int64_t>();
    for (int64_t n = 0; n < count; ++n) {
      int64_t rest = flat[static_cast<size_t>(n)];
      for (int64_t d = rank; d-- > 0;) {
        out[d * count + n] = rest % shape[static_cast<size_t>(d)];
        rest /= shape[static_cast<size_t>(d)];
      }
    }
    return Status::ok();
  }
};

Result<std::unique_ptr<OpKernel>> create_non_zero(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("NonZero takes one input and one output");
  return make_kernel<NonZeroKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("NonZero", 9, create_non_zero);

}  // namespace twinrt
