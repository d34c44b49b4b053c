// MaxPool, AveragePool, LpPool and their Global* forms (one window covering the whole
// plane): a window slides over each channel plane.
#include <atomic>

#include "kernels/portable/f32_avgpool_2d.h"
#include "kernels/portable/maxpool_2d.h"
#include "kernels/ref/pool_ref.h"
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/thread_scratch.h"
#include "ops/nn/window.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

enum class PoolKind { kMax, kAverage, kLp };

struct MaxPoolRows;  // owner of the max pool's thread scratch

struct PoolAttrs {
  PoolKind kind = PoolKind::kMax;
  nn::WindowAttrs window;
  bool count_include_pad = false;  // AveragePool
  bool column_major_indices = false;  // MaxPool storage_order = 1
  int64_t p = 2;  // LpPool
  bool global = false;  // the window is the whole plane
};

int64_t plane_size(const kernels::ImageWindow& w) {
  int64_t n = 1;
  for (int d = 0; d < w.rank; ++d) n *= w.in[d];
  return n;
}

// One plane through a fast path where one applies, else the ref kernel, for compute type C (float or double; max also int8/uint8).
template <class C>
void pool_plane(const PoolAttrs& a, bool reference, const kernels::MaxPool2dKernels& max,
                const kernels::ImageWindow& w, const C* in, C* out, int64_t* argmax, void* scratch) {
  if constexpr (std::is_same_v<C, float>) {
    if (a.kind == PoolKind::kMax) kernels::f32_maxpool_ref(w, in, out, argmax);  // the fast one takes runs of planes
    else if (a.kind == PoolKind::kAverage && reference) kernels::f32_avgpool_f64acc_ref(w, in, out, a.count_include_pad);
    else if (a.kind == PoolKind::kAverage && a.global) *out = kernels::f32_mean_8_lanes(in, plane_size(w));
    else if (a.kind == PoolKind::kAverage && kernels::f32_avgpool_2d_applies(w))
      kernels::f32_avgpool_2d(w, in, out, a.count_include_pad);
    else if (a.kind == PoolKind::kAverage) kernels::f32_avgpool_ref(w, in, out, a.count_include_pad);
    else (reference ? kernels::f32_lppool_f64acc_ref : kernels::f32_lppool_ref)(w, in, out, a.p);
  } else if constexpr (std::is_same_v<C, double>) {
    if (a.kind == PoolKind::kMax) kernels::f64_maxpool_ref(w, in, out, argmax);
    else if (a.kind == PoolKind::kAverage) kernels::f64_avgpool_ref(w, in, out, a.count_include_pad);
    else kernels::f64_lppool_ref(w, in, out, a.p);
  } else if constexpr (std::is_same_v<C, uint8_t>) {
    if (!argmax && kernels::maxpool_2d_applies(w)) max.u8(w, in, out, scratch);
    else kernels::u8_maxpool_ref(w, in, out, argmax);
  } else {
    if (!argmax && kernels::maxpool_2d_applies(w)) max.i8(w, in, out, scratch);
    else kernels::i8_maxpool_ref(w, in, out, argmax);
  }
}

// Row-major plane index -> column-major plane index (MaxPool storage_order = 1).
int64_t to_column_major(int64_t flat, const std::vector<int64_t>& dims) {
  int64_t result = 0, stride = 1;
  std::vector<int64_t> idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = flat % dims[d];
    flat /= dims[d];
  }
  for (size_t d = 0; d < dims.size(); ++d) {
    result += idx[d] * stride;
    stride *= dims[d];
  }
  return result;
}

class PoolKernel final : public OpKernel {
 public:
  PoolKernel(PoolAttrs attrs, Mode mode, Isa isa)
      : attrs_(std::move(attrs)), mode_(mode), max_(kernels::maxpool_2d_kernels(isa)) {}

