// Capsule casts (geometry/sweep.hpp). A plane is met first by the capsule's lower end, exactly; a
// sphere is a ray from its centre, moving backwards, against the capsule grown by its radius
// (the relative motion is the same); a capsule, triangle or convex polygon exactly, feature by
// feature (segment_features, sweep_flat below); every other target is conservative advancement
// on the GJK distance of the capsule's segment and the target (sweep_advancement.cpp).

#include <algorithm>
#include <cmath>
#include <limits>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan {
namespace {

using detail::hit_at;
using detail::started_in_contact;
using detail::to_double;
using detail::valid_sweep;
using detail::within_sweep;

/// The part every advancement pair shares once the start is known to be apart: the capsule's
/// segment against the target's core, within the tolerance at the pair's size (`at_start`: the
/// cores' distance at the start, when the caller has it).
template <Real T>
SweepHit<T> advance(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const ConvexSupport& target_core,
                    T target_radius, T limit, const GjkDistance* at_start = nullptr) {
  return detail::from_advancement<T>(detail::advance(to_double(Segment<T>{moving.a, moving.b}), moving.radius,
                                                     target_core, target_radius, vec3_cast<double>(direction),
                                                     detail::advancement_limit(max_distance), limit, at_start),
                                     max_distance);
}

template <Real T>
Capsule<double> to_double(const Capsule<T>& c) {
  return {vec3_cast<double>(c.a), vec3_cast<double>(c.b), double(c.radius)};
}

/// The radius of the ball about the segment's middle that holds the capsule.
template <Real T>
T ball_radius(const Capsule<T>& c) {
  return c.radius + T(0.5) * distance(c.a, c.b);
}

template <Real T, class Target>
T pair_limit(const Capsule<T>& moving, const Target& target, ContactTolerance<T> tol) {
  return tol.at_size(max(size_of(moving), size_of(target)));
}

/// The moving segment [a, a + u] and a target segment [p, p + e] whose lines are not parallel:
/// the sum of the target, the reversed segment and a ball of radius r lies in the slab of half
/// width r about the plane through p - a spanned by u and e, so a contact needs
/// g(s) = dot(n, a + s d - p) within r, n the lines' unit common normal. In double.
struct LineContact {
  enum Kind {
    parallel,  // lines (nearly) parallel: no slab; the ends decide
    within,    // |g(0)| <= r: inside the slab already; the ends decide
    never,     // the slab is not reached by s = reach: no contact at all between these two
    across,    // the insides meet where the slab is entered, at s: the pair's first contact
    beside,    // the slab is entered beside the face: the ends decide
  };
  Kind kind = parallel;
  double s = 0;
  Vec3d point{}, normal{};
};
LineContact segment_meets_edge(Vec3d a, Vec3d u, Vec3d p, Vec3d e, double r, Vec3d d, double reach) {
  LineContact out;
  const Vec3d c = cross(u, e);
  const double uu = dot(u, u), ee = dot(e, e), c2 = dot(c, c);
  if (!(c2 > 1e-12 * uu * ee)) return out;
  const Vec3d n = c / std::sqrt(c2);
  const double g0 = dot(n, a - p);
  out.kind = LineContact::within;
  if (std::abs(g0) <= r) return out;
  const double side = g0 > 0 ? 1.0 : -1.0;
  const double approach = -side * dot(n, d);
  const double s = (std::abs(g0) - r) / approach;
  out.kind = LineContact::never;
  if (!(approach > 0) || !(s <= reach)) return out;
  const Vec3d w = a + d * s - p;
  const double ue = dot(u, e), uw = dot(u, w), ew = dot(e, w), den = uu * ee - ue * ue;
  const double on_segment = (ue * ew - ee * uw) / den, on_edge = (uu * ew - ue * uw) / den;
  out.kind = LineContact::beside;
  if (!(on_segment >= 0 && on_segment <= 1 && on_edge >= 0 && on_edge <= 1)) return out;
  out.kind = LineContact::across;
  out.s = s;
  out.point = p + e * on_edge;
  out.normal = n * side;
  return out;
}

/// Where a ray from a point outside a capsule first enters it, in double: the side when the
/// line enters the infinite cylinder between the cap planes (the capsule lies inside that
/// cylinder, so nothing comes earlier), else the ball of the cap on that side (Quilez's
/// capsule test). A start outside is what the sweeps have once contact at the start is ruled
/// out; cheaper than ray_vs_capsule, which also handles starts inside and exits, and which takes
/// over for a ray nearly parallel to the axis.
RayHit<double> entry_into_capsule(const Capsule<double>& capsule, Vec3d start, Vec3d dir, double tmax) {
  RayHit<double> out;
  const Vec3d axis = capsule.b - capsule.a;
  const double aa = dot(axis, axis), ad = dot(axis, dir), dd = dot(dir, dir);
  const double k2 = aa * dd - ad * ad;  // aa dd sin^2 of the angle between the ray and the axis
  if (!(k2 > 1e-10 * aa * dd)) return ray_vs_capsule(capsule, Ray<double>{start, dir, 0.0, tmax});
  // The quadratics below lose digits with the start's distance over the radius: they start
  // where the ray can first reach the capsule's bounding ball, `skip` along it.
  const Vec3d middle = (capsule.a + capsule.b) * 0.5;
  const double ball = capsule.radius + 0.5 * std::sqrt(aa);
  const double skip = max(0.0, dot(middle - start, dir) / dd - ball / std::sqrt(dd));
  const Vec3d origin = start + dir * skip;
  const Vec3d from_a = origin - capsule.a;
  const double af = dot(axis, from_a);
  const double r = capsule.radius;
  const double k1 = aa * dot(from_a, dir) - af * ad;
  const double k0 = aa * dot(from_a, from_a) - af * af - r * r * aa;
  const double h = k1 * k1 - k2 * k0;
  if (h < 0) return out;  // the line misses the infinite cylinder
  double t = (-k1 - std::sqrt(h)) / k2;
  const double y = af + t * ad;  // along the axis, times |axis|, where the cylinder is entered
  Vec3d centre;
  if (y > 0 && y < aa) {
    centre = capsule.a + axis * (y / aa);
  } else {
    centre = y <= 0 ? capsule.a : capsule.b;
    const Vec3d f = origin - centre;
    const double b = dot(f, dir), hb = b * b - dd * (dot(f, f) - r * r);
    if (hb < 0) return out;
    t = (-b - std::sqrt(hb)) / dd;
  }
  t += skip;
  if (!(t >= 0 && t <= tmax)) return out;  // behind the start (the start is outside) or too far
  out.hit = true;
  out.t = t;
  out.point = start + dir * t;
  out.normal = normalize(out.point - centre);
  return out;
}

/// The first contact found so far: the hit in T, the limit of the search (its distance, or
/// max_distance), and its distance before rounding to T, which decides between features whose
/// contacts round to the same T. A contact counts when its distance rounded to T is within the
/// limit, so that the same sweep limited to its own distance meets it again.
template <Real T>
struct FirstContact {
  SweepHit<T> hit;
  T reach;
  double exact = std::numeric_limits<double>::infinity();

