#include "tools/any_shape.hpp"

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan::tools {
namespace {

struct KindName {
  const char* operator()(const Sphere<float>&) const { return "sphere"; }
  const char* operator()(const Plane<float>&) const { return "plane"; }
  const char* operator()(const Aabb<float>&) const { return "aabb"; }
  const char* operator()(const Obb<float>&) const { return "obb"; }
  const char* operator()(const Capsule<float>&) const { return "capsule"; }
  const char* operator()(const Cylinder<float>&) const { return "cylinder"; }
  const char* operator()(const Triangle<float>&) const { return "triangle"; }
  const char* operator()(const ConvexPolygon<float>&) const { return "convex polygon"; }
  const char* operator()(const Disc<float>&) const { return "disc"; }
};

struct Kernel {
  const Rayf& ray;

  RayHitf operator()(const Sphere<float>& s) const { return ray_vs_sphere(s, ray); }
  RayHitf operator()(const Plane<float>& s) const { return ray_vs_plane(s, ray); }
  RayHitf operator()(const Aabb<float>& s) const { return ray_vs_aabb(s, ray); }
  RayHitf operator()(const Obb<float>& s) const { return ray_vs_obb(s, ray); }
  RayHitf operator()(const Capsule<float>& s) const { return ray_vs_capsule(s, ray); }
  RayHitf operator()(const Cylinder<float>& s) const { return ray_vs_cylinder(s, ray); }
  RayHitf operator()(const Triangle<float>& s) const { return ray_vs_triangle(s, ray); }
  RayHitf operator()(const ConvexPolygon<float>& s) const { return ray_vs_polygon(s, ray); }
  RayHitf operator()(const Disc<float>& s) const { return ray_vs_disc(s, ray); }
};

}  // namespace

const char* shape_kind_name(const AnyShape& shape) { return std::visit(KindName{}, shape); }

RayHitf ray_vs_shape(const AnyShape& shape, const Rayf& ray) { return std::visit(Kernel{ray}, shape); }

ClosestHit closest_hit(std::span<const AnyShape> shapes, Rayf ray) {
  ClosestHit closest;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const RayHitf hit = ray_vs_shape(shapes[i], ray);
    if (!hit) continue;
    closest = {hit, i};
    ray.tmax = hit.t;
  }
  return closest;
}

}  // namespace hitscan::tools
