#pragma once
// Plain double-precision references for polygons in a plane, independent of the code under test:
// the even-odd and winding-number point-in-polygon tests, point in triangle, distance to an edge.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace hitscan::test {

struct Point2 {
  double x = 0, y = 0;
};
using Polygon2 = std::vector<Point2>;

/// Twice the signed area of a, b, p: positive where they run counter-clockwise.
inline double orient(Point2 a, Point2 b, Point2 p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }

/// The even-odd rule: a ray from p towards +x crosses the outline an odd number of times.
inline bool inside_polygon(const Polygon2& polygon, Point2 p) {
  bool inside = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Point2& a = polygon[i];
    const Point2& b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) inside = !inside;
  }
  return inside;
}

/// How many times the outline winds around p, counter-clockwise positive (Sunday's crossing
/// count with signs).
inline int winding_number(const Polygon2& polygon, Point2 p) {
  int winding = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Point2& a = polygon[i];
    const Point2& b = polygon[(i + 1) % polygon.size()];
    if (a.y <= p.y && b.y > p.y && orient(a, b, p) > 0) ++winding;
    if (a.y > p.y && b.y <= p.y && orient(a, b, p) < 0) --winding;
  }
  return winding;
}

/// p in the closed triangle a, b, c of either winding, or within `slack` (a length) outside it.
inline bool inside_triangle(Point2 a, Point2 b, Point2 c, Point2 p, double slack = 0) {
  const auto side = [&](Point2 from, Point2 to) {
    return orient(from, to, p) / std::max(std::hypot(to.x - from.x, to.y - from.y), 1e-300);
  };
  const double ab = side(a, b), bc = side(b, c), ca = side(c, a);
  return (ab >= -slack && bc >= -slack && ca >= -slack) || (ab <= slack && bc <= slack && ca <= slack);
}

inline double distance_to_segment(Point2 a, Point2 b, Point2 p) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  const double s = length2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - (a.x + s * dx), p.y - (a.y + s * dy));
}

/// Whether p lies within `margin` of the outline.
inline bool near_outline(const Polygon2& polygon, Point2 p, double margin) {
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    if (distance_to_segment(polygon[i], polygon[(i + 1) % polygon.size()], p) < margin) return true;
  }
  return false;
}

}  // namespace hitscan::test
