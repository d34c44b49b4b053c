// Det: determinant of each square matrix in the trailing two axes, by LU decomposition
// with partial pivoting (double in reference mode, the compute type otherwise).
#include <cmath>
#include <utility>

#include "ops/nn/compute_type.h"
#include "ops/op.h"

namespace twinrt {
namespace {

template <class Acc, class C>
C determinant(const C* m, int64_t n, std::vector<Acc>& lu) {
  lu.assign(m, m + n * n);
  Acc det = 1;
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t r = col + 1; r < n; ++r)
      if (std::fabs(lu[static_cast<size_t>(r * n + col)]) > std::fabs(lu[static_cast<size_t>(pivot * n + col)])) pivot = r;
    const Acc p = lu[static_cast<size_t>(pivot * n + col)];
    if (p == Acc(0)) return C(0);
    if (pivot != col) {
      for (int64_t j = 0; j < n; ++j) std::swap(lu[static_cast<size_t>(pivot * n + j)], lu[static_cast<size_t>(col * n + j)]);
      det = -det;
    }
    det *= p;
    for (int64_t r = col + 1; r < n; ++r) {
      const Acc f = lu[static_cast<size_t>(r * n + col)] / p;
      for (int64_t j = col + 1; j < n; ++j) lu[static_cast<size_t>(r * n + j)] -= f * lu[static_cast<size_t>(col * n + j)];
    }
  }
  return static_cast<C>(det);
}

class DetKernel final : public OpKernel {
 public:
  explicit DetKernel(Mode mode) : mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    std::optional<ir::Shape> out;
    if (x && x->size() >= 2) out = ir::Shape(x->begin(), x->end() - 2);
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    const auto& s = x->shape();
    if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2])
      return invalid_argument("Det needs square matrices in the last two axes, got " + shape_to_string(s));
    const int64_t n = s.back();
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), {s.begin(), s.end() - 2}));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      std::vector<double> lu_ref;
      std::vector<C> lu;
      for (int64_t i = 0; i < y->numel(); ++i) {
        const C* m = xv.data() + i * n * n;
        yv.data()[i] = mode_ == Mode::kReference ? determinant<double>(m, n, lu_ref) : determinant<C>(m, n, lu);
      }
      yv.commit();
      return Status::ok();
    });
  }

 private:
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_det(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("Det takes one input");
  return make_kernel<DetKernel>(init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("Det", 11, create_det);

}  // namespace twinrt
