// ConvTranspose: the gradient of Conv with respect to its input.
// Reference mode (and double): each output element gathers the input taps that a forward
// convolution would have scattered onto it — one double sum in a fixed order (input
// channel, then kernel offset), rounded once. Default and exact modes (float): a product
// W^T·X per image and group on the tile kernels (W packed once when constant), then col2im
// adds the columns onto the output in a fixed order.
#include <algorithm>

#include "kernels/ref/im2col_ref.h"
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/window.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

struct TransposeAttrs {
  nn::WindowAttrs window;
  std::vector<int64_t> output_padding, output_shape;
  int64_t group = 1;
};

int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// Resolved geometry: `in`/`out` spatial sizes, begin padding (may be negative when an
// explicit output_shape asks for more than the input covers).
struct TransposeGeometry {
  std::vector<int64_t> in, out, kernel, strides, dilations, pad_begin;
};

Result<TransposeGeometry> resolve(const TransposeAttrs& a, const std::vector<int64_t>& in,
                                  const std::vector<int64_t>& kernel) {
  const size_t r = in.size();
  auto per_axis = [&](const std::vector<int64_t>& v, size_t n, const char* name) -> Status {
    if (v.empty() || v.size() == n) return Status::ok();
    return invalid_argument(std::string("attribute '") + name + "' has " + std::to_string(v.size()) +
                            " values for " + std::to_string(r) + " spatial axes");
  };
  TRY(per_axis(a.window.strides, r, "strides"));
  TRY(per_axis(a.window.dilations, r, "dilations"));
  TRY(per_axis(a.window.pads, 2 * r, "pads"));
  TRY(per_axis(a.output_padding, r, "output_padding"));
  if (!a.window.kernel_shape.empty() && a.window.kernel_shape != kernel)
    return invalid_argument("kernel_shape " + shape_to_string(a.window.kernel_shape) + " differs from W's " +
                            shape_to_string(kernel));
  // output_shape may list only the spatial sizes or the whole output shape.
  std::vector<int64_t> requested = a.output_shape;
  if (requested.size() == r + 2) requested.erase(requested.begin(), requested.begin() + 2);
  TRY(per_axis(requested, r, "output_shape"));
  TransposeGeometry g;
  g.in = in;
  g.kernel = kernel;
  g.strides = a.window.strides.empty() ? std::vector<int64_t>(r, 1) : a.window.strides;
  g.dilations = a.window.dilations.empty() ? std::vector<int64_t>(r, 1) : a.window.dilations;
  g.out.assign(r, 0);
  g.pad_begin.assign(r, 0);
  for (size_t d = 0; d < r; ++d) {
    const int64_t op = a.output_padding.empty() ? 0 : a.output_padding[d];
    const int64_t full = g.strides[d] * (in[d] - 1) + op + (kernel[d] - 1) * g.dilations[d] + 1;
    const bool same = a.window.auto_pad == nn::AutoPad::kSameUpper || a.window.auto_pad == nn::AutoPad::kSameLower;
    if (!requested.empty() || same) {
      g.out[d] = requested.empty() ? in[d] * g.strides[d] : requested[d];
      const int64_t total = full - g.out[d];
      g.pad_begin[d] = a.window.auto_pad == nn::AutoPad::kSameUpper ? floor_half(total) : total - floor_half(total);
    } else {
      const bool explicit_pads = a.window.auto_pad == nn::AutoPad::kNotSet && !a.window.pads.empty();
      g.pad_begin[d] = explicit_pads ? a.window.pads[d] : 0;
      g.out[d] = full - g.pad_begin[d] - (explicit_pads ? a.window.pads[d + r] : 0);
    }
    if (g.out[d] < 0)
      return invalid_argument("spatial axis " + std::to_string(d) + " would have negative size " +
                              std::to_string(g.out[d]));
  }
  return g;
}

