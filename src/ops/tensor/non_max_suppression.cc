// NonMaxSuppression: per batch and class, greedily keeps the highest-scoring boxes
// (ties: lower box index first) whose IoU with every box kept before is at most
// iou_threshold, up to max_output_boxes_per_class. Boxes scoring at or below
// score_threshold (when given) are never candidates. Output rows are
// [batch, class, box] in batch, class, selection order.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

struct Box {
  float x_min, y_min, x_max, y_max;
};

Box read_box(const float* p, bool center_point) {
  if (center_point) {  // [x_center, y_center, width, height]
    const float hw = p[2] / 2, hh = p[3] / 2;
    return {p[0] - hw, p[1] - hh, p[0] + hw, p[1] + hh};
  }
  // [y1, x1, y2, x2] with the corners in either order
  return {std::min(p[1], p[3]), std::min(p[0], p[2]), std::max(p[1], p[3]), std::max(p[0], p[2])};
}

bool overlaps_more_than(const Box& a, const Box& b, float threshold) {
  const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
  const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
  if (ix_max <= ix_min || iy_max <= iy_min) return false;
  const float intersection = (ix_max - ix_min) * (iy_max - iy_min);
  const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const float area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  if (area_a <= 0 || area_b <= 0) return false;
  const float union_area = area_a + area_b - intersection;
  if (union_area <= 0) return false;
  return intersection / union_area > threshold;
}

class NonMaxSuppressionKernel final : public OpKernel {
 public:
  explicit NonMaxSuppressionKernel(bool center_point) : center_point_(center_point) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, DataType::kInt64, ir::Shape{ir::Dim{}, ir::Dim::of(3)});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* boxes, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* scores, ctx.tensor_input(1));
    if (boxes->dtype() != DataType::kFloat || scores->dtype() != DataType::kFloat)
      return invalid_argument("NonMaxSuppression boxes and scores must be float32");
    if (boxes->rank() != 3 || boxes->dim(2) != 4 || scores->rank() != 3 || scores->dim(0) != boxes->dim(0) ||
        scores->dim(2) != boxes->dim(1))
      return invalid_argument(
          "NonMaxSuppression expects boxes [batch, boxes, 4] and scores [batch, classes, boxes], got " +
                              shape_to_string(boxes->shape()) + " and " + shape_to_string(scores->shape()));
    int64_t max_per_class = 0;
    float iou_threshold = 0;
    std::optional<float> score_threshold;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(max_per_class, tensor_ops::read_int_scalar(ctx.input(2), "max_output_boxes_per_class"));
    }
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(iou_threshold, float_scalar(ctx.input(3), "iou_threshold"));
      if (iou_threshold < 0 || iou_threshold > 1)
        return invalid_argument("iou_threshold must be in [0, 1], got " + std::to_string(iou_threshold));
    }
    if (ctx.has_input(4)) {
      ASSIGN_OR_RETURN(score_threshold, float_scalar(ctx.input(4), "score_threshold"));
    }
    const int64_t batches = boxes->dim(0), count = boxes->dim(1), classes = scores->dim(1);
    std::vector<int64_t> rows;  // flattened [batch, class, box] triples
    std::vector<int64_t> order(static_cast<size_t>(count));
    std::vector<Box> kept;
    for (int64_t b = 0; b < batches && max_per_class > 0; ++b) {
      const float* box_data = boxes->data<float>() + b * count * 4;
      for (int64_t c = 0; c < classes; ++c) {
        const float* s = scores->data<float>() + (b * classes + c) * count;
        order.clear();
        for (int64_t i = 0; i < count; ++i)
          if (!score_threshold || s[i] > *score_threshold) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return s[x] > s[y]; });
        kept.clear();
        for (int64_t i : order) {
          if (static_cast<int64_t>(kept.size()) >= max_per_class) break;
          const Box box = read_box(box_data + i * 4, center_point_);
          const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](const Box& k) {
            return overlaps_more_than(k, box, iou_threshold);
          });
          if (suppressed) continue;
          kept.push_back(box);
          rows.insert(rows.end(), {b, c, i});
        }
      }
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kInt64, {static_cast<int64_t>(rows.size() / 3), 3}));
    std::copy(rows.begin(), rows.end(), y->data<int64_t>());
    return Status::ok();
  }

 private:
  static Result<float> float_scalar(const Tensor& t, const char* what) {
    if (t.dtype() != DataType::kFloat || t.numel() != 1)
      return invalid_argument(std::string(what) + " must be one float32 value, got " + dtype_name(t.dtype()) +
                              shape_to_string(t.shape()));
    return *t.data<float>();
  }
  bool center_point_;
};

Result<std::unique_ptr<OpKernel>> create_non_max_suppression(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("NonMaxSuppression takes boxes, scores (and optional limits) and one output");
  ASSIGN_OR_RETURN(int64_t center, init.attr_int("center_point_box", 0));
  if (center != 0 && center != 1) return init.error("center_point_box must be 0 or 1");
  return make_kernel<NonMaxSuppressionKernel>(center == 1);
}

}  // namespace

TWINRT_REGISTER_OP("NonMaxSuppression", 10, create_non_max_suppression);

}  // namespace twinrt