  explicit FirstContact(T max_distance) : reach(max_distance) {}
  void take(double s, Vec3d point, Vec3d normal) {
    if (!(s < exact) || !within_sweep(T(s), reach)) return;
    hit = hit_at(T(s), vec3_cast<T>(point), vec3_cast<T>(normal));
    reach = hit.distance;
    exact = s;
  }
};

/// The moving segment [moving.a, moving.b] of radius moving.radius against a target segment of
/// radius target_radius, feature by feature: the moving ends against the target grown by both
/// radii (rays; the ends of `moving_ends`, bit 0 for a, bit 1 for b), the target's ends against
/// the moving segment grown likewise (rays along -direction; only its first end when
/// `first_end_only`, for a face whose corners each begin an edge), and the insides of the two
/// segments (their lines moving.radius + target_radius apart). The pair's features all lie in
/// the slab of its lines (segment_meets_edge): a path that never enters it in time meets none,
/// and one that enters it across both insides meets them there first.
/// Keeps in `best` the first contact before it (point on the target's surface, normal from the
/// target towards the moving shape). In double whatever T: a ray grazing a rounded part loses
/// half its digits along the ray, and in float that would put the normal a few 1e-4 off.
template <Real T>
void segment_features(const Capsule<double>& moving, Vec3d direction, Segment<T> target_t, T target_radius,
                      unsigned moving_ends, bool first_end_only, FirstContact<T>& best) {
  const Segment<double> target = to_double(target_t);
  const double r2 = double(target_radius), grown = moving.radius + r2;
  // Rays reach a little past `reach` (more than one ulp of T): a contact that rounds to it is
  // still seen.
  const auto ray_limit = [&] { return double(best.reach) * (1 + 4 * double(kEpsilon<T>)); };
  // The slab of the two lines first: it rejects the pair, or gives its first contact, without a ray.
  const LineContact l =
      segment_meets_edge(moving.a, moving.b - moving.a, target.a, target.b - target.a, grown, direction, ray_limit());
  if (l.kind == LineContact::never) return;
  if (l.kind == LineContact::across) {
    best.take(l.s, l.point + l.normal * r2, l.normal);
    return;
  }
  if (!(grown > 0)) return;
  for (int k = 0; k < 2; ++k) {
    if (((moving_ends >> k) & 1u) == 0) continue;
    const Vec3d end = k == 0 ? moving.a : moving.b;
    const RayHit<double> h = entry_into_capsule(Capsule<double>{target.a, target.b, grown}, end, direction, ray_limit());
    if (h) best.take(h.t, h.point - h.normal * moving.radius, h.normal);
  }
  const Capsule<double> moving_grown{moving.a, moving.b, grown};
  for (int k = 0; k < (first_end_only ? 1 : 2); ++k) {
    const Vec3d end = k == 0 ? target.a : target.b;
    const RayHit<double> h = entry_into_capsule(moving_grown, end, -direction, ray_limit());
    if (h) best.take(h.t, end - h.normal * r2, -h.normal);
  }
}

/// A flat target (triangle, polygon) met by the capsule, exactly: the first contact is the first
/// of an end of the segment reaching the face (the slab of half width r over it), an end reaching
/// an edge (a ray against the capsule of radius r around it), a corner reaching the segment (a ray
/// from the corner, backwards, against the capsule) and the segment's inside meeting an edge's
/// inside. Those are the features of the sum of the target, the reversed segment and the ball, so
/// the least of them is the first contact. Nothing meets the target before some point of the
/// capsule reaches the slab, first the lower end (of a segment off the plane): when that end
/// lands on the face, no other feature is looked at.
template <Real T, class FaceOf, class StartContact>
SweepHit<T> sweep_flat(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Vec3<T>* corners,
                       int corner_count, T limit, FaceOf face_of, StartContact start) {
  const T r = moving.radius;
  // The target's ball (its corners' centroid and farthest corner) against the ball around the
  // capsule moving along the path: apart all the way, the sweep misses, before the face's
  // normal is worked out.
  Vec3<T> centre{};
  for (int i = 0; i < corner_count; ++i) centre += corners[i];
  centre = centre * (T(1) / T(corner_count));
  T radius_squared = 0;
  for (int i = 0; i < corner_count; ++i) radius_squared = max(radius_squared, length_squared(corners[i] - centre));
  const T target_radius = std::sqrt(radius_squared);
  const Vec3<T> middle = (moving.a + moving.b) * T(0.5);
  const T moving_reach = ball_radius(moving) + limit;  // the capsule's ball, and the tolerance
  if (detail::balls_stay_apart(middle, direction, max_distance, centre, target_radius + moving_reach)) return {};
  const detail::FlatTarget<T> face = face_of();
  const Vec3<T> n = face.n;
  const Vec3<T> ends[2] = {moving.a, moving.b};
  const T height[2] = {dot(n, moving.a) - face.offset, dot(n, moving.b) - face.offset};
  const bool one_side = face.has_plane() && height[0] * height[1] > T(0);
  const T lowest = min(std::abs(height[0]), std::abs(height[1]));
  // Apart at the start: off the plane on one side farther than r + limit, or the segment farther
  // than that from the target's ball.
  const T ball_gap = distance(closest_point_on_segment(Segment<T>{moving.a, moving.b}, centre), centre) - target_radius;
  if (!(one_side && lowest > r + limit) && !(ball_gap > (r + limit) * T(1.0001))) {
    const Contact<T> c = start();
    if (c.touching) return started_in_contact(c);
  }
  FirstContact<T> best(max_distance);  // nothing beyond the best contact found so far is looked for
  unsigned ends_to_edges = 3;            // the ends whose rays against the edges' capsules count
  if (face.has_plane()) {
    if (one_side && lowest > r) {
      // The whole capsule outside the slab: it must approach the plane, and reach it in time.
      const T side = height[0] < T(0) ? T(-1) : T(1);
      const T approach = -side * dot(n, direction);
      if (!(approach > T(0))) return {};
      if (!within_sweep((lowest - r) / approach, max_distance)) return {};
    }
    // Each end reaching the face, the lower first. An end whose ball lands on the face, or stays
    // out of the slab, meets no edge before (the edges lie in the slab): its edge rays are left out.
    const int first = std::abs(height[0]) <= std::abs(height[1]) ? 0 : 1;
    for (const int k : {first, 1 - first}) {
      const T h = std::abs(height[k]);
      if (!(h > r)) continue;
      const T side = height[k] < T(0) ? T(-1) : T(1);
      const T approach = -side * dot(n, direction);
      const T s = (h - r) / approach;
      if (!(approach > T(0)) || !within_sweep(s, best.reach)) {
        ends_to_edges &= ~(1u << k);
        continue;
      }
      const Vec3<T> normal = n * side;
      const Vec3<T> on_plane = ends[k] + direction * s - normal * r;
      if (!face.inside(on_plane)) continue;
      best.take(double(s), vec3_cast<double>(on_plane), vec3_cast<double>(normal));
      ends_to_edges &= ~(1u << k);
      if (k == first && one_side && lowest > r) return best.hit;  // the lower end, first into the slab
    }
  }
  const Capsule<double> moving_d = to_double(moving);
  const Vec3d direction_d = vec3_cast<double>(direction);
  for (int i = 0; i < face.count; ++i) {
    const Segment<T> edge = face.edge(i);
    // The edge's ball against the capsule's ball moving along the path (as for the whole target).
    if (detail::balls_stay_apart(middle, direction, best.reach, (edge.a + edge.b) * T(0.5),
                                 T(0.5) * distance(edge.a, edge.b) + moving_reach)) {
      continue;
    }
    segment_features(moving_d, direction_d, edge, T(0), ends_to_edges, true, best);
  }
  return best.hit;
}

}  // namespace

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Sphere<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  // contact() has the sphere as A: its normal runs from the capsule to the sphere, and its
  // point_on_a is the sphere's point facing the capsule.
  const Contact<T> start = contact(target, moving, T(0), tol);
  if (start.touching) return started_in_contact(Contact<T>{true, start.point_on_b, start.point_on_a, -start.normal, start.depth});
  const Capsule<T> grown{moving.a, moving.b, moving.radius + target.radius};
  const RayHit<T> h = ray_vs_capsule(grown, Ray<T>{target.center, -direction, T(0), max_distance});
  if (!h) return {};
  // The ray's normal points out of the grown capsule, from M towards the target.
  const Vec3<T> normal = -h.normal;
  return hit_at(h.t, target.center + normal * target.radius, normal);
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Capsule<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  FirstContact<T> best(max_distance);
  segment_features(to_double(moving), vec3_cast<double>(direction), Segment<T>{target.a, target.b}, target.radius, 3u,
                   false, best);
  return best.hit;
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Obb<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  if (detail::balls_stay_apart((moving.a + moving.b) * T(0.5), direction, max_distance, target.center,
                               length(target.half_extents) + ball_radius(moving) + pair_limit(moving, target, tol))) {
    return {};
  }
  if (!detail::SweepCorridor(moving, direction)
           .may_touch(vec3_cast<double>(target.center), detail::box_half_width(target),
                      double(pair_limit(moving, target, tol)))) {
    return {};
  }
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  return advance(moving, direction, max_distance, ConvexSupport::from(target), T(0),
                            pair_limit(moving, target, tol));
}