  // The window attributes for an input's spatial dims (global pools cover them all).
  nn::WindowAttrs window_for(const std::vector<int64_t>& spatial) const {
    nn::WindowAttrs w = attrs_.window;
    if (attrs_.global) w.kernel_shape = spatial;
    return w;
  }

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    std::optional<ir::Shape> out;
    if (x && x->size() >= 3) {
      out = ir::Shape{(*x)[0], (*x)[1]};
      out->resize(x->size());
      // The spatial dims follow from the input's alone: a symbolic batch leaves them known.
      std::vector<int64_t> spatial;
      for (size_t d = 2; d < x->size() && (*x)[d].known(); ++d) spatial.push_back((*x)[d].value);
      if (attrs_.global) {
        for (size_t d = 2; d < out->size(); ++d) (*out)[d] = ir::Dim::of(1);
      } else if (spatial.size() + 2 == x->size()) {
        auto g = nn::forward_geometry(attrs_.window, spatial, attrs_.window.kernel_shape);
        if (g)
          for (size_t d = 0; d < g->out.size(); ++d) (*out)[d + 2] = ir::Dim::of(g->out[d]);
      }
    }
    ctx.set_output(0, ctx.dtype(0), out);
    if (ctx.output_types.size() > 1) ctx.set_output(1, DataType::kInt64, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() < 3)
      return invalid_argument("pooling needs X [N, C, spatial...], got " + shape_to_string(x->shape()));
    const std::vector<int64_t> spatial(x->shape().begin() + 2, x->shape().end());
    const nn::WindowAttrs window = window_for(spatial);
    ASSIGN_OR_RETURN(nn::WindowGeometry g, nn::forward_geometry(window, spatial, window.kernel_shape));
    std::vector<int64_t> ys = {x->dim(0), x->dim(1)};
    ys.insert(ys.end(), g.out.begin(), g.out.end());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), ys));
    Tensor* indices = nullptr;
    if (attrs_.kind == PoolKind::kMax && ctx.num_outputs() > 1 && ctx.output_requested(1)) {
      ASSIGN_OR_RETURN(indices, ctx.output(1, DataType::kInt64, ys));
    }
    auto body = [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      return run_typed<T>(ctx.pool(), g, *x, *y, indices);
    };
    if (attrs_.kind == PoolKind::kMax) return dispatch<kF16 | kF32 | kF64 | kU8 | kI8>(x->dtype(), body);
    return dispatch<kF16 | kF32 | kF64>(x->dtype(), body);
  }

 private:
  template <class T>
  Status run_typed(ThreadPool& pool, const nn::WindowGeometry& g, const Tensor& x, Tensor& y, Tensor* indices) const {
    nn::ComputeInput<T> xv(x);
    nn::ComputeOutput<T> yv(y);
    const kernels::ImageWindow w = g.image();
    const int64_t planes = x.dim(0) * x.dim(1), in_size = g.in_size(), out_size = g.out_size();
    const bool reference = mode_ == Mode::kReference;
    const auto* in = xv.data();
    auto* out = yv.data();
    int64_t* idx = indices ? indices->data<int64_t>() : nullptr;
    // The max pool kernels' row maxima (maxpool_2d.h), a buffer per thread.
    const int64_t scratch_floats = attrs_.kind == PoolKind::kMax && kernels::maxpool_2d_applies(w)
                                       ? (kernels::maxpool_2d_scratch_bytes(w, sizeof(*in)) + 3) / 4
                                       : 0;
    // Float max pools go to the kernel in runs of planes, of a multiple of the most it pools
    // at once where it pools several at a time (maxpool_2d_plane_blocks).
    constexpr bool kFloat = std::is_same_v<std::remove_cv_t<std::remove_pointer_t<decltype(in)>>, float>;
    const bool plane_runs = kFloat && attrs_.kind == PoolKind::kMax && !idx && kernels::maxpool_2d_applies(w);
    const int64_t run = plane_runs && kernels::maxpool_2d_plane_blocks(w) ? kernels::kMaxPool2dPlaneBlock : 1;
    std::atomic<bool> no_memory{false};
    pool.parallel_for((planes + run - 1) / run, 1, [&](int64_t first_run, int64_t end_run) {
      float* scratch = scratch_floats ? nn::thread_scratch<MaxPoolRows>(scratch_floats) : nullptr;
      if (scratch_floats && !scratch) {
        no_memory = true;
        return;
      }
      const int64_t begin = first_run * run, end = std::min(planes, end_run * run);
      if constexpr (kFloat)
        if (plane_runs) return max_.f32(w, in + begin * in_size, out + begin * out_size, end - begin, scratch);
      for (int64_t c = begin; c < end; ++c) {
        int64_t* plane_idx = idx ? idx + c * out_size : nullptr;
        pool_plane(attrs_, reference, max_, w, in + c * in_size, out + c * out_size, plane_idx, scratch);
        if (!plane_idx) continue;
        for (int64_t i = 0; i < out_size; ++i)
          plane_idx[i] = c * in_size + (attrs_.column_major_indices ? to_column_major(plane_idx[i], g.in) : plane_idx[i]);
      }
    });
    if (no_memory) return out_of_memory("no memory for the max pool's row buffers");
    yv.commit();
    return Status::ok();
  }

  PoolAttrs attrs_;
  Mode mode_;
  const kernels::MaxPool2dKernels& max_;
};

