// GridSample (opset 16): samples X [N, C, H, W] at the normalized (x, y) positions of
// grid [N, Ho, Wo, 2] with nearest, bilinear or bicubic interpolation and zeros, border
// or reflection padding. Follows ONNX Runtime's formulation (PyTorch's grid_sample).
#include <algorithm>
#include <cmath>

#include "kernels/math/math.h"
#include "ops/nn/compute_type.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

enum class Interp { kNearest, kBilinear, kBicubic };
enum class Padding { kZeros, kBorder, kReflection };

struct GridSampleAttrs {
  Interp interp = Interp::kBilinear;
  Padding padding = Padding::kZeros;
  bool align_corners = false;
};

// Reflects v into [lo, hi] (mirror at both ends, repeatedly).
template <class A>
A reflect(A v, A lo, A hi) {
  const A range = hi - lo;
  if (range <= A(0)) return lo;
  if (v < lo) {
    const A d = lo - v;
    const A n = std::floor(d / range);
    const A r = d - n * range;
    return std::fmod(n, A(2)) == A(0) ? lo + r : hi - r;
  }
  if (v > hi) {
    const A d = v - hi;
    const A n = std::floor(d / range);
    const A r = d - n * range;
    return std::fmod(n, A(2)) == A(0) ? hi - r : lo + r;
  }
  return v;
}

// Cubic convolution weights (A = -0.75) for a fractional offset t in [0, 1).
template <class A>
void cubic_weights(A t, A w[4]) {
  const A a = A(-0.75);
  const A t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  w[0] = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  w[2] = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  w[3] = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
}

template <class A, class C>
class Sampler {
 public:
  Sampler(const GridSampleAttrs& attrs, const C* plane, int64_t h, int64_t w)
      : a_(attrs), plane_(plane), h_(h), w_(w) {
    // The coordinate range the padding modes clamp or reflect into.
    lo_x_ = attrs.align_corners ? A(0) : A(-0.5);
    lo_y_ = lo_x_;
    hi_x_ = attrs.align_corners ? A(w - 1) : A(w) - A(0.5);
    hi_y_ = attrs.align_corners ? A(h - 1) : A(h) - A(0.5);
  }

  A sample(A nx, A ny) const {
    A x = denormalize(nx, w_), y = denormalize(ny, h_);
    if (a_.interp == Interp::kNearest) {
      x = static_cast<A>(math::round_half_even(static_cast<double>(x)));
      y = static_cast<A>(math::round_half_even(static_cast<double>(y)));
    }
    if (x < lo_x_ || x > hi_x_ || y < lo_y_ || y > hi_y_) {
      if (a_.padding == Padding::kBorder) {
        x = std::clamp(x, A(0), A(w_ - 1));
        y = std::clamp(y, A(0), A(h_ - 1));
      } else if (a_.padding == Padding::kReflection) {
        x = reflect(x, lo_x_, hi_x_);
        y = reflect(y, lo_y_, hi_y_);
      }
    }
    // Beyond a few pixels outside the image every tap reads padding; limiting the
    // coordinates there keeps the integer conversions defined (NaN included).
    x = keep_near(x, w_);
    y = keep_near(y, h_);
    if (a_.interp == Interp::kNearest) return pixel(static_cast<int64_t>(y), static_cast<int64_t>(x));
    const A fx = std::floor(x), fy = std::floor(y);
    const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
    if (a_.interp == Interp::kBilinear) {
      const A dx = x - fx, dy = y - fy;
      const A top = (1 - dx) * pixel(y0, x0) + dx * pixel(y0, x0 + 1);
      const A bottom = (1 - dx) * pixel(y0 + 1, x0) + dx * pixel(y0 + 1, x0 + 1);
      return (1 - dy) * top + dy * bottom;
    }
    A wx[4], wy[4];
    cubic_weights(x - fx, wx);
    cubic_weights(y - fy, wy);
    A result = 0;
    for (int i = 0; i < 4; ++i) {
      A row = 0;
      for (int j = 0; j < 4; ++j) row += wx[j] * pixel(y0 - 1 + i, x0 - 1 + j);
      result += wy[i] * row;
    }
    return result;
  }

 private:
  A denormalize(A n, int64_t size) const {
    return a_.align_corners ? (n + 1) / 2 * A(size - 1) : ((n + 1) * A(size) - 1) / 2;
  }

  static A keep_near(A v, int64_t size) {
    if (!(v >= A(-8))) return A(-8);
    return std::min(v, A(size + 8));
  }

