// RoiAlign: for each region of interest, an output_height x output_width grid of bins;
// each bin averages (or takes the max of) bilinear samples on a regular sub-grid.
// Sampling follows ONNX Runtime's formulation, including its clamping at the borders.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/nn/compute_type.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

struct RoiAlignAttrs {
  bool max_mode = false;
  int64_t out_h = 1, out_w = 1, sampling_ratio = 0;
  float spatial_scale = 1.0f;
  bool half_pixel = true;  // coordinate_transformation_mode (opset 16); opset 10 behaves as output_half_pixel
};

// The four neighbours and weights of one bilinear sample (weights 0 outside the image).
struct Sample {
  int64_t i[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

Sample bilinear_sample(double y, double x, int64_t height, int64_t width) {
  Sample s;
  if (!(y >= -1.0 && y <= static_cast<double>(height) && x >= -1.0 && x <= static_cast<double>(width))) return s;  // NaN too
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= height - 1) {
    y0 = y1 = height - 1;
    y = static_cast<double>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= width - 1) {
    x0 = x1 = width - 1;
    x = static_cast<double>(x0);
  } else {
    x1 = x0 + 1;
  }
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0), hy = 1 - ly, hx = 1 - lx;
  s.i[0] = y0 * width + x0;
  s.i[1] = y0 * width + x1;
  s.i[2] = y1 * width + x0;
  s.i[3] = y1 * width + x1;
  s.w[0] = hy * hx;
  s.w[1] = hy * lx;
  s.w[2] = ly * hx;
  s.w[3] = ly * lx;
  return s;
}