Result<int64_t> parse_p(const KernelInit& init) {
  int64_t p = 2;
  if (init.opset < 2) {  // LpPool-1 and GlobalLpPool-1 take p as a float
    ASSIGN_OR_RETURN(float pf, init.attr_float("p", 2.0f));
    p = static_cast<int64_t>(pf);
    if (static_cast<float>(p) != pf) return init.unsupported("non-integer p is not supported");
  } else {
    ASSIGN_OR_RETURN(p, init.attr_int("p", 2));
  }
  if (p < 1) return init.error("p must be >= 1, got " + std::to_string(p));
  return p;
}

template <PoolKind kKind>
Result<std::unique_ptr<OpKernel>> create_global_pool(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0) || init.num_outputs() != 1)
    return init.error("takes one input and one output");
  PoolAttrs a;
  a.kind = kKind;
  a.global = true;
  if (kKind == PoolKind::kLp) {
    ASSIGN_OR_RETURN(a.p, parse_p(init));
  }
  return make_kernel<PoolKernel>(std::move(a), init.mode, init.isa);
}

// ONNX requires each pad to be smaller than the kernel: a window lying wholly in the
// padding has no input element (MaxPool gave -3.4e38 there, AveragePool divides by zero).
Status check_pads_below_kernel(const KernelInit& init, const nn::WindowAttrs& w) {
  const size_t rank = w.kernel_shape.size();
  if (w.pads.size() != 2 * rank) return Status::ok();  // parse_window_attrs reports other lengths
  for (size_t d = 0; d < rank; ++d)
    if (w.pads[d] >= w.kernel_shape[d] || w.pads[d + rank] >= w.kernel_shape[d])
      return init.error("pads " + shape_to_string(w.pads) + " must be smaller than kernel_shape " +
                        shape_to_string(w.kernel_shape) + " on every axis");
  return Status::ok();
}

template <PoolKind kKind>
Result<std::unique_ptr<OpKernel>> create_pool(const KernelInit& init) {
  const size_t max_outputs = kKind == PoolKind::kMax && init.opset >= 8 ? 2 : 1;
  if (init.num_inputs() != 1 || !init.has_input(0) || init.num_outputs() > max_outputs)
    return init.error("takes one input and at most " + std::to_string(max_outputs) + " output(s)");
  PoolAttrs a;
  a.kind = kKind;
  ASSIGN_OR_RETURN(a.window, nn::parse_window_attrs(init, true));
  if (a.window.kernel_shape.empty()) return init.error("attribute 'kernel_shape' is required");
  TRY(check_pads_below_kernel(init, a.window));
  ASSIGN_OR_RETURN(int64_t count_pad, init.attr_int("count_include_pad", 0));
  a.count_include_pad = count_pad != 0;
  ASSIGN_OR_RETURN(int64_t storage_order, init.attr_int("storage_order", 0));
  a.column_major_indices = storage_order != 0;
  if (kKind == PoolKind::kLp) {
    ASSIGN_OR_RETURN(a.p, parse_p(init));
  }
  return make_kernel<PoolKernel>(std::move(a), init.mode, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("MaxPool", 1, create_pool<PoolKind::kMax>);
TWINRT_REGISTER_OP("AveragePool", 1, create_pool<PoolKind::kAverage>);
TWINRT_REGISTER_OP("LpPool", 1, create_pool<PoolKind::kLp>);
TWINRT_REGISTER_OP("GlobalMaxPool", 1, create_global_pool<PoolKind::kMax>);
TWINRT_REGISTER_OP("GlobalAveragePool", 1, create_global_pool<PoolKind::kAverage>);
TWINRT_REGISTER_OP("GlobalLpPool", 1, create_global_pool<PoolKind::kLp>);

}  // namespace twinrt