  // The pixel at integer (r, c) under the padding mode.
  A pixel(int64_t r, int64_t c) const {
    if (a_.padding == Padding::kZeros) {
      if (r < 0 || r >= h_ || c < 0 || c >= w_) return A(0);
    } else if (a_.padding == Padding::kBorder) {
      r = std::clamp<int64_t>(r, 0, h_ - 1);
      c = std::clamp<int64_t>(c, 0, w_ - 1);
    } else {
      r = std::clamp<int64_t>(static_cast<int64_t>(reflect(A(r), lo_y_, hi_y_)), 0, h_ - 1);
      c = std::clamp<int64_t>(static_cast<int64_t>(reflect(A(c), lo_x_, hi_x_)), 0, w_ - 1);
    }
    return static_cast<A>(plane_[r * w_ + c]);
  }

  const GridSampleAttrs& a_;
  const C* plane_;
  int64_t h_, w_;
  A lo_x_, lo_y_, hi_x_, hi_y_;
};

class GridSampleKernel final : public OpKernel {
 public:
  GridSampleKernel(GridSampleAttrs attrs, Mode mode) : attrs_(attrs), mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    const ir::Shape* g = ctx.shape(1);
    if (x && g && x->size() == 4 && g->size() == 4)
      ctx.set_output(0, ctx.dtype(0), ir::Shape{(*x)[0], (*x)[1], (*g)[1], (*g)[2]});
    else
      ctx.set_output(0, ctx.dtype(0));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* grid, ctx.tensor_input(1));
    if (x->rank() != 4 || grid->rank() != 4 || grid->dim(0) != x->dim(0) || grid->dim(3) != 2)
      return invalid_argument("GridSample needs X [N, C, H, W] and grid [N, Ho, Wo, 2], got " +
                              shape_to_string(x->shape()) + " and " + shape_to_string(grid->shape()));
    if (x->dim(2) == 0 || x->dim(3) == 0) return invalid_argument("GridSample input has an empty spatial axis");
    ASSIGN_OR_RETURN(std::vector<double> g, nn::read_doubles(*grid, "grid"));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), {x->dim(0), x->dim(1), grid->dim(1), grid->dim(2)}));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) sample_all<double>(ctx.pool(), xv.data(), yv.data(), *x, *grid, g);
      else sample_all<nn::compute_t<T>>(ctx.pool(), xv.data(), yv.data(), *x, *grid, g);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class A, class C>
  void sample_all(ThreadPool& pool, const C* x, C* y, const Tensor& xt, const Tensor& grid,
                  const std::vector<double>& g) const {
    const int64_t channels = xt.dim(1), h = xt.dim(2), w = xt.dim(3);
    const int64_t points = grid.dim(1) * grid.dim(2);
    pool.parallel_for(xt.dim(0) * channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; ++plane) {
        const int64_t n = plane / channels;
        const Sampler<A, C> sampler(attrs_, x + plane * h * w, h, w);
        const double* gp = g.data() + n * points * 2;
        for (int64_t p = 0; p < points; ++p)
          y[plane * points + p] = static_cast<C>(sampler.sample(static_cast<A>(gp[2 * p]), static_cast<A>(gp[2 * p + 1])));
      }
    });
  }

  GridSampleAttrs attrs_;
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_grid_sample(const KernelInit& init) {
  if (init.num_inputs() != 2 || !init.has_input(0) || !init.has_input(1))
    return init.error("GridSample takes X and grid; got " + std::to_string(init.num_inputs()) + " inputs");
  GridSampleAttrs a;
  ASSIGN_OR_RETURN(int64_t align, init.attr_int("align_corners", 0));
  a.align_corners = align != 0;
  ASSIGN_OR_RETURN(std::string mode, init.attr_string("mode", "bilinear"));
  if (mode == "bilinear") a.interp = Interp::kBilinear;
  else if (mode == "nearest") a.interp = Interp::kNearest;
  else if (mode == "bicubic") a.interp = Interp::kBicubic;
  else return init.error("mode must be bilinear, nearest or bicubic, got '" + mode + "'");
  ASSIGN_OR_RETURN(std::string padding, init.attr_string("padding_mode", "zeros"));
  if (padding == "zeros") a.padding = Padding::kZeros;
  else if (padding == "border") a.padding = Padding::kBorder;
  else if (padding == "reflection") a.padding = Padding::kReflection;
  else return init.error("padding_mode must be zeros, border or reflection, got '" + padding + "'");
  return make_kernel<GridSampleKernel>(a, init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("GridSample", 16, create_grid_sample);

}  // namespace twinrt
