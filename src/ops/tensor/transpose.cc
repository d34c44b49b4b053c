// Transpose: permutes dimensions. A permutation that keeps the order of every dimension
// larger than 1 does not move data, so the output is then a view.
#include <numeric>

#include "ops/op.h"
#include "ops/tensor/elements.h"

namespace twinrt {
namespace {

class TransposeKernel final : public OpKernel {
 public:
  explicit TransposeKernel(std::optional<std::vector<int64_t>> perm) : perm_(std::move(perm)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) {
      if (perm_) ctx.set_output(0, ctx.dtype(0), ir::Shape(perm_->size()));  // the rank is perm's length
      return Status::ok();
    }
    ASSIGN_OR_RETURN(auto perm, permutation(static_cast<int64_t>(in->size())));
    ir::Shape out;
    for (int64_t p : perm) out.push_back((*in)[static_cast<size_t>(p)]);
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto perm, permutation(x->rank()));
    const std::vector<int64_t> in_strides = tensor_ops::row_major_strides(x->shape());
    std::vector<int64_t> out_shape, strides;
    for (int64_t p : perm) {
      out_shape.push_back(x->dim(p));
      strides.push_back(in_strides[static_cast<size_t>(p)]);
    }
    if (keeps_data_order(x->shape(), perm)) {
      ASSIGN_OR_RETURN(Tensor y, x->reshaped(std::move(out_shape)));
      ctx.set_output(0, Value::of(std::move(y)));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), out_shape));
    return tensor_ops::copy_strided(x->dtype(), y->raw(), x->raw(), out_shape, strides);
  }

 private:
  // The permutation for a given rank (reversed dims by default), validated.
  Result<std::vector<int64_t>> permutation(int64_t rank) const {
    std::vector<int64_t> perm(static_cast<size_t>(rank));
    if (!perm_) {
      std::iota(perm.rbegin(), perm.rend(), 0);
      return perm;
    }
    if (static_cast<int64_t>(perm_->size()) != rank)
      return invalid_argument("perm " + shape_to_string(*perm_) + " has " + std::to_string(perm_->size()) +
                              " entries for an input of rank " + std::to_string(rank));
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t p : *perm_) {
      if (p < 0 || p >= rank || seen[static_cast<size_t>(p)])
        return invalid_argument("perm " + shape_to_string(*perm_) + " is not a permutation of 0.." +
                                std::to_string(rank - 1));
      seen[static_cast<size_t>(p)] = true;
    }
    return *perm_;
  }

  // True when the dims larger than 1 stay in their original order.
  static bool keeps_data_order(const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
    int64_t last = -1;
    for (int64_t p : perm) {
      if (shape[static_cast<size_t>(p)] == 1) continue;
      if (p < last) return false;
      last = p;
    }
    return true;
  }

  std::optional<std::vector<int64_t>> perm_;
};

Result<std::unique_ptr<OpKernel>> create_transpose(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Transpose takes one input and one output");
  std::optional<std::vector<int64_t>> perm;
  if (init.has_attr("perm")) {
    ASSIGN_OR_RETURN(perm, init.attr_ints("perm"));
  }
  return make_kernel<TransposeKernel>(std::move(perm));
}

}  // namespace

TWINRT_REGISTER_OP("Transpose", 1, create_transpose);

}  // namespace twinrt
