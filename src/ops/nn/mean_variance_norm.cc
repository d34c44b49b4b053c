// MeanVarianceNormalization: (X - E[X]) / (sqrt(E[(X - E[X])^2]) + 1e-9) with the
// expectations taken over `axes` (default N, H, W: per channel).
#include <cmath>

#include "ops/nn/compute_type.h"
#include "ops/op.h"

namespace twinrt {
namespace {

// The statistics group of every element: its flat index over the axes that are kept.
std::vector<int64_t> group_index(const std::vector<int64_t>& shape, const std::vector<bool>& reduced, int64_t& groups) {
  const size_t rank = shape.size();
  std::vector<int64_t> kept_stride(rank, 0);
  groups = 1;
  for (size_t d = rank; d-- > 0;)
    if (!reduced[d]) {
      kept_stride[d] = groups;
      groups *= shape[d];
    }
  std::vector<int64_t> group(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < group.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i), g = 0;
    for (size_t d = rank; d-- > 0;) {
      g += rest % shape[d] * kept_stride[d];
      rest /= shape[d];
    }
    group[i] = g;
  }
  return group;
}

class MvnKernel final : public OpKernel {
 public:
  MvnKernel(std::vector<int64_t> axes, Mode mode) : axes_(std::move(axes)), mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    const int64_t rank = x->rank();
    std::vector<bool> reduced(static_cast<size_t>(rank), false);
    for (int64_t a : axes_) {
      const int64_t d = a < 0 ? a + rank : a;
      if (d < 0 || d >= rank)
        return invalid_argument("MeanVarianceNormalization axis " + std::to_string(a) + " is outside rank " +
                                std::to_string(rank));
      reduced[static_cast<size_t>(d)] = true;
    }
    int64_t groups = 1;
    const std::vector<int64_t> group = group_index(x->shape(), reduced, groups);
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) normalize<double>(xv.data(), yv.data(), x->numel(), group, groups);
      else normalize<nn::compute_t<T>>(xv.data(), yv.data(), x->numel(), group, groups);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class Acc, class C>
  static void normalize(const C* x, C* y, int64_t n, const std::vector<int64_t>& group, int64_t groups) {
    std::vector<Acc> mean(static_cast<size_t>(groups), 0), var(static_cast<size_t>(groups), 0);
    std::vector<int64_t> count(static_cast<size_t>(groups), 0);
    for (int64_t i = 0; i < n; ++i) {
      const size_t g = static_cast<size_t>(group[static_cast<size_t>(i)]);
      mean[g] += static_cast<Acc>(x[i]);
      ++count[g];
    }
    for (size_t g = 0; g < mean.size(); ++g) mean[g] = count[g] ? mean[g] / static_cast<Acc>(count[g]) : Acc(0);
    for (int64_t i = 0; i < n; ++i) {
      const size_t g = static_cast<size_t>(group[static_cast<size_t>(i)]);
      const Acc d = static_cast<Acc>(x[i]) - mean[g];
      var[g] += d * d;
    }
    std::vector<Acc> denom(static_cast<size_t>(groups));
    for (size_t g = 0; g < var.size(); ++g)
      denom[g] = static_cast<Acc>(std::sqrt(count[g] ? var[g] / static_cast<Acc>(count[g]) : Acc(0))) + static_cast<Acc>(1e-9);
    for (int64_t i = 0; i < n; ++i) {
      const size_t g = static_cast<size_t>(group[static_cast<size_t>(i)]);
      y[i] = static_cast<C>((static_cast<Acc>(x[i]) - mean[g]) / denom[g]);
    }
  }

  std::vector<int64_t> axes_;
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_mvn(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("MeanVarianceNormalization takes one input");
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, init.attr_ints("axes", {0, 2, 3}));
  return make_kernel<MvnKernel>(std::move(axes), init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("MeanVarianceNormalization", 9, create_mvn);

}  // namespace twinrt
