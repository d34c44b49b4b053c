// STFT (opset 17): DFTs of frames of length L taken every frame_step samples of a real
// ([batch, length, 1]) or complex ([batch, length, 2]) signal, each multiplied by an
// optional window of length L. L is frame_length, or the window's length when
// frame_length is omitted. Output [batch, frames, bins, 2] with bins = L/2 + 1 when
// onesided (the default), L otherwise.
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/cast/element_convert.h"
#include "ops/common/dispatch.h"
#include "ops/signal/signal_util.h"
#include "ops/tensor/tensor_args.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

struct Framing {
  int64_t batch = 0, length = 0, components = 0;
  int64_t frame_length = 0, step = 0, frames = 0, bins = 0;
};

class StftKernel final : public OpKernel {
 public:
  explicit StftKernel(bool onesided) : onesided_(onesided) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    ctx.set_output(0, t, ir::Shape{ir::Dim{}, ir::Dim{}, ir::Dim{}, ir::Dim::of(2)});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* signal, ctx.tensor_input(0));
    const Tensor* window = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(window, ctx.tensor_input(2));
    }
    ASSIGN_OR_RETURN(Framing f, framing(ctx, *signal, window));
    if (window && window->dtype() != signal->dtype())
      return invalid_argument(std::string("input window must have the signal's type ") +
                              dtype_name(signal->dtype()) + ", got " + dtype_name(window->dtype()));
    std::vector<double> w(static_cast<size_t>(f.frame_length), 1.0);
    if (window) {
      ASSIGN_OR_RETURN(w, tensor_ops::read_doubles(*window, "input window"));
    }
    return dispatch<kFloats>(signal->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, signal->dtype(), {f.batch, f.frames, f.bins, 2}));
      transform<T>(ctx.pool(), signal->data<T>(), w, f, y->data<T>());
      return Status::ok();
    });
  }

 private:
  Result<Framing> framing(const RunContext& ctx, const Tensor& signal, const Tensor* window) const {
    if (signal.rank() != 3 || (signal.dim(2) != 1 && signal.dim(2) != 2))
      return invalid_argument("input signal must have shape [batch, length, 1 or 2], got " +
                              shape_to_string(signal.shape()));
    Framing f;
    f.batch = signal.dim(0);
    f.length = signal.dim(1);
    f.components = signal.dim(2);
    ASSIGN_OR_RETURN(f.step, signal::int_scalar_input(ctx, 1, "frame_step"));
    if (f.step < 1) return invalid_argument("input frame_step must be positive, got " + std::to_string(f.step));
    if (window && window->rank() != 1)
      return invalid_argument("input window must have rank 1, got shape " + shape_to_string(window->shape()));
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(f.frame_length, signal::int_scalar_input(ctx, 3, "frame_length"));
      if (window && window->dim(0) != f.frame_length)
        return invalid_argument("input window has length " + std::to_string(window->dim(0)) +
                                " but frame_length is " + std::to_string(f.frame_length));
    } else if (window) {
      f.frame_length = window->dim(0);
    } else {
      return invalid_argument("either input window or input frame_length is required");
    }
    if (f.frame_length < 1 || f.frame_length > f.length)
      return invalid_argument("frame length " + std::to_string(f.frame_length) +
                              " must be in [1, signal length " + std::to_string(f.length) + "]");
    f.frames = (f.length - f.frame_length) / f.step + 1;
    f.bins = onesided_ ? f.frame_length / 2 + 1 : f.frame_length;
    return f;
  }

  template <class T>
  void transform(ThreadPool& pool, const T* x, const std::vector<double>& w, const Framing& f, T* y) const {
    const signal::Twiddles twiddles(f.frame_length, /*inverse=*/false);
    pool.parallel_for(f.batch * f.frames, 1, [&](int64_t begin, int64_t end) {
      std::vector<double> frame(static_cast<size_t>(2 * f.frame_length)), spectrum(static_cast<size_t>(2 * f.bins));
      for (int64_t bf = begin; bf < end; ++bf) {
        const int64_t b = bf / f.frames, start = (bf % f.frames) * f.step;
        for (int64_t j = 0; j < f.frame_length; ++j) {
          const T* e = x + (b * f.length + start + j) * f.components;
          frame[2 * j] = cast::float_to_double(e[0]) * w[static_cast<size_t>(j)];
          frame[2 * j + 1] = f.components == 2 ? cast::float_to_double(e[1]) * w[static_cast<size_t>(j)] : 0.0;
        }
        signal::dft(frame.data(), f.frame_length, twiddles, f.bins, false, spectrum.data());
        T* out = y + bf * f.bins * 2;
        for (int64_t k = 0; k < 2 * f.bins; ++k) out[k] = cast::double_to_float<T>(spectrum[static_cast<size_t>(k)]);
      }
    });
  }

  bool onesided_;
};

Result<std::unique_ptr<OpKernel>> create_stft(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 4 || init.num_outputs() != 1)
    return init.error("expects 2 to 4 inputs and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(int64_t onesided, init.attr_int("onesided", 1));
  if (onesided != 0 && onesided != 1) return init.error("attribute onesided must be 0 or 1");
  if (DataType t = init.input_dtype(0); t != DataType::kUndefined && !dtype_is_float(t))
    return init.unsupported(std::string("signal type ") + dtype_name(t) + " is not supported (floats only)");
  return make_kernel<StftKernel>(onesided == 1);
}

}  // namespace

TWINRT_REGISTER_OP("STFT", 17, create_stft);

}  // namespace twinrt
