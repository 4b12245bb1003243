#pragma once
// Closest points of a solid capped cylinder, shared by the scene's closest_point and overlap
// queries (the geometry layer has no cylinder contact kernels yet).

#include <cmath>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

// Closest point of the solid cylinder to p (p itself when inside). A cylinder with a == b is
// degenerate: its closest point is a, never inside.
inline SolidClosestPoint<float> closest_point_on_cylinder(const Cylinderf& c, Vec3f p) {
  float length_axis;
  const Vec3f u = cylinder_axis(c, length_axis);
  if (!(length_axis > 0.0f)) return {c.a, false};
  const float along = dot(p - c.a, u);
  const Vec3f radial = p - c.a - u * along;
  const float radial_length = length(radial);
  const bool inside = along >= 0.0f && along <= length_axis && radial_length <= c.radius;
  if (inside) return {p, true};
  const float clamped = clamp(along, 0.0f, length_axis);
  const Vec3f r = radial_length > c.radius ? radial * (c.radius / radial_length) : radial;
  return {c.a + u * clamped + r, false};
}

struct CylinderBoundaryPoint {
  Vec3f point{};
  Vec3f outward_normal{};
  float distance = 0;  // from the query point
};

// For p inside the (non-degenerate) cylinder: the nearest point of its boundary, the outward
// normal there and the distance to it. The side wins ties with a cap; on the axis itself the
// side's direction is a fixed perpendicular of the axis.
inline CylinderBoundaryPoint cylinder_boundary_from_inside(const Cylinderf& c, Vec3f p) {
  float length_axis;
  const Vec3f u = cylinder_axis(c, length_axis);
  const float along = dot(p - c.a, u);
  const Vec3f radial = p - c.a - u * along;
  const float to_side = c.radius - length(radial), to_bottom = along, to_top = length_axis - along;
  CylinderBoundaryPoint out;
  if (to_side <= to_bottom && to_side <= to_top) {
    Vec3f n = normalize(radial);
    if (n == Vec3f{}) n = normalize(cross(u, std::abs(u.x) < 0.9f ? Vec3f{1, 0, 0} : Vec3f{0, 1, 0}));
    out.outward_normal = n;
    out.point = c.a + u * along + n * c.radius;
    out.distance = max(to_side, 0.0f);
  } else {
    out.outward_normal = to_bottom < to_top ? -u : u;
    out.distance = max(min(to_bottom, to_top), 0.0f);
    out.point = p + out.outward_normal * out.distance;
  }
  return out;
}

}  // namespace hitscan
