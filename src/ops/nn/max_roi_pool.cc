// MaxRoiPool (Fast R-CNN ROI pooling): each region of interest is cut into a
// pooled_shape grid of integer-aligned bins and each bin keeps its maximum.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/nn/compute_type.h"
#include "ops/op.h"

namespace twinrt {
namespace {

// Rounds half away from zero (C's round), from exact operations only.
double round_away(double v) { return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5); }

class MaxRoiPoolKernel final : public OpKernel {
 public:
  MaxRoiPoolKernel(int64_t ph, int64_t pw, float scale) : ph_(ph), pw_(pw), scale_(scale) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    const ir::Shape* rois = ctx.shape(1);
    if (x && rois && x->size() == 4 && rois->size() == 2)
      ctx.set_output(0, ctx.dtype(0), ir::Shape{(*rois)[0], (*x)[1], ir::Dim::of(ph_), ir::Dim::of(pw_)});
    else
      ctx.set_output(0, ctx.dtype(0));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* rois_t, ctx.tensor_input(1));
    if (x->rank() != 4) return invalid_argument("MaxRoiPool needs X [N, C, H, W], got " + shape_to_string(x->shape()));
    if (rois_t->rank() != 2 || rois_t->dim(1) != 5)
      return invalid_argument("MaxRoiPool rois must have shape [num_rois, 5], got " + shape_to_string(rois_t->shape()));
    ASSIGN_OR_RETURN(std::vector<double> rois, nn::read_doubles(*rois_t, "rois"));
    const int64_t num_rois = rois_t->dim(0), channels = x->dim(1), height = x->dim(2), width = x->dim(3);
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), {num_rois, channels, ph_, pw_}));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      for (int64_t r = 0; r < num_rois; ++r) {
        const double* roi = &rois[static_cast<size_t>(r * 5)];
        for (int k = 1; k < 5; ++k)
          if (!(std::fabs(roi[k] * scale_) < 1e15))  // keeps the integer conversions defined
            return invalid_argument("MaxRoiPool roi " + std::to_string(r) + " has an invalid coordinate " +
                                    std::to_string(roi[k]));
        if (!(roi[0] >= 0 && roi[0] < static_cast<double>(x->dim(0))) || std::floor(roi[0]) != roi[0])
          return invalid_argument("MaxRoiPool roi " + std::to_string(r) + " names batch " + std::to_string(roi[0]) +
                                  ", outside the batch of " + std::to_string(x->dim(0)));
        const int64_t n = static_cast<int64_t>(roi[0]);
        const int64_t x0 = static_cast<int64_t>(round_away(roi[1] * scale_)), y0 = static_cast<int64_t>(round_away(roi[2] * scale_));
        const int64_t x1 = static_cast<int64_t>(round_away(roi[3] * scale_)), y1 = static_cast<int64_t>(round_away(roi[4] * scale_));
        const double bin_h = static_cast<double>(std::max<int64_t>(y1 - y0 + 1, 1)) / static_cast<double>(ph_);
        const double bin_w = static_cast<double>(std::max<int64_t>(x1 - x0 + 1, 1)) / static_cast<double>(pw_);
        for (int64_t c = 0; c < channels; ++c) {
          const C* plane = xv.data() + (n * channels + c) * height * width;
          C* out = yv.data() + (r * channels + c) * ph_ * pw_;
          for (int64_t i = 0; i < ph_; ++i)
            for (int64_t j = 0; j < pw_; ++j) {
              const int64_t hs = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(i) * bin_h)) + y0, 0, height);
              const int64_t he = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(i + 1) * bin_h)) + y0, 0, height);
              const int64_t ws = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(j) * bin_w)) + x0, 0, width);
              const int64_t we = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(j + 1) * bin_w)) + x0, 0, width);
              C best = he <= hs || we <= ws ? C(0) : std::numeric_limits<C>::lowest();
              for (int64_t h = hs; h < he; ++h)
                for (int64_t w = ws; w < we; ++w) best = std::max(best, plane[h * width + w]);
              out[i * pw_ + j] = best;
            }
        }
      }
      yv.commit();
      return Status::ok();
    });
  }

 private:
  int64_t ph_, pw_;
  float scale_;
};

Result<std::unique_ptr<OpKernel>> create_max_roi_pool(const KernelInit& init) {
  if (init.num_inputs() != 2 || !init.has_input(0) || !init.has_input(1))
    return init.error("MaxRoiPool takes X and rois; got " + std::to_string(init.num_inputs()) + " inputs");
  ASSIGN_OR_RETURN(std::vector<int64_t> pooled, init.attr_ints("pooled_shape"));
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1)
    return init.error("pooled_shape must be two positive sizes, got " + shape_to_string(pooled));
  ASSIGN_OR_RETURN(float scale, init.attr_float("spatial_scale", 1.0f));
  return make_kernel<MaxRoiPoolKernel>(pooled[0], pooled[1], scale);
}

}  // namespace

TWINRT_REGISTER_OP("MaxRoiPool", 1, create_max_roi_pool);

}  // namespace twinrt