// For every output position, the (kernel offset, input offset) pairs that reach it.
struct TapTable {
  std::vector<int64_t> start;                        // per position, into `taps`; size positions + 1
  std::vector<std::pair<int64_t, int64_t>> taps;     // (flat kernel index, flat input index)
};

TapTable build_taps(const TransposeGeometry& g) {
  const size_t r = g.in.size();
  // Per axis and output coordinate: the (kernel index, input index) pairs that hit it.
  std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>> axis(r);
  for (size_t d = 0; d < r; ++d) {
    axis[d].resize(static_cast<size_t>(g.out[d]));
    for (int64_t o = 0; o < g.out[d]; ++o)
      for (int64_t k = 0; k < g.kernel[d]; ++k) {
        const int64_t num = o + g.pad_begin[d] - k * g.dilations[d];
        if (num < 0 || num % g.strides[d] != 0 || num / g.strides[d] >= g.in[d]) continue;
        axis[d][static_cast<size_t>(o)].emplace_back(k, num / g.strides[d]);
      }
  }
  int64_t positions = 1;
  for (int64_t o : g.out) positions *= o;
  TapTable t;
  t.start.push_back(0);
  std::vector<int64_t> idx(r, 0);
  for (int64_t p = 0; p < positions; ++p) {
    // Cartesian product of the per-axis lists, kernel-major like the weights.
    std::vector<std::pair<int64_t, int64_t>> combos = {{0, 0}};
    for (size_t d = 0; d < r; ++d) {
      std::vector<std::pair<int64_t, int64_t>> next;
      for (const auto& [kf, xf] : combos)
        for (const auto& [k, i] : axis[d][static_cast<size_t>(idx[d])])
          next.emplace_back(kf * g.kernel[d] + k, xf * g.in[d] + i);
      combos.swap(next);
    }
    t.taps.insert(t.taps.end(), combos.begin(), combos.end());
    t.start.push_back(static_cast<int64_t>(t.taps.size()));
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < g.out[d]) break;
      idx[d] = 0;
    }
  }
  return t;
}