class RoiAlignKernel final : public OpKernel {
 public:
  RoiAlignKernel(RoiAlignAttrs attrs, Mode mode) : attrs_(attrs), mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    const ir::Shape* rois = ctx.shape(1);
    if (x && rois && x->size() == 4 && rois->size() == 2)
      ctx.set_output(0, ctx.dtype(0), ir::Shape{(*rois)[0], (*x)[1], ir::Dim::of(attrs_.out_h), ir::Dim::of(attrs_.out_w)});
    else
      ctx.set_output(0, ctx.dtype(0));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* rois_t, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* idx_t, ctx.tensor_input(2));
    if (x->rank() != 4) return invalid_argument("RoiAlign needs X [N, C, H, W], got " + shape_to_string(x->shape()));
    if (rois_t->rank() != 2 || rois_t->dim(1) != 4)
      return invalid_argument("RoiAlign rois must have shape [num_rois, 4], got " + shape_to_string(rois_t->shape()));
    const int64_t num_rois = rois_t->dim(0);
    if (idx_t->dtype() != DataType::kInt64 || idx_t->rank() != 1 || idx_t->dim(0) != num_rois)
      return invalid_argument("RoiAlign batch_indices must be int64 [" + std::to_string(num_rois) + "], got " +
                              dtype_name(idx_t->dtype()) + shape_to_string(idx_t->shape()));
    ASSIGN_OR_RETURN(std::vector<double> rois, nn::read_doubles(*rois_t, "rois"));
    TRY(check_sampling_budget(rois, x->dim(2), x->dim(3)));
    const int64_t* batch_idx = idx_t->data<int64_t>();
    for (int64_t r = 0; r < num_rois; ++r)
      if (batch_idx[r] < 0 || batch_idx[r] >= x->dim(0))
        return invalid_argument("RoiAlign batch index " + std::to_string(batch_idx[r]) + " of roi " + std::to_string(r) +
                                " is outside the batch of " + std::to_string(x->dim(0)));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), {num_rois, x->dim(1), attrs_.out_h, attrs_.out_w}));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) pool_rois<double>(ctx.pool(), xv.data(), yv.data(), *x, rois, batch_idx, num_rois);
      else pool_rois<nn::compute_t<T>>(ctx.pool(), xv.data(), yv.data(), *x, rois, batch_idx, num_rois);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class Acc, class C>
  void pool_rois(ThreadPool& pool, const C* x, C* y, const Tensor& xt, const std::vector<double>& rois,
                 const int64_t* batch_idx, int64_t num_rois) const {
    const int64_t channels = xt.dim(1), height = xt.dim(2), width = xt.dim(3);
    const int64_t bins = attrs_.out_h * attrs_.out_w;
    pool.parallel_for(num_rois, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const std::vector<std::vector<Sample>> samples = roi_samples(&rois[static_cast<size_t>(r * 4)], height, width);
        const C* image = x + batch_idx[r] * channels * height * width;
        for (int64_t c = 0; c < channels; ++c) {
          const C* plane = image + c * height * width;
          C* out = y + (r * channels + c) * bins;
          for (int64_t b = 0; b < bins; ++b) {
            const auto& bin = samples[static_cast<size_t>(b)];
            Acc acc = attrs_.max_mode ? std::numeric_limits<Acc>::lowest() : Acc(0);
            for (const Sample& s : bin) {
              if (attrs_.max_mode) {
                for (int k = 0; k < 4; ++k) acc = std::max(acc, static_cast<Acc>(s.w[k]) * static_cast<Acc>(plane[s.i[k]]));
              } else {
                acc += static_cast<Acc>(s.w[0]) * static_cast<Acc>(plane[s.i[0]]) + static_cast<Acc>(s.w[1]) * static_cast<Acc>(plane[s.i[1]]) +
                       static_cast<Acc>(s.w[2]) * static_cast<Acc>(plane[s.i[2]]) + static_cast<Acc>(s.w[3]) * static_cast<Acc>(plane[s.i[3]]);
              }
            }
            if (!attrs_.max_mode) acc /= static_cast<Acc>(std::max<size_t>(bin.size(), 1));
            out[b] = static_cast<C>(bin.empty() ? Acc(0) : acc);
          }
        }
      }
    });
  }

  // Rejects rois that are not finite or whose adaptive sampling grid (ceil(bin size)
  // samples per axis) would be absurdly large: they would only exhaust memory.
  Status check_sampling_budget(const std::vector<double>& rois, int64_t height, int64_t width) const {
    constexpr double kMaxSamplesPerRoi = 1 << 24;
    for (size_t r = 0; r + 3 < rois.size(); r += 4) {
      for (size_t k = 0; k < 4; ++k)
        if (!std::isfinite(rois[r + k]))
          return invalid_argument("RoiAlign roi " + std::to_string(r / 4) + " has a non-finite coordinate");
      if (attrs_.sampling_ratio > 0) continue;
      const double span_w = std::fabs(rois[r + 2] - rois[r]) * attrs_.spatial_scale + 1;
      const double span_h = std::fabs(rois[r + 3] - rois[r + 1]) * attrs_.spatial_scale + 1;
      const double samples = (span_w + static_cast<double>(attrs_.out_w)) * (span_h + static_cast<double>(attrs_.out_h));
      if (!(samples <= kMaxSamplesPerRoi))
        return invalid_argument("RoiAlign roi " + std::to_string(r / 4) + " is too large to sample (image " +
                                std::to_string(height) + "x" + std::to_string(width) + ")");
    }
    return Status::ok();
  }

  // Bilinear samples of every bin of one roi (x1, y1, x2, y2).
  std::vector<std::vector<Sample>> roi_samples(const double* roi, int64_t height, int64_t width) const {
    const double offset = attrs_.half_pixel ? 0.5 : 0.0, scale = attrs_.spatial_scale;
    const double x0 = roi[0] * scale - offset, y0 = roi[1] * scale - offset;
    double roi_w = roi[2] * scale - offset - x0, roi_h = roi[3] * scale - offset - y0;
    if (!attrs_.half_pixel) {
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    const double bin_h = roi_h / static_cast<double>(attrs_.out_h), bin_w = roi_w / static_cast<double>(attrs_.out_w);
    const int64_t grid_h = attrs_.sampling_ratio > 0 ? attrs_.sampling_ratio : static_cast<int64_t>(std::ceil(bin_h));
    const int64_t grid_w = attrs_.sampling_ratio > 0 ? attrs_.sampling_ratio : static_cast<int64_t>(std::ceil(bin_w));
    std::vector<std::vector<Sample>> out(static_cast<size_t>(attrs_.out_h * attrs_.out_w));
    for (int64_t ph = 0; ph < attrs_.out_h; ++ph)
      for (int64_t pw = 0; pw < attrs_.out_w; ++pw) {
        auto& bin = out[static_cast<size_t>(ph * attrs_.out_w + pw)];
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const double yy = y0 + static_cast<double>(ph) * bin_h + (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const double xx = x0 + static_cast<double>(pw) * bin_w + (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
            bin.push_back(bilinear_sample(yy, xx, height, width));
          }
        }
      }
    return out;
  }

  RoiAlignAttrs attrs_;
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_roi_align(const KernelInit& init) {
  if (init.num_inputs() != 3 || !init.has_input(0) || !init.has_input(1) || !init.has_input(2))
    return init.error("RoiAlign takes X, rois and batch_indices; got " + std::to_string(init.num_inputs()) + " inputs");
  RoiAlignAttrs a;
  ASSIGN_OR_RETURN(std::string mode, init.attr_string("mode", "avg"));
  if (mode != "avg" && mode != "max") return init.error("mode must be 'avg' or 'max', got '" + mode + "'");
  a.max_mode = mode == "max";
  ASSIGN_OR_RETURN(a.out_h, init.attr_int("output_height", 1));
  ASSIGN_OR_RETURN(a.out_w, init.attr_int("output_width", 1));
  ASSIGN_OR_RETURN(a.sampling_ratio, init.attr_int("sampling_ratio", 0));
  ASSIGN_OR_RETURN(a.spatial_scale, init.attr_float("spatial_scale", 1.0f));
  if (a.out_h < 1 || a.out_w < 1 || a.sampling_ratio < 0)
    return init.error("output_height/output_width must be >= 1 and sampling_ratio >= 0");
  if (init.opset >= 16) {
    ASSIGN_OR_RETURN(std::string ctm, init.attr_string("coordinate_transformation_mode", "half_pixel"));
    if (ctm != "half_pixel" && ctm != "output_half_pixel")
      return init.error("coordinate_transformation_mode must be half_pixel or output_half_pixel, got '" + ctm + "'");
    a.half_pixel = ctm == "half_pixel";
  } else {
    a.half_pixel = false;
  }
  return make_kernel<RoiAlignKernel>(a, init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("RoiAlign", 10, create_roi_align);

}  // namespace twinrt