// No contact kernel covers a capsule against a cylinder: the start is read from the GJK distance
// of the segment and the cylinder. While the segment stays out of the cylinder that is the
// contact (normal between the closest points, depth = radius - distance); once it enters the
// cylinder there are no closest points, and the contact reported is the way back along the
// path: normal -direction, depth how far back the capsule must move to just touch.
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Cylinder<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T limit = pair_limit(moving, target, tol);
  const T half_axis = T(0.5) * distance(target.a, target.b);
  if (detail::balls_stay_apart((moving.a + moving.b) * T(0.5), direction, max_distance, (target.a + target.b) * T(0.5),
                               std::sqrt(half_axis * half_axis + target.radius * target.radius) + ball_radius(moving) + limit)) {
    return {};
  }
  if (!detail::SweepCorridor(moving, direction)
           .may_touch(detail::cylinder_centre(target), detail::cylinder_half_width(target), double(limit))) {
    return {};
  }
  const ConvexSupport cylinder = ConvexSupport::from(target);
  const Segment<double> core = to_double(Segment<T>{moving.a, moving.b});
  const GjkDistance g = detail::core_distance(core, cylinder);
  if (g.distance - moving.radius <= limit) {
    Contact<T> c;
    c.touching = true;
    if (g.distance > 0) {
      c.normal = normalize(vec3_cast<T>(g.point_on_a - g.point_on_b));
      c.point_on_b = vec3_cast<T>(g.point_on_b);
      c.depth = static_cast<T>(moving.radius - g.distance);
    } else {
      const Vec3d back = -normalize(vec3_cast<double>(direction));
      const double depth = detail::backtrack_depth(core, moving.radius, cylinder, vec3_cast<double>(direction));
      const Vec3d offset = back * depth;
      c.normal = vec3_cast<T>(back);
      c.point_on_b = vec3_cast<T>(detail::core_distance({core.a + offset, core.b + offset}, cylinder).point_on_b);
      c.depth = static_cast<T>(depth);
    }
    return started_in_contact(c);
  }
  return advance(moving, direction, max_distance, cylinder, T(0), limit, &g);
}

