// Conv: N-D convolution with groups, strides, dilations and padding (im2col + GEMM).
#include "kernels/conv/f32_dwconv.h"
#include "kernels/gemm/im2col_panel.h"
#include "kernels/ref/dwconv_ref.h"
#include "ops/binary/elementwise.h"
#include "ops/binary/numeric.h"
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/fused/elementwise_program.h"
#include "ops/nn/batch_norm.h"
#include "ops/nn/channel_map.h"
#include "ops/nn/conv_tiles.h"
#include "ops/nn/conv_rows.h"
#include "ops/nn/conv_winograd.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/gemm_runner.h"
#include "ops/nn/thread_scratch.h"
#include "ops/op.h"

namespace twinrt {
namespace {

using nn::ChannelMap;

constexpr unsigned kConvTypes = kF16 | kF32 | kF64;

// a * b with broadcasting, as the Mul that fuse_channel_scale folded would have computed it.
Result<Tensor> multiply(ThreadPool& pool, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    return invalid_argument(std::string("the fused Mul's inputs must have the same type, got ") + dtype_name(a.dtype()) +
                            " and " + dtype_name(b.dtype()));
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, broadcast_shapes({a.shape(), b.shape()}));
  ASSIGN_OR_RETURN(Tensor product, Tensor::create_for_overwrite(a.dtype(), shape));
  const BroadcastRows rows(shape, {a.shape(), b.shape()});
  TRY(dispatch<kConvTypes>(a.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    apply_rows(rows, pool, a.data<T>(), b.data<T>(), product.data<T>(),
               [](T u, T v) { return store<T>(arith_mul(load(u), load(v))); });
    return Status::ok();
  }));
  return product;
}

struct ScaledWeights;  // owner of a ChannelScaledConv's scaled weights (thread scratch)

// A NormalizedConv's BatchNormalization of X (passes/fuse_normalized_input.cc): its affine
// map from the constant statistics and its clamp (where the tiles cannot apply them, they
// run as the BatchNormalization would).
struct NormalizedInput {
  nn::BatchNormAffine affine;
  nn::BatchNormShape shape;
};

class ConvKernel final : public OpKernel {
 public:
  ConvKernel(nn::WindowAttrs attrs, int64_t group, Mode mode, Isa isa, nn::WidenedConstant weights,
             const kernels::F32GemmKernel& tile, nn::PackedF32 packed, nn::WinogradWeights winograd, bool residual,
             std::optional<ir::FusedClamp> clamp, std::optional<ElementwiseProgram> program, size_t program_first,
             std::optional<size_t> scale_input, bool scale_weights, std::optional<NormalizedInput> normalized)
      : attrs_(std::move(attrs)), group_(group), mode_(mode), residual_(residual), clamp_(clamp),
        program_(std::move(program)), program_first_(program_first), scale_input_(scale_input),
        scale_weights_(scale_weights), normalized_(std::move(normalized)), step_(kernels::f32_step_kernel(isa)),
        map_panel_(kernels::f32_map_panel_kernel(isa)), gemm_(mode),
        tile_(tile),
        depthwise_(kernels::f32_dwconv_kernel(isa, mode == Mode::kDefault)),
        winograd_transforms_(kernels::f32_winograd_transforms(isa)),
        weights_(std::move(weights)), packed_(std::move(packed)), winograd_(std::move(winograd)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    std::optional<ir::Shape> scaled;  // a ChannelScaledConv's X: its Mul's product
    if (scale_input_ && x && ctx.shape(*scale_input_)) scaled = broadcast_symbolic({x, ctx.shape(*scale_input_)});
    if (scale_input_) x = scaled ? &*scaled : nullptr;
    std::optional<ir::Shape> y = nn::conv_output_shape(attrs_, x, ctx.shape(1));
    if (residual_) y = y && ctx.shape(3) ? std::optional(broadcast_symbolic({&*y, ctx.shape(3)})) : std::nullopt;
    ctx.set_output(0, ctx.dtype(0), y);
    return Status::ok();
  }

