#include "pipeline/geometry.h"

#include <algorithm>
#include <cmath>

namespace twinrt::pipeline {
namespace {

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Solves the 8x8 system for the homography taking the output rectangle's corners to `quad`
// (Gaussian elimination with partial pivoting). h[8] = 1.
std::array<double, 9> homography(const Quad& quad, double w, double h) {
  const Point dst[4] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
  double a[8][9] = {};
  for (int i = 0; i < 4; ++i) {
    const double u = dst[i].x, v = dst[i].y, x = quad[static_cast<size_t>(i)].x, y = quad[static_cast<size_t>(i)].y;
    double r0[9] = {u, v, 1, 0, 0, 0, -u * x, -v * x, x};
    double r1[9] = {0, 0, 0, u, v, 1, -u * y, -v * y, y};
    std::copy(r0, r0 + 9, a[2 * i]);
    std::copy(r1, r1 + 9, a[2 * i + 1]);
  }
  for (int col = 0; col < 8; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 8; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    if (std::fabs(a[col][col]) < 1e-12) return {1, 0, quad[0].x, 0, 1, quad[0].y, 0, 0, 1};  // degenerate: translate
    for (int r = 0; r < 8; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int c = col; c < 9; ++c) a[r][c] -= f * a[col][c];
    }
  }
  std::array<double, 9> hm{};
  for (int i = 0; i < 8; ++i) hm[static_cast<size_t>(i)] = a[i][8] / a[i][i];
  hm[8] = 1;
  return hm;
}

}  // namespace

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

std::vector<Point> convex_hull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (points.size() < 3) return points;
  std::vector<Point> hull(2 * points.size());
  size_t k = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (size_t i = points.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

RotatedRect min_area_rect(const std::vector<Point>& points) {
  const std::vector<Point> hull = convex_hull(points);
  RotatedRect best;
  if (hull.empty()) return best;
  if (hull.size() == 1) {
    best.center = hull[0];
    best.axis = {1, 0};
    return best;
  }
  double best_area = -1;
  for (size_t i = 0; i < hull.size(); ++i) {
    const Point a = hull[i], b = hull[(i + 1) % hull.size()];
    const double len = distance(a, b);
    if (len == 0) continue;
    const Point u{(b.x - a.x) / len, (b.y - a.y) / len};
    double lo_u = 1e300, hi_u = -1e300, lo_v = 1e300, hi_v = -1e300;
    for (const Point& p : hull) {
      const double pu = p.x * u.x + p.y * u.y, pv = -p.x * u.y + p.y * u.x;
      lo_u = std::min(lo_u, pu), hi_u = std::max(hi_u, pu), lo_v = std::min(lo_v, pv), hi_v = std::max(hi_v, pv);
    }
    const double area = (hi_u - lo_u) * (hi_v - lo_v);
    if (best_area < 0 || area < best_area) {
      best_area = area;
      const double cu = (lo_u + hi_u) / 2, cv = (lo_v + hi_v) / 2;
      best.center = {cu * u.x - cv * u.y, cu * u.y + cv * u.x};
      best.width = hi_u - lo_u;
      best.height = hi_v - lo_v;
      best.axis = u;
    }
  }
  return best;
}

Quad RotatedRect::corners() const {
  const Point u = axis, v{-axis.y, axis.x};
  const double hw = width / 2, hh = height / 2;
  Quad q;
  const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  for (size_t i = 0; i < 4; ++i)
    q[i] = {center.x + su[i] * hw * u.x + sv[i] * hh * v.x, center.y + su[i] * hw * u.y + sv[i] * hh * v.y};
  return order_corners(q);
}

Quad order_corners(Quad q) {
  std::sort(q.begin(), q.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  const auto [tl, bl] = q[0].y <= q[1].y ? std::pair(q[0], q[1]) : std::pair(q[1], q[0]);
  const auto [tr, br] = q[2].y <= q[3].y ? std::pair(q[2], q[3]) : std::pair(q[3], q[2]);
  return {tl, tr, br, bl};
}

bool inside(const Quad& q, Point p) {
  bool has_neg = false, has_pos = false;
  for (size_t i = 0; i < 4; ++i) {
    const double c = cross(q[i], q[(i + 1) % 4], p);
    has_neg = has_neg || c < 0;
    has_pos = has_pos || c > 0;
  }
  return !(has_neg && has_pos);
}

parity::RgbImage warp_perspective(const parity::RgbImage& image, const Quad& quad, int width, int height) {
  const std::array<double, 9> h = homography(quad, width, height);
  parity::RgbImage out;
  out.width = width;
  out.height = height;
  out.pixels.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      // Pixel centers map to pixel centers, as OpenCV's warpPerspective samples.
      const double u = x, v = y;
      const double d = h[6] * u + h[7] * v + h[8];
      const double sx = std::clamp((h[0] * u + h[1] * v + h[2]) / d, 0.0, image.width - 1.0);
      const double sy = std::clamp((h[3] * u + h[4] * v + h[5]) / d, 0.0, image.height - 1.0);
      const int x0 = static_cast<int>(sx), y0 = static_cast<int>(sy);
      const int x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
      const double fx = sx - x0, fy = sy - y0;
      for (int c = 0; c < 3; ++c) {
        const double top = image.at(x0, y0, c) * (1 - fx) + image.at(x1, y0, c) * fx;
        const double bottom = image.at(x0, y1, c) * (1 - fx) + image.at(x1, y1, c) * fx;
        out.pixels[(static_cast<size_t>(y) * width + x) * 3 + c] =
            static_cast<uint8_t>(std::lround(top * (1 - fy) + bottom * fy));
      }
    }
  return out;
}

parity::RgbImage rotate_90_ccw(const parity::RgbImage& image) {
  parity::RgbImage out;
  out.width = image.height;
  out.height = image.width;
  out.pixels.resize(image.pixels.size());
  // Output (x, y) shows input (width-1-y, x): the right edge becomes the top.
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      for (int c = 0; c < 3; ++c)
        out.pixels[(static_cast<size_t>(y) * out.width + x) * 3 + c] = image.at(image.width - 1 - y, x, c);
  return out;
}

parity::RgbImage rotate_180(const parity::RgbImage& image) {
  parity::RgbImage out = image;
  const size_t n = static_cast<size_t>(image.width) * static_cast<size_t>(image.height);
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < 3; ++c) out.pixels[i * 3 + c] = image.pixels[(n - 1 - i) * 3 + c];
  return out;
}

}  // namespace twinrt::pipeline