// Exact: the signed distances of the segment's ends are linear in s, so the end nearer the plane
// meets it first (both at once when the segment is parallel to it, the middle then reported).
// A segment that reaches the plane gives the face-normal start of contact_triangle.hpp: the
// normal towards the side of the segment's centre (the front when it lies in the plane), the
// depth the radius plus how far the lower end lies beyond the plane.
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T scale = length(target.normal);
  const Vec3<T> n = target.normal / scale;
  const T offset = target.offset / scale;
  const T da = dot(n, moving.a) - offset, db = dot(n, moving.b) - offset;
  const T r = moving.radius, limit = tol.at_size(size_of(moving));
  const T side = da + db < T(0) ? T(-1) : T(1);
  const Vec3<T> normal = n * side;
  const T near_a = side * da, near_b = side * db;  // heights above the plane on the centre's side
  const T lowest = min(near_a, near_b);
  // The end the plane meets first, or the middle of a segment parallel to it.
  const Vec3<T> low_point =
      std::abs(near_a - near_b) <= limit ? (moving.a + moving.b) * T(0.5) : (near_a < near_b ? moving.a : moving.b);
  if (lowest - r <= limit) {
    Vec3<T> on_plane = low_point - normal * lowest;
    if (da * db < T(0)) on_plane = moving.a + (moving.b - moving.a) * (da / (da - db));  // where it crosses
    SweepHit<T> hit = hit_at(T(0), on_plane, normal);
    hit.started_in_contact = true;
    hit.depth = max(r - lowest, T(0));
    return hit;
  }
  const T approach = -dot(normal, direction);
  if (!(approach > T(0))) return {};
  const T s = (lowest - r) / approach;
  if (!within_sweep(s, max_distance)) return {};
  return hit_at(s, low_point + direction * s - normal * r, normal);
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Triangle<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const detail::TriangleCorners<T> corners(target);
  return sweep_flat(moving, direction, max_distance, corners.v, 3, pair_limit(moving, target, tol),
                    [&] { return corners.target(); },
                    [&] { return contact(moving, target, T(0), tol); });
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const ConvexPolygon<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const auto v = target.vertices();
  return sweep_flat(moving, direction, max_distance, v.data(), static_cast<int>(v.size()), pair_limit(moving, target, tol),
                    [&] { return detail::flat_target(target); },
                    [&] { return detail::polygon_contact(moving, target, tol); });
}

#define HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Target)                                                   \
  template SweepHit<T> capsule_cast(const Capsule<T>&, Vec3<T>, T, const Target<T>&, ContactTolerance<T>);
#define HITSCAN_INSTANTIATE_CAPSULE_CASTS(T)            \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Sphere)           \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Capsule)          \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Obb)              \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Cylinder)         \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Plane)            \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Triangle)         \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, ConvexPolygon)

HITSCAN_INSTANTIATE_CAPSULE_CASTS(float)
HITSCAN_INSTANTIATE_CAPSULE_CASTS(double)
#undef HITSCAN_INSTANTIATE_CAPSULE_CASTS
#undef HITSCAN_INSTANTIATE_CAPSULE_CAST

}  // namespace hitscan
