// db_postprocess: a DB text detector's probability map float32[1,1,h,w] and the original
// image -> text boxes float32[N,4,2] (corners in image pixels, TL TR BR BL) and their
// scores float32[N], top to bottom. Steps, as in PaddleOCR's DBPostProcess: threshold the
// map, take each connected region's minimum-area rectangle, keep it if the mean
// probability inside is at least "box_threshold", grow it by area * unclip_ratio /
// perimeter on every side, scale to the image.
#include <algorithm>
#include <cmath>

#include "pipeline/geometry.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

struct DbParams {
  double threshold = 0.3, box_threshold = 0.6, unclip_ratio = 1.5;
  int max_candidates = 1000, min_size = 3;
};

// The boundary pixels (a 4-neighbour outside) of each 8-connected region of `mask`.
std::vector<std::vector<Point>> region_boundaries(const std::vector<uint8_t>& mask, int w, int h, size_t limit) {
  std::vector<int> label(mask.size(), -1);
  std::vector<std::vector<Point>> regions;
  std::vector<int> stack;
  auto on = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && mask[static_cast<size_t>(y) * w + x]; };
  for (int start = 0; start < w * h && regions.size() < limit; ++start) {
    if (!mask[static_cast<size_t>(start)] || label[static_cast<size_t>(start)] >= 0) continue;
    const int id = static_cast<int>(regions.size());
    regions.emplace_back();
    label[static_cast<size_t>(start)] = id;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      const int x = i % w, y = i / w;
      if (!on(x - 1, y) || !on(x + 1, y) || !on(x, y - 1) || !on(x, y + 1)) regions.back().push_back({double(x), double(y)});
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!on(x + dx, y + dy)) continue;
          const size_t j = static_cast<size_t>(y + dy) * w + (x + dx);
          if (label[j] < 0) {
            label[j] = id;
            stack.push_back(static_cast<int>(j));
          }
        }
    }
  }
  return regions;
}

double mean_inside(const Quad& q, const float* prob, int w, int h) {
  double lo_x = w, hi_x = 0, lo_y = h, hi_y = 0;
  for (const Point& p : q) lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x), lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  double sum = 0;
  int64_t count = 0;
  for (int y = std::max(0, static_cast<int>(std::floor(lo_y))); y <= std::min(h - 1, static_cast<int>(std::ceil(hi_y))); ++y)
    for (int x = std::max(0, static_cast<int>(std::floor(lo_x))); x <= std::min(w - 1, static_cast<int>(std::ceil(hi_x))); ++x)
      if (inside(q, {double(x), double(y)})) sum += prob[static_cast<size_t>(y) * w + x], ++count;
  return count ? sum / static_cast<double>(count) : 0;
}

class DbPostprocess final : public Step {
 public:
  explicit DbPostprocess(DbParams p) : p_(p) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor prob, tensor_input(inputs, "prob", DataType::kFloat, 4));
    ASSIGN_OR_RETURN(Tensor image, tensor_input(inputs, "image", DataType::kUInt8, 3));
    if (prob.dim(0) != 1 || prob.dim(1) != 1)
      return invalid_argument("input 'prob' must be float32[1,1,h,w], got " + shape_to_string(prob.shape()));
    if (prob.dim(2) * prob.dim(3) > (int64_t{1} << 28))
      return invalid_argument("input 'prob' " + shape_to_string(prob.shape()) + " is larger than 2^28 pixels");
    const int h = static_cast<int>(prob.dim(2)), w = static_cast<int>(prob.dim(3));
    const double sx = static_cast<double>(image.dim(1)) / std::max(w, 1), sy = static_cast<double>(image.dim(0)) / std::max(h, 1);
    const float* p = prob.data<float>();
    std::vector<uint8_t> mask(static_cast<size_t>(w) * static_cast<size_t>(h));
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = p[i] > p_.threshold;
    std::vector<std::pair<Quad, float>> boxes;
    for (const auto& boundary : region_boundaries(mask, w, h, static_cast<size_t>(p_.max_candidates))) {
      RotatedRect r = min_area_rect(boundary);
      if (std::min(r.width, r.height) < p_.min_size) continue;
      const double score = mean_inside(r.corners(), p, w, h);
      if (score < p_.box_threshold) continue;
      const double grow = r.width * r.height * p_.unclip_ratio / (2 * (r.width + r.height));
      r.width += 2 * grow;
      r.height += 2 * grow;
      if (std::min(r.width, r.height) < p_.min_size + 2) continue;
      Quad q = r.corners();
      for (Point& c : q) {
        c.x = std::clamp(std::round(c.x * sx), 0.0, static_cast<double>(image.dim(1)));
        c.y = std::clamp(std::round(c.y * sy), 0.0, static_cast<double>(image.dim(0)));
      }
      boxes.emplace_back(q, static_cast<float>(score));
    }
    // Reading order: by top edge, then left to right for boxes whose tops are within 10 px.
    std::sort(boxes.begin(), boxes.end(), [](const auto& a, const auto& b) {
      const double ay = a.first[0].y, by = b.first[0].y;
      if (std::fabs(ay - by) >= 10) return ay < by;
      return a.first[0].x < b.first[0].x;
    });
    const int64_t n = static_cast<int64_t>(boxes.size());
    ASSIGN_OR_RETURN(Tensor out_boxes, Tensor::create(DataType::kFloat, {n, 4, 2}));
    ASSIGN_OR_RETURN(Tensor out_scores, Tensor::create(DataType::kFloat, {n}));
    for (size_t i = 0; i < boxes.size(); ++i) {
      for (size_t c = 0; c < 4; ++c) {
        out_boxes.data<float>()[i * 8 + c * 2] = static_cast<float>(boxes[i].first[c].x);
        out_boxes.data<float>()[i * 8 + c * 2 + 1] = static_cast<float>(boxes[i].first[c].y);
      }
      out_scores.data<float>()[i] = boxes[i].second;
    }
    return ValueMap{{"boxes", PipelineValue::single(std::move(out_boxes))},
                    {"scores", PipelineValue::single(std::move(out_scores))}};
  }

 private:
  DbParams p_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"threshold", "box_threshold", "unclip_ratio", "max_candidates", "min_size"}));
  DbParams p;
  ASSIGN_OR_RETURN(p.threshold, number_param(params, "threshold", p.threshold));
  ASSIGN_OR_RETURN(p.box_threshold, number_param(params, "box_threshold", p.box_threshold));
  ASSIGN_OR_RETURN(p.unclip_ratio, number_param(params, "unclip_ratio", p.unclip_ratio));
  ASSIGN_OR_RETURN(p.max_candidates, int_param(params, "max_candidates", p.max_candidates, 1));
  ASSIGN_OR_RETURN(p.min_size, int_param(params, "min_size", p.min_size, 0));
  if (p.unclip_ratio < 0) return invalid_argument("parameter 'unclip_ratio' must be >= 0");
  return std::unique_ptr<Step>(new DbPostprocess(p));
}

TWINRT_REGISTER_STEP(db_postprocess, {"db_postprocess", "DB probability map + image -> text boxes float32[N,4,2], scores float32[N]",
                                      {"prob", "image"}, {"boxes", "scores"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
