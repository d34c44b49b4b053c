// Plane geometry for text boxes: convex hull, minimum-area rectangle, perspective warp.
#pragma once

#include <array>
#include <vector>

#include "parity/image.h"

namespace twinrt::pipeline {

struct Point {
  double x = 0, y = 0;
};
using Quad = std::array<Point, 4>;  // top-left, top-right, bottom-right, bottom-left

// Andrew's monotone chain; counter-clockwise, no collinear points.
std::vector<Point> convex_hull(std::vector<Point> points);

struct RotatedRect {
  Point center;
  double width = 0, height = 0;  // along `axis` and across it
  Point axis;                    // unit vector of the width side
  Quad corners() const;          // ordered as Quad
};

// The smallest-area rectangle around `points` (rotating calipers over the hull's edges).
RotatedRect min_area_rect(const std::vector<Point>& points);

// Orders four corners as top-left, top-right, bottom-right, bottom-left (PaddleOCR's rule:
// the two leftmost points, upper first, then the two rightmost).
Quad order_corners(Quad q);

double distance(Point a, Point b);
// Whether `p` lies inside the convex quad (boundary included).
bool inside(const Quad& q, Point p);

// Samples `quad` of `image` into a width x height image (bilinear, coordinates clamped
// to the image like a replicated border): the quad's corners map onto the output's corners.
parity::RgbImage warp_perspective(const parity::RgbImage& image, const Quad& quad, int width, int height);

// Rotations of an image by 90 degrees counter-clockwise and by 180 degrees.
parity::RgbImage rotate_90_ccw(const parity::RgbImage& image);
parity::RgbImage rotate_180(const parity::RgbImage& image);

}  // namespace twinrt::pipeline
