#include "polygon_triangulation.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>

#include "hitscan/assert.hpp"

namespace hitscan::io::detail {
namespace {

// A corner whose edges make an angle with a sine below this goes straight on (or straight back):
// float corners carried in double leave far less noise than this, and clipping such a corner as a
// zero-area triangle moves the covered area by at most this fraction of its edges' product.
constexpr double kFlatSine = 1e-9;

// Steps and point-in-triangle tests the ear clipping of one face may take before the rest of the
// face gets its fan: clipping costs up to the square of the corner count, and a hostile file may
// hold a face of millions of corners. Real faces of up to a few thousand corners stay within it.
constexpr std::uint64_t kClippingBudget = std::uint64_t(1) << 24;

void write_fan(std::size_t corner_count, std::span<PolygonTriangle> triangles) {
  for (std::uint32_t i = 1; i + 1 < corner_count; ++i) triangles[i - 1] = {0, i, i + 1};
}

// The corners in the plane through corner 0 perpendicular to the Newell normal (Tampieri,
// "Newell's Method for Computing the Plane Equation of a Polygon", Graphics Gems III, 1992), in
// axes (u, v) with u x v along that normal, so the face runs counter-clockwise there. The
// normal is the face's vector area, the best plane of a non-planar face. False when it has none.
bool project_on_face_plane(std::span<const Vec3d> corners, PolygonScratch& scratch) {
  const Vec3d origin = corners[0];
  Vec3d area{};
  for (std::size_t i = 1; i + 1 < corners.size(); ++i) area += cross(corners[i] - origin, corners[i + 1] - origin);
  const Vec3d w = normalize(area);  // zero for a zero or non-finite area
  if (w == Vec3d{}) return false;
  const Vec3d a = abs(w);
  const Vec3d least_aligned = a.x <= a.y && a.x <= a.z ? Vec3d{1, 0, 0} : a.y <= a.z ? Vec3d{0, 1, 0} : Vec3d{0, 0, 1};
  const Vec3d u = normalize(cross(least_aligned, w));
  const Vec3d v = cross(w, u);
  scratch.x.resize(corners.size());
  scratch.y.resize(corners.size());
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec3d d = corners[i] - origin;
    scratch.x[i] = dot(d, u);
    scratch.y[i] = dot(d, v);
  }
  return true;
}

// (b - a) x (c - b): positive where a, b, c turn counter-clockwise.
double turn(const PolygonScratch& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return (s.x[b] - s.x[a]) * (s.y[c] - s.y[b]) - (s.y[b] - s.y[a]) * (s.x[c] - s.x[b]);
}

// A flat corner (straight on, straight back, or on top of a neighbour) bounds no area, so it is
// clipped as a zero-area triangle without looking for corners inside it.
bool is_flat(const PolygonScratch& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const double ab = std::hypot(s.x[b] - s.x[a], s.y[b] - s.y[a]);
  const double bc = std::hypot(s.x[c] - s.x[b], s.y[c] - s.y[b]);
  return std::abs(turn(s, a, b, c)) <= kFlatSine * ab * bc;
}

// Every edge turns left or goes straight on, and all together turn once around: a polygon that
// only turns left may still wind twice (a pentagram), and its fan then covers what it does not.
// Repeated corners (zero edges) are stepped over.
bool is_convex(const PolygonScratch& s, std::size_t corner_count) {
  const auto edge_x = [&](std::size_t i) { return s.x[i + 1 == corner_count ? 0 : i + 1] - s.x[i]; };
  const auto edge_y = [&](std::size_t i) { return s.y[i + 1 == corner_count ? 0 : i + 1] - s.y[i]; };
  std::size_t last = corner_count;
  for (std::size_t i = corner_count; i-- > 0;) {
    if (edge_x(i) != 0 || edge_y(i) != 0) {
      last = i;
      break;
    }
  }
  if (last == corner_count) return false;
  double px = edge_x(last), py = edge_y(last);
  double turning = 0;
  for (std::size_t i = 0; i < corner_count; ++i) {
    const double ex = edge_x(i), ey = edge_y(i);
    if (ex == 0 && ey == 0) continue;
    const double sine_area = px * ey - py * ex;
    const double cosine_area = px * ex + py * ey;
    const double limit = kFlatSine * std::hypot(px, py) * std::hypot(ex, ey);
    if (sine_area < -limit || (sine_area <= limit && cosine_area < 0)) return false;
    turning += std::atan2(sine_area, cosine_area);
    px = ex;
    py = ey;
  }
  return turning < 3 * std::numbers::pi;
}

// No remaining corner lies in the closed triangle a, b, c (counter-clockwise), but for corners
// at the same place as one of its own: a face that touches itself there (two outlines joined at
// a corner, a hole bridged to the outline) keeps its ears. For a simple polygon this makes the
// segment a-c a diagonal (Meisters' two ears theorem guarantees two such ears).
bool holds_no_corner(const PolygonScratch& s, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint64_t& work) {
  const auto same_place = [&](std::uint32_t p, std::uint32_t q) { return s.x[p] == s.x[q] && s.y[p] == s.y[q]; };
  const auto left_of_or_on = [&](std::uint32_t from, std::uint32_t to, std::uint32_t q) {
    return (s.x[to] - s.x[from]) * (s.y[q] - s.y[from]) - (s.y[to] - s.y[from]) * (s.x[q] - s.x[from]) >= 0;
  };
  for (std::uint32_t q = s.next[c]; q != a; q = s.next[q]) {
    ++work;
    if (same_place(q, a) || same_place(q, b) || same_place(q, c)) continue;
    if (left_of_or_on(a, b, q) && left_of_or_on(b, c, q) && left_of_or_on(c, a, q)) return false;
  }
  return true;
}

// Ear clipping after Eberly, "Triangulation by Ear Clipping" (Geometric Tools, 2002-2015): cut
// off a convex corner whose triangle holds no other corner, until three remain. The walk goes on
// from the corner after each clipped one, so a polygon all of whose corners are ears gives its
// fan from corner 0. Where a whole round finds no ear (a self-intersecting outline) or the budget
// runs out, what remains gets its fan.
void clip_ears(std::size_t corner_count, std::span<PolygonTriangle> triangles, PolygonScratch& s) {
  s.previous.resize(corner_count);
  s.next.resize(corner_count);
  for (std::uint32_t i = 0; i < corner_count; ++i) {
    s.previous[i] = i == 0 ? static_cast<std::uint32_t>(corner_count - 1) : i - 1;
    s.next[i] = i + 1 == corner_count ? 0 : i + 1;
  }
  std::size_t written = 0;
  std::size_t remaining = corner_count;
  std::size_t looked_at = 0;  // corners looked at since the last clip
  std::uint64_t work = 0;
  std::uint32_t corner = 1;
  while (remaining > 3 && looked_at < remaining && work < kClippingBudget) {
    ++work;
    const std::uint32_t a = s.previous[corner];
    const std::uint32_t c = s.next[corner];
    if (is_flat(s, a, corner, c) || (turn(s, a, corner, c) > 0 && holds_no_corner(s, a, corner, c, work))) {
      triangles[written++] = {a, corner, c};
      s.next[a] = c;
      s.previous[c] = a;
      --remaining;
      looked_at = 0;
      corner = c;
    } else {
      corner = c;
      ++looked_at;
    }
  }
  const std::uint32_t apex = s.previous[corner];
  for (std::uint32_t b = corner; remaining > 2; --remaining) {
    const std::uint32_t c = s.next[b];
    triangles[written++] = {apex, b, c};
    b = c;
  }
}

}  // namespace

void triangulate_polygon(std::span<const Vec3d> corners, std::span<PolygonTriangle> triangles,
                         PolygonScratch& scratch) {
  const std::size_t corner_count = corners.size();
  HITSCAN_ASSERT(corner_count >= 3 && triangles.size() == corner_count - 2);
  if (corner_count == 3 || !project_on_face_plane(corners, scratch) || is_convex(scratch, corner_count)) {
    write_fan(corner_count, triangles);
    return;
  }
  clip_ears(corner_count, triangles, scratch);
}

}  // namespace hitscan::io::detail