  // Packed weights run on the tiles (never in reference mode, never depthwise).
  bool keeps_copy_of_input(size_t i) const override {
    return i == 1 && (packed_.panels.defined() || winograd_.u.panels.defined());
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(1));
    ChannelMap map;
    Tensor product;  // a fused node's X after its map, where the tiles cannot apply it
    if (scale_input_) {
      ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor_input(*scale_input_));
      if (const auto split = scaled_on_tiles(*x, *other, *w)) {
        std::tie(x, map) = *split;
      } else {
        ASSIGN_OR_RETURN(product, multiply(ctx.pool(), *x, *other));
        x = &product;
      }
    }
    if (normalized_) {
      if (x->rank() < 2 || x->dim(1) != static_cast<int64_t>(normalized_->affine.size()))
        return invalid_argument("the fused BatchNormalization has " + std::to_string(normalized_->affine.size()) +
                                " channels, X has shape " + shape_to_string(x->shape()));
      if (on_tiles(*x, *w)) {
        map = normalized_map();
      } else {
        ASSIGN_OR_RETURN(product, Tensor::create_for_overwrite(x->dtype(), x->shape()));
        TRY(nn::batch_normalize(ctx.pool(), mode_, step_, normalized_->affine, normalized_->shape, *x, product));
        x = &product;
      }
    }
    const Tensor* b = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(b, ctx.tensor_input(2));
    }
    const Tensor* r = nullptr;  // a fused Add's other operand
    if (residual_) {
      ASSIGN_OR_RETURN(r, ctx.tensor_input(3));
    }
    for (const Tensor* t : {w, b})
      if (t && t->dtype() != x->dtype())
        return invalid_argument(std::string("Conv inputs must share X's type ") + dtype_name(x->dtype()) + ", got " +
                                dtype_name(t->dtype()));
    if (r && r->dtype() != x->dtype())
      return invalid_argument(std::string("inputs A and B of the fused Add must have the same type, got ") +
                              dtype_name(x->dtype()) + " and " + dtype_name(r->dtype()));
    ASSIGN_OR_RETURN(nn::ConvPlan plan, nn::make_conv_plan(attrs_, group_, x->shape(), w->shape()));
    if (b && (b->rank() != 1 || b->dim(0) != plan.out_channels))
      return invalid_argument("Conv bias must have shape [" + std::to_string(plan.out_channels) + "], got " +
                              shape_to_string(b->shape()));
    std::vector<int64_t> y_shape = {plan.batch, plan.out_channels};
    y_shape.insert(y_shape.end(), plan.window.out.begin(), plan.window.out.end());
    // The residual joins the kernel's output when it has the output's shape and the
    // compute type is the storage type; otherwise the Add runs as its own step.
    if (r && (r->shape() != y_shape || x->dtype() == DataType::kFloat16))
      return run_with_separate_add(ctx, plan, *x, map, *w, b, *r, y_shape);
    ChannelProgram post;
    if (program_) {
      std::vector<const Tensor*> extras;
      for (size_t i = program_first_; i < scale_input_.value_or(ctx.num_inputs()); ++i) {
        ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
        extras.push_back(t);
      }
      if (x->dtype() != DataType::kFloat)
        return invalid_argument(std::string("a Conv with fused elementwise steps needs float32, got ") +
                                dtype_name(x->dtype()));
      ASSIGN_OR_RETURN(post, ChannelProgram::bind(*program_, extras, plan.out_channels));
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), y_shape));
    return dispatch<kConvTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      return run_typed<T>(ctx.pool(), plan, *x, map, *w, b, r, clamp_, *y, post);
    });
  }

 private:
  // Whether the tiles can map X as they pack it: a float32 pointwise convolution in one
  // group of more than one input channel (one runs the depthwise kernel), not in reference mode.
  bool on_tiles(const Tensor& x, const Tensor& w) const {
    if (mode_ == Mode::kReference || group_ != 1 || x.dtype() != DataType::kFloat || w.dtype() != DataType::kFloat)
      return false;
    const Result<nn::ConvPlan> plan = nn::make_conv_plan(attrs_, group_, x.shape(), w.shape());
    return plan.is_ok() && plan->is_pointwise() && plan->in_per_group() > 1;
  }

  // split_channel_scale's input and factors where the tiles can apply the factors.
  std::optional<std::pair<const Tensor*, ChannelMap>> scaled_on_tiles(const Tensor& a, const Tensor& b,
                                                                      const Tensor& w) const {
    const auto split = nn::split_channel_scale(a, b);
    return split && on_tiles(*split->first, w) ? split : std::nullopt;
  }

  ChannelMap normalized_map() const {
    const nn::ChannelAffine<float>& a = normalized_->affine.in_float;
    const kernels::F32StepParams step = nn::batch_norm_step(normalized_->shape);
    return ChannelMap{{a.factor.data(), a.centre.data(), a.shift.data(), step.clip, step.lo, step.hi}};
  }

  // Conv, then the fused Add with broadcasting, then the fused clamp: the unfused ops' steps.
  Status run_with_separate_add(RunContext& ctx, const nn::ConvPlan& plan, const Tensor& x, const ChannelMap& map,
                               const Tensor& w, const Tensor* b, const Tensor& r,
                               const std::vector<int64_t>& y_shape) const {
    ASSIGN_OR_RETURN(Tensor conv, Tensor::create_for_overwrite(x.dtype(), y_shape));
    return dispatch<kConvTypes>(x.dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      TRY(run_typed<T>(ctx.pool(), plan, x, map, w, b, nullptr, std::nullopt, conv, ChannelProgram{}));
      return nn::add_residual_then_clamp<T>(ctx, conv, r, clamp_);
    });
  }

  // y = post(clamp(conv(x) + r)): r (same shape and type as y, float or double), the
  // clamp and the folded elementwise group `post` (float) are optional; so is `map`
  // (float32 pointwise convolutions on the tiles only: on_tiles).
  template <class T>
  Status run_typed(ThreadPool& pool, const nn::ConvPlan& plan, const Tensor& x, const ChannelMap& map,
                   const Tensor& w, const Tensor* b,
                   const Tensor* r, const std::optional<ir::FusedClamp>& clamp, Tensor& y,
                   const ChannelProgram& post) const {
    using C = nn::compute_t<T>;
    nn::ComputeInput<T> xv(x), wv(w, &weights_);
    std::optional<nn::ComputeInput<T>> bv;
    if (b) bv.emplace(*b);
    nn::ComputeOutput<T> yv(y);
    const C* bias = bv ? bv->data() : nullptr;
    const C* residual = nullptr;
    if constexpr (std::is_same_v<C, T>) residual = r ? r->data<T>() : nullptr;
    bool epilogue_done = false, post_done = false;
    if constexpr (std::is_same_v<C, float>) {
      if (plan.in_per_group() == 1 && plan.window.rank() == 2 && !r) {
        run_depthwise(pool, plan, xv.data(), wv.data(), bias, clamp, yv.data(), post);
        epilogue_done = post_done = true;
      } else if (plan.in_per_group() == 1 && plan.window.rank() == 2) {
        run_depthwise(pool, plan, xv.data(), wv.data(), bias, std::nullopt, yv.data(), ChannelProgram{});
      } else if (const float* u = winograd_.u.match(w); u && nn::winograd_applies(plan)) {
        TRY(nn::run_winograd(pool, tile_, winograd_transforms_, plan, xv.data(), u, winograd_.layout, bias,
                             residual, clamp, post, yv.data()));
        epilogue_done = post_done = true;
      } else if (mode_ != Mode::kReference) {
        TRY(run_tiles(pool, plan, xv.data(), map, packed_.match(w), wv.data(), bias, residual, clamp, yv.data(),
                      post));
        epilogue_done = post_done = true;
      } else {
        run_reference(pool, plan, xv.data(), wv.data(), bias, yv.data());
      }
    } else {
      run_reference(pool, plan, xv.data(), wv.data(), bias, yv.data());
    }
    if (!epilogue_done) {
      if (residual) nn::apply_fused_residual(pool, residual, yv.data(), y.numel());
      nn::apply_fused_clamp(pool, clamp, yv.data(), y.numel());
    }
    if constexpr (std::is_same_v<C, float>)
      if (post.active() && !post_done) apply_per_plane(pool, plan, post, yv.data());
    yv.commit();
    return Status::ok();
  }

  // im2col + the reference GEMM (float64 accumulation in reference mode; double tensors).
  template <class C>
  void run_reference(ThreadPool& pool, const nn::ConvPlan& plan, const C* x, const C* weights, const C* bias,
                     C* out) const {
    const kernels::GemmFn<C> gemm = gemm_.get<C>();
    const int64_t taps = plan.taps(), mg = plan.out_per_group(), positions = plan.window.out_size();
    nn::for_each_conv_tile<C>(pool, plan, x, C(0),
                              [&](int64_t n, int64_t g, int64_t m0, int64_t rows, int64_t p0, int64_t cols,
                                  const C* col, int64_t ldb) {
      const int64_t oc = g * mg + m0;
      kernels::GemmProblem<C> p;
      p.m = rows;
      p.n = cols;
      p.k = taps;
      p.a = weights + oc * taps;
      p.a_row_stride = taps;
      p.b = col;
      p.ldb = ldb;
      p.c = out + (n * plan.out_channels + oc) * positions + p0;
      p.ldc = positions;
      if (bias) {
        for (int64_t r = 0; r < rows; ++r) std::fill(p.c + r * positions, p.c + r * positions + cols, bias[oc + r]);
        p.beta = 1;
      }
      gemm(p);
    });
  }

  // float32 on the tile kernels: weights as A panels (packed at creation when constant),
  // the taps of each group of output positions written by im2col straight into a B panel.
  Status run_tiles(ThreadPool& pool, const nn::ConvPlan& plan, const float* x, const ChannelMap& map,
                   const float* packed,
                   const float* weights, const float* bias, const float* residual,
                   const std::optional<ir::FusedClamp>& clamp, float* out, const ChannelProgram& post) const {
    const int64_t taps = plan.taps(), mg = plan.out_per_group(), positions = plan.window.out_size();
    const int64_t in_size = plan.window.in_size(), cin = plan.in_per_group();
    const kernels::ImageWindow win = plan.window.image();
    const bool pointwise = plan.is_pointwise();
    const int nr = tile_.nr;
    if (packed && nn::conv_rows_applies(plan, tile_))
      return nn::run_conv_rows(pool, tile_, plan, x, packed, bias, residual, clamp, post, out);
    if (packed && nn::conv_grid_applies(plan, tile_))
      return nn::run_conv_grid(pool, tile_, plan, x, packed, bias, residual, clamp, post, out);
    // Each image's weights times its factors (once when the images share them), where they are
    // the smaller operand by far (see nn::scale_weight_panels); the input is then read as it is.
    const int64_t panel_floats = kernels::panel_count(mg, tile_.mr) * tile_.mr * taps;
    const int64_t scaled_images = map.image_stride ? plan.batch : 1;
    float* scaled_weights = nullptr;
    if (map.applies() && !map.normalizes() && packed && scale_weights_ && 2 * mg <= positions) {
      scaled_weights = nn::thread_scratch<ScaledWeights>(scaled_images * panel_floats);
      if (!scaled_weights)
        return out_of_memory("no memory for " + std::to_string(scaled_images * panel_floats * 4) +
                             " bytes of scaled weights");
      for (int64_t n = 0; n < scaled_images; ++n)
        nn::scale_weight_panels(packed, kernels::panel_count(mg, tile_.mr), taps, tile_.mr,
                                map.rows.factor + n * map.image_stride, scaled_weights + n * panel_floats);
    }
    return nn::run_f32_gemms(pool, tile_, plan.batch * plan.group, [&](int64_t i) {
      const int64_t n = i / plan.group, g = i % plan.group;
      const float* image = x + (n * plan.in_channels + g * cin) * in_size;
      nn::F32Product p;
      p.m = mg;
      p.n = positions;
      p.k = taps;
      if (scaled_weights) {
        p.a.packed = scaled_weights + (map.image_stride ? n : 0) * panel_floats;
      } else if (packed) {
        p.a.packed = packed + g * panel_floats;
      } else {
        p.a.data = weights + g * mg * taps;
        p.a.outer_stride = taps;
        p.a.k_stride = 1;
      }
      if (map.applies() && !scaled_weights) {
        const ChannelMap image_map = map.of_image(n);
        p.b.fill = [=, map_panel = map_panel_](int64_t first, int64_t panels, float* out) {
          nn::pack_mapped_panels(map_panel, image, image_map, taps, positions, first, panels, nr, out);
        };
      } else if (pointwise) {
        p.b.data = image;
        p.b.outer_stride = 1;
        p.b.k_stride = in_size;
      } else {
        p.b.fill = [&, image](int64_t first, int64_t panels, float* out) {
          const int64_t cols = std::min<int64_t>(panels * nr, positions - first);
          if (win.rank == 2) return kernels::f32_im2col_panels_2d(win, image, cin, first, cols, panels, nr, out);
          for (int64_t q = 0; q < panels; ++q) {
            float* panel = out + q * taps * nr;
            const int64_t valid = std::clamp<int64_t>(cols - q * nr, 0, nr);
            kernels::im2col(win, image, cin, first + q * nr, valid, 0.0f, panel, nr);
            if (valid < nr)
              for (int64_t r = 0; r < taps; ++r) std::fill(panel + r * nr + valid, panel + (r + 1) * nr, 0.0f);
          }
        };
      }
      p.c = out + (n * plan.out_channels + g * mg) * positions;
      p.ldc = positions;
      p.epilogue = nn::conv_epilogue(plan, n, g, bias, residual, clamp);
      if (post.active())
        p.after_rows = [&post, g, mg, out = p.c, ldc = p.ldc](int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
          post.apply_rows(out + row0 * ldc + col0, ldc, rows, cols, g * mg + row0);
        };
      return p;
    });
  }

  // One input channel per group (depthwise): a direct plane kernel, no im2col copy, the
  // fused clamp applied as each output vector is stored. Planes go to the kernel a few at a
  // time (it sets up the padding once per call) and the folded group runs on them while
  // they are in cache.
  void run_depthwise(ThreadPool& pool, const nn::ConvPlan& plan, const float* x, const float* weights, const float* bias,
                     const std::optional<ir::FusedClamp>& clamp, float* out, const ChannelProgram& post) const {
    const kernels::ImageWindow w = plan.window.image();
    const int64_t mg = plan.out_per_group(), taps = plan.taps();
    const int64_t in_size = plan.window.in_size(), out_size = plan.window.out_size();
    // Planes per kernel call: whole blocks of kF32DwConvBlock where the kernels can take
    // channels a block at a time (MobileNetV2's 14 x 14 layers took 20 planes per call, 4 of
    // them one by one), else input and output of a batch within about 32 KiB; one plane when
    // several output channels read the same input plane (channel multiplier > 1). The
    // threads take whole batches.
    int64_t batch = 1;
    if (mg == 1 && mode_ != Mode::kReference) {
      const int64_t plane_floats = std::max<int64_t>(1, in_size + out_size);
      batch = std::max<int64_t>(1, 8192 / plane_floats);
      if (kernels::kF32DwConvBlock * plane_floats <= kernels::kF32DwConvBlockFloats)
        batch = std::max(batch, kernels::kF32DwConvBlock);
      if (batch >= kernels::kF32DwConvBlock) batch -= batch % kernels::kF32DwConvBlock;
    }
    const int64_t total = plan.batch * plan.out_channels;
    pool.parallel_for((total + batch - 1) / batch, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t t = b0 * batch, end = std::min(total, b1 * batch); t < end;) {
        const int64_t n = t / plan.out_channels, oc = t % plan.out_channels;
        const int64_t count = std::min({batch, end - t, plan.out_channels - oc});
        float* y = out + t * out_size;
        const float* image = x + (n * plan.in_channels + oc / mg) * in_size;
        if (mode_ == Mode::kReference) {
          kernels::f32_dwconv2d_f64acc_ref(w, image, weights + oc * taps, bias ? bias[oc] : 0.0f, y);
          if (clamp) nn::clamp_values(*clamp, y, out_size);
        } else {
          kernels::F32DwConvPlanes planes;
          planes.in = image;
          planes.weights = weights + oc * taps;
          planes.bias = bias ? bias + oc : nullptr;
          planes.out = y;
          planes.count = count;
          nn::set_epilogue_clamp(planes, clamp);
          depthwise_(w, planes);
        }
        // The planes of one call as one run where the group allows (EfficientNet's SiLU
        // after 1152 depthwise 7 x 7 planes: per-plane calls were most of the node).
        if (post.active()) post.apply_rows(y, out_size, count, out_size, oc);
        t += count;
      }
    });
  }

  // The folded elementwise group over a finished output, plane by plane.
  static void apply_per_plane(ThreadPool& pool, const nn::ConvPlan& plan, const ChannelProgram& post, float* out) {
    const int64_t out_size = plan.window.out_size();
    const int64_t channels = plan.out_channels;
    pool.parallel_for(plan.batch * channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end;) {  // one image's planes at a time, as one run where the group allows
        const int64_t count = std::min(end, (t / channels + 1) * channels) - t;
        post.apply_rows(out + t * out_size, out_size, count, out_size, t % channels);
        t += count;
      }
    });
  }

  nn::WindowAttrs attrs_;
  int64_t group_;
  Mode mode_;
  bool residual_;                        // input 3 is a fused Add's other operand
  std::optional<ir::FusedClamp> clamp_;  // a Relu/Clip fused into this node
  std::optional<ElementwiseProgram> program_;  // an elementwise group folded into this node
  size_t program_first_;                       // its extra operands are inputs from here on
  std::optional<size_t> scale_input_;  // ChannelScaledConv: the input its X is multiplied by
  bool scale_weights_;  // and it may apply the factors to the weights (nn::scale_weight_panels)
  std::optional<NormalizedInput> normalized_;  // NormalizedConv: the normalization of X
  kernels::F32StepFn step_;  // the normalization where the tiles cannot apply it
  kernels::F32MapPanelFn map_panel_;  // what maps X as the tiles pack it (nn::pack_mapped_panels)
  nn::GemmKernels gemm_;
  const kernels::F32GemmKernel& tile_;
  kernels::F32DwConvFn depthwise_;
  const kernels::WinogradTransforms& winograd_transforms_;
  nn::WidenedConstant weights_;
  nn::PackedF32 packed_;  // constant weights as A panels, one block per group
  nn::WinogradWeights winograd_;  // their Winograd transforms (default mode, 3x3)
};

