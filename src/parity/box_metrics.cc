// Detection outputs: boxes matched one to one by IoU, greedily from the highest IoU.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

struct Box { double x0, y0, x1, y1; };

Box to_corners(const double* v, BoxFormat format) {
  switch (format) {
    case BoxFormat::kXYWH: return {v[0], v[1], v[0] + v[2], v[1] + v[3]};
    case BoxFormat::kCXCYWH:
      return {v[0] - v[2] / 2, v[1] - v[3] / 2, v[0] + v[2] / 2, v[1] + v[3] / 2};
    case BoxFormat::kXYXY: break;
  }
  return {v[0], v[1], v[2], v[3]};
}

double area(const Box& b) { return std::max(0.0, b.x1 - b.x0) * std::max(0.0, b.y1 - b.y0); }

// Identical boxes have IoU 1 even when empty (padding rows of zeros match each other);
// other boxes with an empty union have IoU 0. NaN coordinates give NaN, which never matches.
double iou(const Box& a, const Box& b) {
  if (a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1) return 1;
  const Box inter{std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1),
                  std::min(a.y1, b.y1)};
  const double i = area(inter);
  const double u = area(a) + area(b) - i;
  if (std::isnan(u) || std::isnan(i)) return u + i;
  return u > 0 ? i / u : 0;
}

}  // namespace

Result<BoxFormat> parse_box_format(const std::string& name) {
  if (name == "xyxy") return BoxFormat::kXYXY;
  if (name == "xywh") return BoxFormat::kXYWH;
  if (name == "cxcywh") return BoxFormat::kCXCYWH;
  return invalid_argument("box format '" + name + "': expected xyxy, xywh or cxcywh");
}

Result<BoxMetrics> box_metrics(const std::vector<double>& ref, const std::vector<double>& test,
                               const std::vector<int64_t>& shape, BoxFormat format,
                               double match_iou) {
  if (shape.size() < 2 || shape.back() != 4)
    return invalid_argument("box metrics: output shape " + shape_to_string(shape) +
                            " is not [..., N, 4]");
  BoxMetrics m;
  const int64_t n = shape[shape.size() - 2];
  const int64_t groups = n == 0 ? 0 : static_cast<int64_t>(ref.size()) / (4 * n);
  m.reference_boxes = m.test_boxes = groups * n;
  double iou_sum = 0;
  for (int64_t g = 0; g < groups; ++g) {
    std::vector<std::tuple<double, int64_t, int64_t>> pairs;  // (iou, ref box, test box)
    for (int64_t i = 0; i < n; ++i) {
      const Box a = to_corners(&ref[static_cast<size_t>((g * n + i) * 4)], format);
      for (int64_t j = 0; j < n; ++j) {
        const Box b = to_corners(&test[static_cast<size_t>((g * n + j) * 4)], format);
        const double v = iou(a, b);
        if (v >= match_iou) pairs.emplace_back(v, i, j);
      }
    }
    // Highest IoU first; ties to the lower reference, then test, index.
    std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
      if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) > std::get<0>(y);
      return std::tie(std::get<1>(x), std::get<2>(x)) < std::tie(std::get<1>(y), std::get<2>(y));
    });
    std::vector<bool> ref_used(static_cast<size_t>(n)), test_used(static_cast<size_t>(n));
    for (const auto& [v, i, j] : pairs) {
      if (ref_used[static_cast<size_t>(i)] || test_used[static_cast<size_t>(j)]) continue;
      ref_used[static_cast<size_t>(i)] = test_used[static_cast<size_t>(j)] = true;
      ++m.matched;
      iou_sum += v;
      m.min_matched_iou = std::min(m.min_matched_iou, v);
    }
  }
  if (m.matched > 0) m.mean_matched_iou = iou_sum / static_cast<double>(m.matched);
  return m;
}

}  // namespace twinrt::parity