class ConvTransposeKernel final : public OpKernel {
 public:
  ConvTransposeKernel(TransposeAttrs attrs, Mode mode, nn::WidenedConstant weights,
                      const kernels::F32GemmKernel& tile, nn::PackedF32 packed)
      : attrs_(std::move(attrs)), mode_(mode), weights_(std::move(weights)), tile_(tile), packed_(std::move(packed)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    if (!x || x->size() < 3) {
      ctx.set_output(0, ctx.dtype(0));
      return Status::ok();
    }
    ir::Shape out(x->size());
    out[0] = (*x)[0];
    auto xs = ctx.static_shape(0), ws = ctx.static_shape(1);
    if (ws && ws->size() == x->size()) out[1] = ir::Dim::of((*ws)[1] * attrs_.group);
    if (xs && ws && ws->size() == xs->size()) {
      auto g = resolve(attrs_, {xs->begin() + 2, xs->end()}, {ws->begin() + 2, ws->end()});
      if (g)
        for (size_t d = 0; d < g->out.size(); ++d) out[d + 2] = ir::Dim::of(g->out[d]);
    }
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(1));
    const Tensor* b = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(b, ctx.tensor_input(2));
    }
    for (const Tensor* t : {w, b})
      if (t && t->dtype() != x->dtype())
        return invalid_argument(std::string("ConvTranspose inputs must share X's type ") + dtype_name(x->dtype()) +
                                ", got " + dtype_name(t->dtype()));
    const auto& xs = x->shape();
    const auto& ws = w->shape();
    if (xs.size() < 3 || ws.size() != xs.size() || xs[1] != ws[0] || xs[1] % attrs_.group != 0)
      return invalid_argument("ConvTranspose needs X [N, C, spatial...] and W [C, M/group, kernel...], got X " +
                              shape_to_string(xs) + ", W " + shape_to_string(ws) + ", group " +
                              std::to_string(attrs_.group));
    ASSIGN_OR_RETURN(TransposeGeometry g, resolve(attrs_, {xs.begin() + 2, xs.end()}, {ws.begin() + 2, ws.end()}));
    const int64_t out_channels = ws[1] * attrs_.group;
    if (b && (b->rank() != 1 || b->dim(0) != out_channels))
      return invalid_argument("ConvTranspose bias must have shape [" + std::to_string(out_channels) + "], got " +
                              shape_to_string(b->shape()));
    std::vector<int64_t> ys = {xs[0], out_channels};
    ys.insert(ys.end(), g.out.begin(), g.out.end());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), ys));
    return dispatch<kF16 | kF32 | kF64>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (mode_ == Mode::kReference) gather<T, double>(ctx.pool(), g, *x, *w, b, *y);
      else if constexpr (std::is_same_v<nn::compute_t<T>, float>) return gemm_col2im<T>(ctx.pool(), g, *x, *w, b, *y);
      else gather<T, nn::compute_t<T>>(ctx.pool(), g, *x, *w, b, *y);
      return Status::ok();
    });
  }

 private:
  template <class T>
  Status gemm_col2im(ThreadPool& pool, const TransposeGeometry& g, const Tensor& x, const Tensor& w, const Tensor* b,
                   Tensor& y) const {
    nn::ComputeInput<T> xv(x), wv(w, &weights_);
    std::optional<nn::ComputeInput<T>> bv;
    if (b) bv.emplace(*b);
    nn::ComputeOutput<T> yv(y);
    const int64_t batch = x.dim(0), in_channels = x.dim(1), mg = w.dim(1);
    const int64_t cg = in_channels / attrs_.group, out_channels = mg * attrs_.group;
    int64_t in_size = 1, ksize = 1, out_size = 1;
    for (size_t d = 0; d < g.in.size(); ++d) {
      in_size *= g.in[d];
      ksize *= g.kernel[d];
      out_size *= g.out[d];
    }
    // The forward window whose im2col matrix the product gives: its input is our output.
    kernels::ImageWindow win;
    win.rank = static_cast<int>(g.in.size());
    win.in = g.out.data();
    win.out = g.in.data();
    win.kernel = g.kernel.data();
    win.strides = g.strides.data();
    win.dilations = g.dilations.data();
    win.pad_begin = g.pad_begin.data();
    std::vector<float> col(static_cast<size_t>(mg * ksize * in_size));
    const float* packed = packed_.match(w);
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t grp = 0; grp < attrs_.group; ++grp) {
        nn::F32Product p;  // col = W_g^T (mg*ksize x cg) · X_g (cg x in_size)
        p.m = mg * ksize;
        p.n = in_size;
        p.k = cg;
        if (packed) {
          p.a.packed = packed + grp * kernels::panel_count(p.m, tile_.mr) * tile_.mr * cg;
        } else {
          p.a.data = wv.data() + grp * cg * mg * ksize;
          p.a.outer_stride = 1;
          p.a.k_stride = mg * ksize;
        }
        p.b.data = xv.data() + (n * in_channels + grp * cg) * in_size;
        p.b.outer_stride = 1;
        p.b.k_stride = in_size;
        p.c = col.data();
        p.ldc = in_size;
        TRY(nn::run_f32_gemm(pool, tile_, p));
        pool.parallel_for(mg, 1, [&](int64_t begin, int64_t end) {
          for (int64_t c = begin; c < end; ++c) {
            const int64_t oc = grp * mg + c;
            float* plane = yv.data() + (n * out_channels + oc) * out_size;
            std::fill(plane, plane + out_size, bv ? bv->data()[oc] : 0.0f);
            kernels::f32_col2im_ref(win, col.data() + c * ksize * in_size, in_size, 1, plane);
          }
        });
      }
    yv.commit();
    return Status::ok();
  }

  template <class T, class Acc>
  void gather(ThreadPool& pool, const TransposeGeometry& g, const Tensor& x, const Tensor& w, const Tensor* b,
              Tensor& y) const {
    const TapTable table = build_taps(g);
    nn::ComputeInput<T> xv(x), wv(w, &weights_);
    std::optional<nn::ComputeInput<T>> bv;
    if (b) bv.emplace(*b);
    nn::ComputeOutput<T> yv(y);
    const int64_t batch = x.dim(0), in_channels = x.dim(1), mg = w.dim(1);
    const int64_t cg = in_channels / attrs_.group, out_channels = mg * attrs_.group;
    int64_t in_size = 1, ksize = 1, positions = 1;
    for (size_t d = 0; d < g.in.size(); ++d) {
      in_size *= g.in[d];
      ksize *= g.kernel[d];
      positions *= g.out[d];
    }
    const auto* xp = xv.data();
    const auto* wp = wv.data();
    auto* yp = yv.data();
    pool.parallel_for(batch * out_channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t n = t / out_channels, oc = t % out_channels;
        const int64_t group = oc / mg, ocg = oc % mg;
        const Acc bias = bv ? static_cast<Acc>(bv->data()[oc]) : Acc(0);
        for (int64_t p = 0; p < positions; ++p) {
          Acc acc = 0;
          for (int64_t c = group * cg; c < (group + 1) * cg; ++c) {
            const auto* xc = xp + (n * in_channels + c) * in_size;
            const auto* wc = wp + (c * mg + ocg) * ksize;
            for (int64_t i = table.start[static_cast<size_t>(p)]; i < table.start[static_cast<size_t>(p) + 1]; ++i) {
              const auto& [k, xi] = table.taps[static_cast<size_t>(i)];
              acc += static_cast<Acc>(xc[xi]) * static_cast<Acc>(wc[k]);
            }
          }
          yp[t * positions + p] = static_cast<nn::compute_t<T>>(acc + bias);
        }
      }
    });
    yv.commit();
  }

  TransposeAttrs attrs_;
  Mode mode_;
  nn::WidenedConstant weights_;  // a constant half-type W, widened once
  const kernels::F32GemmKernel& tile_;
  nn::PackedF32 packed_;  // constant W as the A panels of W_g^T, one block per group
};

