// yolo_nms: a YOLO-style detection head -> the boxes left by non-maximum suppression.
//   predictions float32[1,N,5+C] ("yolov5": per candidate cx, cy, w, h, objectness, then C
//               class scores) or float32[1,4+C,N] ("yolov8": the same fields without the
//               objectness, one column per candidate)
//   -> boxes float32[K,4] (x1, y1, x2, y2 in the head's pixels), scores float32[K],
//      classes int64[K], best first.
// A candidate's score is its best class score (the first of equal ones), times the
// objectness for yolov5; those below score_threshold (and NaN) are dropped. Greedy NMS goes
// best first, ties by lower candidate index, and suppresses a box whose IoU with a kept box
// of the same class (any class with class_agnostic) is above iou_threshold. Coordinates and
// IoU are computed in double, so every platform keeps the same boxes.
#include <algorithm>

#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

struct Candidate {
  double x1, y1, x2, y2;
  float score;
  int64_t cls;
};

double area(const Candidate& c) { return std::max(0.0, c.x2 - c.x1) * std::max(0.0, c.y2 - c.y1); }

double iou(const Candidate& a, const Candidate& b) {
  const double w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1), h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const double inter = w * h, uni = area(a) + area(b) - inter;
  return uni > 0 ? inter / uni : 0;
}

class YoloNms final : public Step {
 public:
  YoloNms(bool v8, double score_threshold, double iou_threshold, int max_detections, bool class_agnostic)
      : v8_(v8), score_threshold_(score_threshold), iou_threshold_(iou_threshold), max_detections_(max_detections),
        class_agnostic_(class_agnostic) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "predictions", DataType::kFloat, 3));
    const int64_t fields = v8_ ? t.dim(1) : t.dim(2), n = v8_ ? t.dim(2) : t.dim(1), first_class = v8_ ? 4 : 5;
    if (t.dim(0) != 1 || fields <= first_class)
      return invalid_argument(std::string("input 'predictions' must be float32[1,") +
                              (v8_ ? "4+C,N] (yolov8)" : "N,5+C] (yolov5)") + " with C >= 1, got " +
                              shape_to_string(t.shape()));
    const float* p = t.data<float>();
    const auto at = [&](int64_t i, int64_t f) { return v8_ ? p[f * n + i] : p[i * fields + f]; };
    std::vector<Candidate> candidates;
    for (int64_t i = 0; i < n; ++i) {
      int64_t cls = first_class;
      for (int64_t f = first_class + 1; f < fields; ++f)
        if (at(i, f) > at(i, cls)) cls = f;
      const float score = v8_ ? at(i, cls) : at(i, 4) * at(i, cls);
      if (!(score >= score_threshold_)) continue;
      const double cx = at(i, 0), cy = at(i, 1), half_w = at(i, 2) / 2.0, half_h = at(i, 3) / 2.0;
      candidates.push_back({cx - half_w, cy - half_h, cx + half_w, cy + half_h, score, cls - first_class});
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    std::vector<Candidate> kept;
    for (const Candidate& c : candidates) {
      if (static_cast<int>(kept.size()) == max_detections_) break;
      const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) {
        return (class_agnostic_ || k.cls == c.cls) && iou(k, c) > iou_threshold_;
      });
      if (!suppressed) kept.push_back(c);
    }
    const auto count = static_cast<int64_t>(kept.size());
    ASSIGN_OR_RETURN(Tensor boxes, Tensor::create(DataType::kFloat, {count, 4}));
    ASSIGN_OR_RETURN(Tensor scores, Tensor::create(DataType::kFloat, {count}));
    ASSIGN_OR_RETURN(Tensor classes, Tensor::create(DataType::kInt64, {count}));
    for (int64_t k = 0; k < count; ++k) {
      const Candidate& c = kept[static_cast<size_t>(k)];
      const double corners[4] = {c.x1, c.y1, c.x2, c.y2};
      for (int j = 0; j < 4; ++j) boxes.data<float>()[k * 4 + j] = static_cast<float>(corners[j]);
      scores.data<float>()[k] = c.score;
      classes.data<int64_t>()[k] = c.cls;
    }
    return ValueMap{{"boxes", PipelineValue::single(std::move(boxes))},
                    {"scores", PipelineValue::single(std::move(scores))},
                    {"classes", PipelineValue::single(std::move(classes))}};
  }

 private:
  bool v8_;
  double score_threshold_, iou_threshold_;
  int max_detections_;
  bool class_agnostic_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"format", "score_threshold", "iou_threshold", "max_detections", "class_agnostic"}));
  ASSIGN_OR_RETURN(std::string format, string_param(params, "format", "yolov5"));
  if (format != "yolov5" && format != "yolov8")
    return invalid_argument("parameter 'format' must be \"yolov5\" or \"yolov8\", got \"" + format + "\"");
  ASSIGN_OR_RETURN(double score_threshold, number_param(params, "score_threshold", 0.25));
  ASSIGN_OR_RETURN(double iou_threshold, number_param(params, "iou_threshold", 0.45));
  if (iou_threshold < 0 || iou_threshold > 1)
    return invalid_argument("parameter 'iou_threshold' must be in [0, 1], got " + std::to_string(iou_threshold));
  ASSIGN_OR_RETURN(int max_detections, int_param(params, "max_detections", 300, 1));
  ASSIGN_OR_RETURN(bool class_agnostic, bool_param(params, "class_agnostic", false));
  return std::unique_ptr<Step>(
      new YoloNms(format == "yolov8", score_threshold, iou_threshold, max_detections, class_agnostic));
}

TWINRT_REGISTER_STEP(yolo_nms, {"yolo_nms",
                                "predictions float32[1,N,5+C] (yolov5) or [1,4+C,N] (yolov8) -> boxes float32[K,4], "
                                "scores float32[K], classes int64[K] after NMS",
                                {"predictions"}, {"boxes", "scores", "classes"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
