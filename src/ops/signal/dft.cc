// DFT (opset 17): the discrete Fourier transform along one signal axis of a real
// ([..., 1]) or complex ([..., 2]) input, optionally zero-padded or truncated to
// dft_length, inverse (scaled by 1/n) and onesided (the first n/2 + 1 bins). A naive
// O(n^2) transform accumulated in double, so both modes give the same result.
#include <string>
#include <type_traits>
#include <vector>

#include "ops/cast/element_convert.h"
#include "ops/common/dispatch.h"
#include "ops/signal/signal_util.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

// The input seen as [outer, length, inner, components] around the transform axis.
struct DftLayout {
  int64_t outer = 1, length = 0, inner = 1, components = 0;
};

class DftKernel final : public OpKernel {
 public:
  DftKernel(int64_t axis, bool inverse, bool onesided) : axis_(axis), inverse_(inverse), onesided_(onesided) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    const ir::Shape* in = ctx.shape(0);
    if (!in) {
      ctx.set_output(0, t);
      return Status::ok();
    }
    const int64_t rank = static_cast<int64_t>(in->size());
    auto axis = normalized_axis(rank);
    if (!axis.is_ok()) return axis.status();
    ir::Shape out = *in;
    out.back() = ir::Dim::of(2);
    ir::Dim& d = out[static_cast<size_t>(axis.value())];
    std::optional<int64_t> n;
    if (!ctx.has_input(1)) {
      if (d.known()) n = d.value;
    } else {
      n = signal::constant_int_scalar(ctx, 1);
    }
    d = n ? ir::Dim::of(onesided_ ? *n / 2 + 1 : *n) : ir::Dim{};
    ctx.set_output(0, t, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(int64_t axis, normalized_axis(x->rank()));
    DftLayout in;
    in.components = x->dim(x->rank() - 1);
    if (in.components != 1 && in.components != 2)
      return invalid_argument("input's last dimension must be 1 (real) or 2 (complex), got " +
                              std::to_string(in.components));
    for (int64_t i = 0; i < axis; ++i) in.outer *= x->dim(i);
    in.length = x->dim(axis);
    for (int64_t i = axis + 1; i < x->rank() - 1; ++i) in.inner *= x->dim(i);
    int64_t n = in.length;
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(n, signal::int_scalar_input(ctx, 1, "dft_length"));
    }
    if (n < 1) return invalid_argument("the DFT length must be at least 1, got " + std::to_string(n));
    const int64_t bins = onesided_ ? n / 2 + 1 : n;
    std::vector<int64_t> out_shape = x->shape();
    out_shape[static_cast<size_t>(axis)] = bins;
    out_shape.back() = 2;
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), out_shape));
      if (y->numel() > 0) transform<T>(ctx.pool(), x->data<T>(), in, n, bins, y->data<T>());
      return Status::ok();
    });
  }

 private:
  Result<int64_t> normalized_axis(int64_t rank) const {
    if (rank < 2) return invalid_argument("input must have rank >= 2, got " + std::to_string(rank));
    const int64_t a = axis_ < 0 ? axis_ + rank : axis_;
    if (a < 0 || a > rank - 2)
      return invalid_argument("axis " + std::to_string(axis_) + " is out of range for an input of rank " +
                              std::to_string(rank) + " (the last dimension holds the components)");
    return a;
  }

  template <class T>
  void transform(ThreadPool& pool, const T* x, const DftLayout& in, int64_t n, int64_t bins, T* y) const {
    const signal::Twiddles w(n, inverse_);
    const int64_t available = in.length < n ? in.length : n;
    pool.parallel_for(in.outer * in.inner, 1, [&](int64_t begin, int64_t end) {
      std::vector<double> line(static_cast<size_t>(2 * available)), spectrum(static_cast<size_t>(2 * bins));
      for (int64_t l = begin; l < end; ++l) {
        const int64_t o = l / in.inner, i = l % in.inner;
        for (int64_t j = 0; j < available; ++j) {
          const T* e = x + ((o * in.length + j) * in.inner + i) * in.components;
          line[2 * j] = cast::float_to_double(e[0]);
          line[2 * j + 1] = in.components == 2 ? cast::float_to_double(e[1]) : 0.0;
        }
        signal::dft(line.data(), available, w, bins, inverse_, spectrum.data());
        for (int64_t k = 0; k < bins; ++k) {
          T* e = y + ((o * bins + k) * in.inner + i) * 2;
          e[0] = cast::double_to_float<T>(spectrum[2 * k]);
          e[1] = cast::double_to_float<T>(spectrum[2 * k + 1]);
        }
      }
    });
  }

  int64_t axis_;
  bool inverse_, onesided_;
};

Result<std::unique_ptr<OpKernel>> create_dft(const KernelInit& init) {
  if (init.num_inputs() < 1 || init.num_inputs() > 2 || init.num_outputs() != 1)
    return init.error("expects 1 or 2 inputs and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 1));
  ASSIGN_OR_RETURN(int64_t inverse, init.attr_int("inverse", 0));
  ASSIGN_OR_RETURN(int64_t onesided, init.attr_int("onesided", 0));
  if ((inverse != 0 && inverse != 1) || (onesided != 0 && onesided != 1))
    return init.error("attributes inverse and onesided must be 0 or 1");
  if (DataType t = init.input_dtype(0); t != DataType::kUndefined && !dtype_is_float(t))
    return init.unsupported(std::string("input type ") + dtype_name(t) + " is not supported (floats only)");
  return make_kernel<DftKernel>(axis, inverse == 1, onesided == 1);
}

}  // namespace

TWINRT_REGISTER_OP("DFT", 17, create_dft);

}  // namespace twinrt
