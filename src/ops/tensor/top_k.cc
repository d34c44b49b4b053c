// TopK: the k largest (or smallest) values along an axis and their indices. Equal
// values keep the smaller index first, so results are deterministic. k is an attribute
// in opset 1 and an input from 10; largest/sorted exist from 11.
#include <algorithm>
#include <numeric>

#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "ops/tensor/ordering.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class TopKKernel final : public OpKernel {
 public:
  TopKKernel(int64_t axis, std::optional<int64_t> fixed_k, bool largest)
      : axis_(axis), fixed_k_(fixed_k), largest_(largest) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    ctx.set_output(1, DataType::kInt64);
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, static_cast<int64_t>(in->size()), "TopK axis"));
    std::optional<int64_t> k = fixed_k_;
    if (!k) {
      auto c = tensor_ops::constant_ints(ctx.constant_inputs, 1);
      if (c && c->size() == 1) k = (*c)[0];
    }
    ir::Shape out = *in;
    out[static_cast<size_t>(axis)] = k ? ir::Dim::of(*k) : ir::Dim{};
    ctx.set_output(0, ctx.dtype(0), out);
    ctx.set_output(1, DataType::kInt64, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, x->rank(), "TopK axis"));
    int64_t k = 0;
    if (fixed_k_) {
      k = *fixed_k_;
    } else {
      ASSIGN_OR_RETURN(const Tensor* kt, ctx.tensor_input(1));
      ASSIGN_OR_RETURN(k, tensor_ops::read_int_scalar(*kt, "TopK k"));
    }
    const int64_t n = x->dim(axis);
    if (k < 0 || k > n)
      return invalid_argument("TopK k " + std::to_string(k) + " is outside [0, " + std::to_string(n) + "]");
    std::vector<int64_t> shape = x->shape();
    shape[static_cast<size_t>(axis)] = k;
    ASSIGN_OR_RETURN(Tensor * values, ctx.output(0, x->dtype(), shape));
    ASSIGN_OR_RETURN(Tensor * indices, ctx.output(1, DataType::kInt64, shape));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x->dim(d);
    for (int64_t d = axis + 1; d < x->rank(); ++d) inner *= x->dim(d);
    return dispatch<kAllNumeric>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      const T* src = x->data<T>();
      T* out_v = values->data<T>();
      int64_t* out_i = indices->data<int64_t>();
      std::vector<int64_t> order(static_cast<size_t>(n));
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const T* lane = src + o * n * inner + i;
          const auto before = [&](int64_t a, int64_t b) {
            const T& va = lane[a * inner];
            const T& vb = lane[b * inner];
            if (largest_ ? tensor_ops::value_less(vb, va) : tensor_ops::value_less(va, vb)) return true;
            return tensor_ops::value_equal(va, vb) && a < b;
          };
          std::iota(order.begin(), order.end(), 0);
          std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
          for (int64_t j = 0; j < k; ++j) {
            const int64_t at = (o * k + j) * inner + i;
            out_v[at] = lane[order[static_cast<size_t>(j)] * inner];
            out_i[at] = order[static_cast<size_t>(j)];
          }
        }
      return Status::ok();
    });
  }

 private:
  int64_t axis_;
  std::optional<int64_t> fixed_k_;  // opset < 10
  bool largest_;
};

Result<std::unique_ptr<OpKernel>> create_top_k(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 2) return init.error("TopK takes input (and k) and two outputs");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", -1));
  ASSIGN_OR_RETURN(int64_t largest, init.attr_int("largest", 1));
  init.accept_attributes({"sorted"});  // always sorted, which sorted = 0 allows too
  std::optional<int64_t> k;
  if (init.opset < 10) {
    if (!init.has_attr("k")) return init.error("TopK before opset 10 needs the 'k' attribute");
    ASSIGN_OR_RETURN(k, init.attr_int("k", 0));
  } else if (!init.has_input(1)) {
    return init.error("TopK needs the 'k' input");
  }
  // `sorted` = 0 lets any order through; sorted output is one of them.
  return make_kernel<TopKKernel>(axis, k, largest != 0);
}

}  // namespace

TWINRT_REGISTER_OP("TopK", 1, create_top_k);

}  // namespace twinrt
