#pragma once
/// AnyShape: one analytic shape of any kind, and the closest hit of a ray over a list of them by
/// brute force. The tools' stand-in for a scene until the query layer provides one.

#include <cstddef>
#include <span>
#include <variant>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan::tools {

using AnyShape = std::variant<Sphere<float>, Plane<float>, Aabb<float>, Obb<float>, Capsule<float>,
                              Cylinder<float>, Triangle<float>, ConvexPolygon<float>, Disc<float>>;

/// Number of shape kinds AnyShape can hold.
inline constexpr std::size_t kShapeKindCount = std::variant_size_v<AnyShape>;

/// Lower-case name of the kind of shape held, e.g. "sphere", "convex polygon".
const char* shape_kind_name(const AnyShape& shape);

/// The kernel ray_vs_<kind> for the shape held.
RayHitf ray_vs_shape(const AnyShape& shape, const Rayf& ray);

struct ClosestHit {
  static constexpr std::size_t kNoShape = static_cast<std::size_t>(-1);

  RayHitf hit{};
  /// Index of the shape hit in the list, kNoShape on a miss.
  std::size_t shape = kNoShape;
};

/// The nearest hit over all shapes within the ray's [tmin, tmax]. Each hit becomes the next
/// shape's tmax, so later shapes only report what lies in front of it; on equal t the later shape
/// wins. A miss when nothing is hit.
ClosestHit closest_hit(std::span<const AnyShape> shapes, Rayf ray);

}  // namespace hitscan::tools