Result<std::unique_ptr<OpKernel>> create_conv_transpose(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("ConvTranspose takes X, W and optional B, got " + std::to_string(init.num_inputs()) + " inputs");
  TransposeAttrs a;
  ASSIGN_OR_RETURN(a.window, nn::parse_window_attrs(init, false));
  ASSIGN_OR_RETURN(a.output_padding, init.attr_ints("output_padding"));
  ASSIGN_OR_RETURN(a.output_shape, init.attr_ints("output_shape"));
  ASSIGN_OR_RETURN(a.group, init.attr_int("group", 1));
  if (a.group < 1) return init.error("group must be >= 1, got " + std::to_string(a.group));
  TRY(nn::check_window_values(init, a.output_padding, "output_padding", 0));
  TRY(nn::check_window_values(init, a.output_shape, "output_shape", 0));
  const Tensor* w = init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr;
  ASSIGN_OR_RETURN(nn::WidenedConstant weights, nn::WidenedConstant::make(w));
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  nn::PackedF32 packed;
  if (w && init.mode != Mode::kReference && w->rank() >= 3 && w->dim(0) % a.group == 0 && w->numel() > 0) {
    const int64_t cg = w->dim(0) / a.group, rows = w->numel() / w->dim(0);  // rows: M/group x kernel
    ASSIGN_OR_RETURN(packed, nn::pack_f32_constant(*w, weights, a.group, rows, cg, 1, rows, tile.mr));
  }
  return make_kernel<ConvTransposeKernel>(std::move(a), init.mode, std::move(weights), tile, std::move(packed));
}

}  // namespace

TWINRT_REGISTER_OP("ConvTranspose", 1, create_conv_transpose);

}  // namespace twinrt