// What a fused node does to X before the Conv, with its own inputs after the Conv's.
enum class FusedInput {
  kNone,
  kChannelScale,  // ChannelScaledConv: X's factor (passes/fuse_channel_scale.cc)
  kNormalize,     // NormalizedConv: scale, B, mean and var (passes/fuse_normalized_input.cc)
};

// The constant statistics of a NormalizedConv (its last four inputs, from `first`), its
// epsilon and its clamp, as the BatchNormalization kernel would use them.
Result<NormalizedInput> normalized_input(const KernelInit& init, size_t first) {
  std::array<const Tensor*, 4> stats{};
  for (size_t k = 0; k < 4; ++k) {
    stats[k] = first + k < init.constant_inputs.size() ? init.constant_inputs[first + k] : nullptr;
    if (!stats[k]) return init.error("NormalizedConv needs constant statistics (input " + std::to_string(first + k) + ")");
  }
  ASSIGN_OR_RETURN(nn::BatchNormStatistics values, nn::read_batch_norm_statistics(stats, stats[0]->numel()));
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-5f));
  const auto read_bound = [&](const char* name, std::optional<float>& bound) -> Status {
    if (!init.node.attr(name)) return Status::ok();
    ASSIGN_OR_RETURN(bound, init.attr_float(name, 0.0f));
    return Status::ok();
  };
  ir::FusedClamp clamp;
  TRY(read_bound("input_min", clamp.min));
  TRY(read_bound("input_max", clamp.max));
  nn::BatchNormShape shape;
  if (clamp.min || clamp.max) shape.clamp = clamp;
  return NormalizedInput{nn::BatchNormAffine(values, epsilon), shape};
}

Result<std::unique_ptr<OpKernel>> create_conv_kernel(const KernelInit& init, FusedInput fused) {
  const bool residual = init.node.fused_residual;
  const bool folded = !init.node.elementwise_steps.empty();
  const bool channel_scaled = fused == FusedInput::kChannelScale;
  const size_t extra = channel_scaled ? 1 : fused == FusedInput::kNormalize ? 4 : 0;
  if (channel_scaled && (init.num_inputs() < 4 || !init.has_input(init.num_inputs() - 1)))
    return init.error("ChannelScaledConv takes X, W, B (or \"\"), the fused Add's operand if any, and X's factor, got " +
                      std::to_string(init.num_inputs()) + " inputs");
  if (fused == FusedInput::kNormalize && init.num_inputs() < 7)
    return init.error("NormalizedConv takes X, W, B (or \"\"), the fused Add's operand if any, and the "
                      "normalization's scale, B, mean and var, got " + std::to_string(init.num_inputs()) + " inputs");
  const size_t inputs = init.num_inputs() - extra;  // the fused node's own inputs are not the Conv's
  const size_t own_inputs = folded ? init.node.elementwise_first_input : inputs;
  if (inputs < 2 || own_inputs > (residual ? 4u : 3u) || own_inputs > inputs || !init.has_input(0) ||
      !init.has_input(1) || (residual && !init.has_input(3)))
    return init.error("Conv takes X, W and optional B, got " + std::to_string(inputs) + " inputs");
  if (residual && folded) return init.error("cannot fold an elementwise group into a Conv with a fused Add");
  std::optional<ElementwiseProgram> program;
  if (folded) {
    auto parsed = ElementwiseProgram::parse(init.node.elementwise_steps, 1 + inputs - own_inputs, init.mode,
                                              init.isa);
    if (!parsed.is_ok()) return init.error(parsed.status().message());
    program = std::move(*parsed);
  }
  std::optional<NormalizedInput> normalized;
  if (fused == FusedInput::kNormalize) {
    ASSIGN_OR_RETURN(normalized, normalized_input(init, inputs));
  }
  ASSIGN_OR_RETURN(nn::WindowAttrs attrs, nn::parse_window_attrs(init, false));
  ASSIGN_OR_RETURN(int64_t group, init.attr_int("group", 1));
  if (group < 1) return init.error("group must be >= 1, got " + std::to_string(group));
  const Tensor* w = init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr;
  ASSIGN_OR_RETURN(nn::WidenedConstant weights, nn::WidenedConstant::make(w));
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  // Winograd weights replace the direct ones: with stride and dilation 1 every run takes
  // that path (unless a feed replaces W, which then runs from its own bytes).
  ASSIGN_OR_RETURN(nn::WinogradWeights winograd, nn::pack_winograd_weights(w, attrs, group, init, tile));
  nn::PackedF32 packed;
  if (w && !winograd.u.panels.defined() && init.mode != Mode::kReference && w->rank() >= 3 && w->dim(0) % group == 0 && w->dim(0) > 0 &&
      !(w->rank() == 4 && w->dim(1) == 1)) {  // depthwise runs its own kernel
    const int64_t mg = w->dim(0) / group, taps = w->numel() / w->dim(0);
    ASSIGN_OR_RETURN(packed, nn::pack_f32_constant(*w, weights, group, mg, taps, taps, 1, tile.mr));
  }
  return make_kernel<ConvKernel>(std::move(attrs), group, init.mode, init.isa, std::move(weights), tile, std::move(packed),
                                 std::move(winograd), residual, init.node.fused_clamp, std::move(program), own_inputs,
                                 channel_scaled ? std::optional(inputs) : std::nullopt,
                                 channel_scaled && init.mode == Mode::kDefault && init.value_changing_kernels,
                                 std::move(normalized));
}

Result<std::unique_ptr<OpKernel>> create_conv(const KernelInit& init) { return create_conv_kernel(init, FusedInput::kNone); }
Result<std::unique_ptr<OpKernel>> create_channel_scaled_conv(const KernelInit& init) {
  return create_conv_kernel(init, FusedInput::kChannelScale);
}
Result<std::unique_ptr<OpKernel>> create_normalized_conv(const KernelInit& init) {
  return create_conv_kernel(init, FusedInput::kNormalize);
}

}  // namespace

TWINRT_REGISTER_OP("Conv", 1, create_conv);
TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "ChannelScaledConv", 1, INT64_MAX, "ref", 0, create_channel_scaled_conv);
TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "NormalizedConv", 1, INT64_MAX, "ref", 0, create_normalized_conv);

}  // namespace twinrt
