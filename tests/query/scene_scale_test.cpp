// Every scene query answers a scene scaled by k as it answers the same scene at scale 1, scaled by
// k: hit or miss, collider, distance, point, normals, contact depths and overlap sets. Colliders of
// every kind are scaled either by their transform (unit shapes, Transformf{R, c * k, {k, k, k}})
// or by their own parameters (shapes built k times larger, the transform's scale 1); the queries
// are scaled with them (origins, centres, radii, half extents, distance limits; directions kept).
// k runs over the powers of ten from 1e-9 to the largest that keeps the scene and the queries
// within ±kMaxCoordinate (scalar.hpp's working range).
//
// Every probe is placed so that its answer at scale 1 is unambiguous: colliders stand apart on a
// 3 x 3 grid, rays and sweeps aim well inside one of them, overlaps reach into one by a quarter of
// a unit. Where the answer is a tie by construction (the triangle of a mesh hit on an edge or
// vertex, the face normal at a box's edge) only the unambiguous fields are compared.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/math/scalar.hpp"
#include "hitscan/query/scene.hpp"
#include "mesh/mesh_test_meshes.hpp"
#include "support/scale_answers.hpp"

namespace hitscan {
namespace {

using test::largest_scale;
using test::length_agrees;
using test::point_agrees;
using test::scaled;
using test::show;
using test::show_scaled;

constexpr double kRelative = test::kScaleRelative;
constexpr double kNormalDot = test::kScaleNormalDot;
constexpr float kMaxDistanceProbe = 8.5f;

// ---------------------------------------------------------------------------------------------
// The scene at unit scale.

enum class Kind { sphere, box, capsule, cylinder, plane, polygon, hull, mesh, none };

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::sphere:
      return "sphere";
    case Kind::box:
      return "box";
    case Kind::capsule:
      return "capsule";
    case Kind::cylinder:
      return "cylinder";
    case Kind::plane:
      return "plane";
    case Kind::polygon:
      return "polygon";
    case Kind::hull:
      return "hull";
    case Kind::mesh:
      return "mesh";
    case Kind::none:
      return "nothing";
  }
  return "?";
}

bool is_solid_kind(Kind kind) {
  return kind == Kind::sphere || kind == Kind::box || kind == Kind::capsule || kind == Kind::cylinder ||
         kind == Kind::hull;
}

// Whether the surface normal at a sweep's or closest point's contact is the same wherever the
// contact lies on the collider (smooth or flat): boxes, cylinders and hulls have edges, where it is
// a tie, and meshes are decided per hit by the barycentrics.
bool face_normal_is_unique(Kind kind) {
  return kind == Kind::sphere || kind == Kind::capsule || kind == Kind::plane || kind == Kind::polygon;
}

std::uint64_t user_id_of(Kind kind) { return 100 + static_cast<std::uint64_t>(kind); }

Kind kind_of(std::uint64_t user_id) {
  return user_id >= 100 && user_id < 100 + static_cast<std::uint64_t>(Kind::none) ? static_cast<Kind>(user_id - 100)
                                                                                  : Kind::none;
}

// One collider per grid cell, 5 apart, its local frame at `centre` turned by `rotation`; the
// plane's cell is the middle one (the plane lies below the whole grid), one cell is empty.
struct Slot {
  Kind kind;
  Vec3f centre;
  Quatf rotation;
};

const std::vector<Slot>& slots() {
  static const std::vector<Slot> s = {
      {Kind::sphere, {-5, -5, 0.3f}, Quatf::from_euler({0.3f, -0.2f, 0.5f})},
      {Kind::box, {0, -5, -0.4f}, Quatf::from_euler({0.5f, 0.35f, -0.6f})},
      {Kind::capsule, {5, -5, 0.2f}, Quatf::from_euler({0.9f, 0.4f, 0.2f})},
      {Kind::cylinder, {-5, 0, -0.2f}, Quatf::from_euler({-0.7f, 0.5f, 0.3f})},
      {Kind::plane, {0, 0, -3.5f}, Quatf::from_euler({0.05f, -0.1f, 0.0f})},
      {Kind::polygon, {5, 0, 0.5f}, Quatf::from_euler({0.45f, -0.3f, 0.8f})},
      {Kind::hull, {-5, 5, 0.1f}, Quatf::from_euler({0.25f, 0.6f, -0.4f})},
      {Kind::mesh, {0, 5, -0.3f}, Quatf::from_euler({-0.35f, 0.2f, 1.1f})},
      {Kind::none, {5, 5, 0}, Quatf::identity()},
  };
  return s;
}

// Local-frame offsets the probes use: a point inside every solid (within 0.2 of the centre), a
// direction out of it that crosses the polygon's and the plane's cell surfaces, and the direction
// of a point 1.6 away, outside every collider.
constexpr Vec3f kInsideOffset{0.11f, -0.07f, 0.13f};
constexpr Vec3f kInsideDirection{0.3f, 0.5f, -0.8f};
constexpr Vec3f kOutsideOffset{1.3f, 0.4f, 0.6f};

const std::vector<Vec3f>& hexagon() {
  static const std::vector<Vec3f> v = [] {
    const float radii[6] = {1.0f, 0.9f, 1.0f, 0.95f, 1.05f, 0.9f};
    std::vector<Vec3f> out;
    for (int i = 0; i < 6; ++i) {
      const float a = static_cast<float>(i) * kPi<float> / 3.0f + 0.1f;
      out.push_back({radii[i] * std::cos(a), radii[i] * std::sin(a), 0.0f});
    }
    return out;
  }();
  return v;
}

// A box of ±0.75 x ±0.65 x ±0.7 with a tip over each face: the hull holds the ball of 0.65.
const std::vector<Vec3f>& hull_points() {
  static const std::vector<Vec3f> v = [] {
    std::vector<Vec3f> out;
    for (int i = 0; i < 8; ++i) out.push_back({i & 1 ? 0.75f : -0.75f, i & 2 ? 0.65f : -0.65f, i & 4 ? 0.7f : -0.7f});
    const Vec3f tips[6] = {{1.1f, 0.05f, 0.0f},  {-1.0f, 0.0f, 0.1f}, {0.0f, 1.05f, 0.05f},
                           {0.05f, -1.1f, 0.0f}, {0.0f, 0.1f, 1.0f},  {0.1f, 0.0f, -1.05f}};
    for (const Vec3f& t : tips) out.push_back(t);
    return out;
  }();
  return v;
}

const TriangleMesh& unit_mesh() {
  static const std::shared_ptr<const TriangleMesh> m = test::icosphere(1, 1.0f);
  return *m;
}

// ---------------------------------------------------------------------------------------------
// Scaling.


enum class Sizing { by_transform, by_shape };

const char* sizing_name(Sizing s) {
  return s == Sizing::by_transform ? "colliders scaled by their transform" : "shapes built scaled";
}

// The collider of a slot at scale k, with its shape multiplied by `s` (1 or k).
ColliderShape local_shape(Kind kind, double s) {
  switch (kind) {
    case Kind::sphere:
      return Spheref{scaled(Vec3f{0.1f, -0.1f, 0.05f}, s), scaled(1.0f, s)};
    case Kind::box:
      return Obbf{scaled(Vec3f{0.05f, 0.0f, -0.05f}, s), scaled(Vec3f{1.0f, 0.7f, 0.5f}, s),
                  Mat3f::from_quat(Quatf::from_euler({0.2f, 0.1f, -0.3f}))};
    case Kind::capsule:
      return Capsulef{scaled(Vec3f{0, 0, -0.8f}, s), scaled(Vec3f{0, 0, 0.8f}, s), scaled(0.5f, s)};
    case Kind::cylinder:
      return Cylinderf{scaled(Vec3f{0, 0, -0.8f}, s), scaled(Vec3f{0, 0, 0.8f}, s), scaled(0.7f, s)};
    case Kind::plane:
      return Planef{{0, 0, 1}, scaled(-0.5f, s)};
    case Kind::polygon: {
      std::vector<Vec3f> v;
      for (const Vec3f& p : hexagon()) v.push_back(scaled(p, s));
      Result<ConvexPolygonf> polygon = ConvexPolygonf::make(v);
      EXPECT_TRUE(polygon.ok()) << "polygon at scale " << s << ": " << polygon.status().message();
      return polygon.ok() ? ColliderShape{polygon.value()} : ColliderShape{Spheref{}};
    }
    case Kind::hull: {
      std::vector<Vec3f> v;
      for (const Vec3f& p : hull_points()) v.push_back(scaled(p, s));
      Result<ConvexHullf> hull = ConvexHullf::make(v);
      EXPECT_TRUE(hull.ok()) << "hull at scale " << s << ": " << hull.status().message();
      return hull.ok() ? ColliderShape{std::make_shared<const ConvexHullf>(hull.value())} : ColliderShape{Spheref{}};
    }
    case Kind::mesh: {
      std::vector<Vec3f> v;
      for (const Vec3f& p : unit_mesh().positions()) v.push_back(scaled(p, s));
      std::vector<TriangleMesh::Indices> t(unit_mesh().triangles().begin(), unit_mesh().triangles().end());
      auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(v), std::move(t)).value());
      return std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
    }
    case Kind::none:
      break;
  }
  return Spheref{};
}

ColliderDesc collider_at_scale(const Slot& slot, double k, Sizing sizing) {
  ColliderDesc d;
  const float ks = static_cast<float>(k);
  d.shape = local_shape(slot.kind, sizing == Sizing::by_shape ? k : 1.0);
  d.transform.rotation = slot.rotation;
  d.transform.translation = scaled(slot.centre, k);
  d.transform.scale = sizing == Sizing::by_transform ? Vec3f{ks, ks, ks} : Vec3f{1, 1, 1};
  d.user_id = user_id_of(slot.kind);
  return d;
}

Scene scene_at_scale(double k, Sizing sizing) {
  Scene scene;
  for (const Slot& slot : slots()) {
    if (slot.kind == Kind::none) continue;
    const Result<ColliderId> id = scene.add(collider_at_scale(slot, k, sizing));
    EXPECT_TRUE(id.ok()) << "k=" << k << ", " << sizing_name(sizing) << ": adding the " << kind_name(slot.kind)
                         << " failed: " << id.status().message();
  }
  scene.commit();
  return scene;
}

QueryOptions scaled(QueryOptions o, double k) {
  o.max_distance = scaled(o.max_distance, k);
  return o;
}
QueryRay scaled(QueryRay r, double k) { return {scaled(r.origin, k), r.direction, scaled(r.max_distance, k)}; }
Spheref scaled(const Spheref& s, double k) { return {scaled(s.center, k), scaled(s.radius, k)}; }
Capsulef scaled(const Capsulef& c, double k) { return {scaled(c.a, k), scaled(c.b, k), scaled(c.radius, k)}; }
Obbf scaled(const Obbf& b, double k) { return {scaled(b.center, k), scaled(b.half_extents, k), b.rotation}; }
SphereSweep scaled(const SphereSweep& s, double k) {
  return {scaled(s.sphere, k), s.direction, scaled(s.max_distance, k)};
}
CapsuleSweep scaled(const CapsuleSweep& s, double k) {
  return {scaled(s.capsule, k), s.direction, scaled(s.max_distance, k)};
}
BoxSweep scaled(const BoxSweep& s, double k) { return {scaled(s.box, k), s.direction, scaled(s.max_distance, k)}; }

// ---------------------------------------------------------------------------------------------
// The probes, at unit scale.

// What the probe's answer at scale 1 must be, so that the test cannot pass by missing everywhere.
enum class Expect { miss, hit, started_inside, exit };

struct RayProbe {
  std::string name;
  Kind target;
  QueryRay ray;
  QueryOptions options;
  Expect expect;
};

using Sweep = std::variant<SphereSweep, CapsuleSweep, BoxSweep>;
struct SweepProbe {
  std::string name;
  Kind target;
  Sweep sweep;
  QueryOptions options;
  Expect expect;  // hit: the target, started inside or not
};

using OverlapShape = std::variant<Spheref, Obbf, Capsulef>;
struct OverlapProbe {
  std::string name;
  OverlapShape shape;
  std::vector<Kind> expect;  // at least these (the one-collider probes: exactly this one)
  bool exactly = true;
};

struct PointProbe {
  std::string name;
  Kind target;
  Vec3f point;
  QueryOptions options;
  Expect expect;
};

struct Probes {
  std::vector<RayProbe> rays;
  std::vector<SweepProbe> sweeps;
  std::vector<OverlapProbe> overlaps;
  std::vector<PointProbe> points;
  std::vector<QueryRay> grid;     // an 8 x 8 tile of rays per cell, 64 consecutive each
  std::vector<Kind> grid_target;  // which collider each ray of the grid must hit at scale 1
};

Vec3f world_offset(const Slot& s, Vec3f local) { return s.centre + s.rotation.rotate(local); }
Vec3f outside_point(const Slot& s) { return world_offset(s, normalize(kOutsideOffset) * 1.6f); }

QueryOptions with_solid(bool solid) {
  QueryOptions o;
  o.solid = solid;
  return o;
}
QueryOptions with_max_distance(float d) {
  QueryOptions o;
  o.max_distance = d;
  return o;
}

Probes make_probes() {
  Probes p;
  // The overlap probes are sized from the distance of the outside point to its collider.
  const Scene unit = scene_at_scale(1.0, Sizing::by_transform);
  const Quatf box_rotation = Quatf::from_euler({0.3f, 0.2f, 0.5f});
  for (const Slot& s : slots()) {
    const Vec3f c = s.centre;
    const Kind t = s.kind;
    // Nearly straight down from z = 6 through a point 0.1 from the centre: the cell's collider
    // first (its inner ball of 0.43 is in the way), then the plane below.
    const Vec3f from_above{c.x + 0.13f, c.y - 0.21f, 6.0f};
    const Vec3f down = (c + Vec3f{0.05f, 0.08f, 0.0f}) - from_above;
    if (t == Kind::none) {
      p.rays.push_back({"raycast down through the empty cell", Kind::plane, {from_above, down}, {}, Expect::hit});
      p.rays.push_back(
          {"raycast up from the empty cell", Kind::none, {from_above, {0.1f, -0.05f, 1.0f}}, {}, Expect::miss});
      p.sweeps.push_back({"sphere_cast up from the empty cell",
                          Kind::none,
                          SphereSweep{{from_above, 0.4f}, {0.02f, -0.03f, 1.0f}},
                          {},
                          Expect::miss});
      p.sweeps.push_back(
          {"capsule_cast up from the empty cell",
           Kind::none,
           CapsuleSweep{{from_above - Vec3f{0.3f, 0, 0}, from_above + Vec3f{0.3f, 0, 0}, 0.25f}, {0.0f, 0.02f, 1.0f}},
           {},
           Expect::miss});
      p.sweeps.push_back({"box_cast up from the empty cell",
                          Kind::none,
                          BoxSweep{Obbf::from_quat(from_above, {0.3f, 0.25f, 0.2f}, box_rotation), {0.01f, 0, 1.0f}},
                          {},
                          Expect::miss});
      const Vec3f empty{c.x, c.y, 2.0f};
      p.overlaps.push_back({"overlap_sphere in the empty cell", Spheref{empty, 0.5f}, {}});
      p.overlaps.push_back(
          {"overlap_box in the empty cell", Obbf::from_quat(empty, {0.6f, 0.5f, 0.4f}, box_rotation), {}});
      p.overlaps.push_back({"overlap_capsule in the empty cell",
                            Capsulef{empty - Vec3f{0.4f, 0, 0}, empty + Vec3f{0.4f, 0, 0}, 0.5f},
                            {}});
      p.points.push_back(
          {"closest_point in the empty cell within 1", Kind::none, empty, with_max_distance(1.0f), Expect::miss});
      p.points.push_back(
          {"closest_point low in the empty cell, unlimited", Kind::plane, Vec3f{c.x, c.y, -2.5f}, {}, Expect::hit});
    } else {
      const std::string on = std::string(" (") + kind_name(t) + ")";
      p.rays.push_back({"raycast from above" + on, t, {from_above, down}, {}, Expect::hit});
      p.rays.push_back({"raycast from above, ray max_distance 2" + on, t, {from_above, down, 2.0f}, {}, Expect::miss});
      p.rays.push_back({"raycast from above, options max_distance 2" + on,
                        t,
                        {from_above, down},
                        with_max_distance(2.0f),
                        Expect::miss});
      p.rays.push_back({"raycast from above, options max_distance 8.5" + on,
                        t,
                        {from_above, down},
                        with_max_distance(kMaxDistanceProbe),
                        t == Kind::plane ? Expect::miss : Expect::hit});
      const Vec3f inside = world_offset(s, kInsideOffset);
      const Vec3f out = s.rotation.rotate(kInsideDirection);
      const bool solid = is_solid_kind(t);
      p.rays.push_back({"raycast from inside, solid" + on,
                        t,
                        {inside, out},
                        with_solid(true),
                        solid ? Expect::started_inside : Expect::hit});
      p.rays.push_back({"raycast from inside, not solid" + on,
                        t,
                        {inside, out},
                        with_solid(false),
                        solid ? Expect::exit : Expect::hit});

      const Vec3f sweep_from{c.x + 0.1f, c.y - 0.15f, 5.0f};
      const SphereSweep sphere{{sweep_from, 0.4f}, {0.02f, -0.03f, -1.0f}};
      const CapsuleSweep capsule{{{c.x - 0.3f, c.y + 0.1f, 5.0f}, {c.x + 0.3f, c.y - 0.05f, 5.1f}, 0.25f},
                                 {-0.02f, 0.01f, -1.0f}};
      const BoxSweep box{Obbf::from_quat({c.x - 0.05f, c.y + 0.1f, 5.0f}, {0.3f, 0.25f, 0.2f}, box_rotation),
                         {0.01f, 0.02f, -1.0f}};
      p.sweeps.push_back({"sphere_cast from above" + on, t, sphere, {}, Expect::hit});
      p.sweeps.push_back({"capsule_cast from above" + on, t, capsule, {}, Expect::hit});
      p.sweeps.push_back({"box_cast from above" + on, t, box, {}, Expect::hit});
      SphereSweep short_sphere = sphere;
      short_sphere.max_distance = 2.0f;
      CapsuleSweep short_capsule = capsule;
      short_capsule.max_distance = 2.0f;
      p.sweeps.push_back({"sphere_cast from above, sweep max_distance 2" + on, t, short_sphere, {}, Expect::miss});
      p.sweeps.push_back({"capsule_cast from above, sweep max_distance 2" + on, t, short_capsule, {}, Expect::miss});
      p.sweeps.push_back(
          {"box_cast from above, options max_distance 2" + on, t, box, with_max_distance(2.0f), Expect::miss});
      // Starting in contact: inside a solid, across the polygon, above the plane (not touching).
      const Vec3f down_a_bit{0.2f, 0.1f, -1.0f};
      p.sweeps.push_back(
          {"sphere_cast starting inside" + on, t, SphereSweep{{inside, 0.3f}, down_a_bit}, {}, Expect::hit});
      p.sweeps.push_back(
          {"capsule_cast starting inside" + on,
           t,
           CapsuleSweep{{inside - Vec3f{0.1f, 0.05f, 0}, inside + Vec3f{0.1f, 0.05f, 0}, 0.2f}, down_a_bit},
           {},
           Expect::hit});
      p.sweeps.push_back({"box_cast starting inside" + on,
                          t,
                          BoxSweep{Obbf::from_quat(inside, {0.2f, 0.15f, 0.25f}, box_rotation), down_a_bit},
                          {},
                          Expect::hit});

      // Overlaps reaching into the collider from a point 1.6 from its centre.
      const Vec3f q = outside_point(s);
      const QueryHit near = unit.closest_point(q);
      EXPECT_TRUE(near.hit && near.user_id == user_id_of(t)) << "closest point of " << kind_name(t);
      const float d = near.distance;
      const Vec3f w = normalize(Vec3f{0.3f, -0.8f, 0.5f});
      p.overlaps.push_back({"overlap_sphere reaching 0.25 in" + on, Spheref{q, d + 0.25f}, {t}});
      p.overlaps.push_back(
          {"overlap_box reaching in" + on,
           Obbf::from_quat(q, Vec3f{1.0f, 0.9f, 0.95f} * (d + 0.3f), Quatf::from_euler({0.4f, -0.25f, 0.7f})),
           {t}});
      p.overlaps.push_back({"overlap_capsule reaching in" + on, Capsulef{q - w * 0.3f, q + w * 0.3f, d + 0.2f}, {t}});

      p.points.push_back({"closest_point from outside" + on, t, q, {}, Expect::hit});
      p.points.push_back({"closest_point from outside within half the distance" + on, t, q, with_max_distance(0.5f * d),
                          Expect::miss});
      p.points.push_back({"closest_point from outside within 1.5 times the distance" + on, t, q,
                          with_max_distance(1.5f * d), Expect::hit});
      p.points.push_back({"closest_point from inside, solid" + on, t, inside, with_solid(true),
                          solid ? Expect::started_inside : Expect::hit});
      p.points.push_back({"closest_point from inside, not solid" + on, t, inside, with_solid(false), Expect::hit});
    }
    // The 8 x 8 tile: from one point above the cell through a grid of ±0.2 around its centre,
    // each ray within 0.3 of it, well inside the collider's inner ball.
    const Vec3f eye{c.x + 0.05f, c.y - 0.03f, 6.0f};
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j < 8; ++j) {
        const Vec3f target = c + Vec3f{-0.2f + 0.4f * (static_cast<float>(i) + 0.5f) / 8.0f,
                                       -0.2f + 0.4f * (static_cast<float>(j) + 0.5f) / 8.0f, 0.0f};
        p.grid.push_back({eye, target - eye});
        p.grid_target.push_back(t == Kind::none ? Kind::plane : t);
      }
    }
  }
  // Between the rows, level: nothing (the plane falls away along -x).
  p.rays.push_back(
      {"raycast level between the rows", Kind::none, {{9.0f, 2.5f, 0.0f}, {-1.0f, 0.02f, 0.0f}}, {}, Expect::miss});
  // Several colliders at once.
  p.overlaps.push_back({"overlap_sphere of radius 5.6 around the middle",
                        Spheref{{0, 0, 0}, 5.6f},
                        {Kind::box, Kind::cylinder, Kind::plane, Kind::polygon, Kind::mesh},
                        false});
  p.overlaps.push_back({"overlap_capsule along the first row",
                        Capsulef{{-5.5f, -2.5f, 0.1f}, {5.5f, -2.4f, -0.1f}, 2.2f},
                        {Kind::sphere, Kind::box, Kind::capsule},
                        false});
  p.overlaps.push_back({"overlap_box across the middle row",
                        Obbf::from_quat({0, 0, 0}, {6.5f, 0.9f, 1.0f}, Quatf::from_euler({0.0f, 0.0f, 0.05f})),
                        {Kind::cylinder, Kind::polygon},
                        false});
  return p;
}

// The extent of the scene and of the probes: the largest coordinate magnitude they bring.
double extent_of(const Probes& p) {
  double e = 0;
  auto grow = [&](Vec3f v, float r) {
    e = std::max({e, std::abs(double(v.x)) + r, std::abs(double(v.y)) + r, std::abs(double(v.z)) + r});
  };
  for (const Slot& s : slots()) {
    if (s.kind == Kind::none || s.kind == Kind::plane) continue;
    WorldShape w;
    EXPECT_TRUE(
        to_world(collider_at_scale(s, 1.0, Sizing::by_transform).shape, {s.rotation, s.centre, {1, 1, 1}}, w).ok());
    const Aabbf b = world_bounds(w);
    grow(b.min, 0), grow(b.max, 0);
  }
  // The plane crosses the grid's middle below it; its nearest point to the origin.
  grow(slots()[4].centre, 0.5f);
  for (const RayProbe& r : p.rays) grow(r.ray.origin, 0);
  for (const QueryRay& r : p.grid) grow(r.origin, 0);
  for (const SweepProbe& s : p.sweeps) {
    std::visit(
        [&](const auto& sweep) {
          using T = std::decay_t<decltype(sweep)>;
          if constexpr (std::is_same_v<T, SphereSweep>) grow(sweep.sphere.center, sweep.sphere.radius);
          if constexpr (std::is_same_v<T, CapsuleSweep>) {
            grow(sweep.capsule.a, sweep.capsule.radius), grow(sweep.capsule.b, sweep.capsule.radius);
          }
          if constexpr (std::is_same_v<T, BoxSweep>) grow(sweep.box.center, length(sweep.box.half_extents));
        },
        s.sweep);
  }
  for (const OverlapProbe& o : p.overlaps) {
    std::visit(
        [&](const auto& shape) {
          using T = std::decay_t<decltype(shape)>;
          if constexpr (std::is_same_v<T, Spheref>) grow(shape.center, shape.radius);
          if constexpr (std::is_same_v<T, Capsulef>) grow(shape.a, shape.radius), grow(shape.b, shape.radius);
          if constexpr (std::is_same_v<T, Obbf>) grow(shape.center, length(shape.half_extents));
        },
        o.shape);
  }
  for (const PointProbe& q : p.points) grow(q.point, 0);
  return e;
}

const Probes& probes() {
  static const Probes p = make_probes();
  return p;
}

// ---------------------------------------------------------------------------------------------
// The answers to every probe.

struct Answers {
  std::vector<QueryHit> raycast;
  std::vector<bool> any;
  std::vector<std::vector<QueryHit>> all;
  std::vector<QueryHit> sweep;
  std::vector<std::vector<OverlapHit>> overlap;
  std::vector<QueryHit> point;
  std::vector<QueryHit> batch;
  std::vector<QueryHit> coherent;
};

Answers ask(const Scene& scene, const Probes& p, double k) {
  Answers a;
  for (const RayProbe& r : p.rays) {
    const QueryRay ray = scaled(r.ray, k);
    const QueryOptions o = scaled(r.options, k);
    a.raycast.push_back(scene.raycast(ray, o));
    a.any.push_back(scene.raycast_any(ray, o));
    a.all.emplace_back();
    scene.raycast_all(ray, a.all.back(), o);
  }
  for (const SweepProbe& s : p.sweeps) {
    const QueryOptions o = scaled(s.options, k);
    a.sweep.push_back(std::visit(
        [&](const auto& sweep) {
          using T = std::decay_t<decltype(sweep)>;
          if constexpr (std::is_same_v<T, SphereSweep>) {
            return scene.sphere_cast(scaled(sweep, k), o);
          } else if constexpr (std::is_same_v<T, CapsuleSweep>) {
            return scene.capsule_cast(scaled(sweep, k), o);
          } else {
            return scene.box_cast(scaled(sweep, k), o);
          }
        },
        s.sweep));
  }
  QueryOptions contacts;
  contacts.contacts = true;
  for (const OverlapProbe& o : p.overlaps) {
    a.overlap.emplace_back();
    std::vector<OverlapHit>& out = a.overlap.back();
    std::visit(
        [&](const auto& shape) {
          using T = std::decay_t<decltype(shape)>;
          if constexpr (std::is_same_v<T, Spheref>) scene.overlap_sphere(scaled(shape, k), out, contacts);
          if constexpr (std::is_same_v<T, Obbf>) scene.overlap_box(scaled(shape, k), out, contacts);
          if constexpr (std::is_same_v<T, Capsulef>) scene.overlap_capsule(scaled(shape, k), out, contacts);
        },
        o.shape);
  }
  for (const PointProbe& q : p.points) a.point.push_back(scene.closest_point(scaled(q.point, k), scaled(q.options, k)));
  std::vector<QueryRay> grid;
  for (const QueryRay& r : p.grid) grid.push_back(scaled(r, k));
  a.batch.resize(grid.size());
  a.coherent.resize(grid.size());
  EXPECT_TRUE(scene.raycast_batch(grid, a.batch).ok());
  EXPECT_TRUE(scene.raycast_coherent_batch(grid, a.coherent).ok());
  return a;
}

// ---------------------------------------------------------------------------------------------
// Comparing an answer at scale k with the answer at scale 1.

// The failures of one test, each under "[sizing] collider / query".
class Report {
 public:
  void fail(double k, Kind kind, const std::string& query, const std::string& detail) {
    report_.fail(k, std::string("[") + sizing_name(sizing_) + "] " + kind_name(kind) + " / " + query, detail);
  }
  void set_sizing(Sizing s) { sizing_ = s; }
  void finish() { report_.finish(); }

 private:
  Sizing sizing_ = Sizing::by_transform;
  test::ScaleReport report_;
};

bool normal_agrees(Vec3f unit, Vec3f got) {
  if (std::abs(length(unit) - 1.0f) > 1e-3f) return length(got) < 0.5f || std::abs(length(got) - 1.0f) < 1e-3f;
  return dot(unit, got) > kNormalDot;
}

// A mesh point whose barycentrics put it this near an edge is a tie between triangles.
bool clear_of_edges(float u, float v) { return min(u, min(v, 1.0f - u - v)) > 1e-4f; }

// Whether a point of the unit-scale mesh collider lies inside triangle i, clear of its edges (its
// deepest triangle is no tie with a neighbour's then).
bool mesh_point_clear_of_edges(std::uint32_t i, Vec3f point) {
  if (i >= unit_mesh().triangle_count()) return true;
  const Slot& slot = *std::find_if(slots().begin(), slots().end(), [](const Slot& s) { return s.kind == Kind::mesh; });
  const Transformf t{slot.rotation, slot.centre, {1, 1, 1}};
  const Trianglef tri = unit_mesh().triangle(i);
  const Vec3f a = t.apply_point(tri.v0), b = t.apply_point(tri.v1), c = t.apply_point(tri.v2);
  const Vec3f n = cross(b - a, c - a);
  const float area = dot(n, n);
  const float u = dot(cross(point - a, c - a), n) / area, v = dot(cross(b - a, point - a), n) / area;
  return clear_of_edges(u, v);
}

struct Compare {
  Report& report;
  double k;

  void length(Kind kind, const std::string& query, const char* field, float unit, float got) const {
    if (!length_agrees(unit, got / k)) {
      report.fail(k, kind, query,
                  std::string(field) + "/k = " + show(got / k) + " (got " + show(got) + "), at k=1: " + show(unit));
    }
  }
  void point(Kind kind, const std::string& query, const char* field, Vec3f unit, Vec3f got) const {
    if (!point_agrees(unit, got, k)) {
      report.fail(
          k, kind, query,
          std::string(field) + "/k = " + show_scaled(got, k) + " (got " + show(got) + "), at k=1: " + show(unit));
    }
  }
  void normal(Kind kind, const std::string& query, const char* field, Vec3f unit, Vec3f got) const {
    if (!normal_agrees(unit, got)) {
      report.fail(k, kind, query, std::string(field) + " = " + show(got) + ", at k=1: " + show(unit));
    }
  }

  // face_normal_unique: whether the surface normal at the hit is the same for every collider
  // feature it might lie on (ray hits: always, but for meshes, whose triangles decide).
  void hit(Kind kind, const std::string& query, const QueryHit& unit, const QueryHit& got,
           bool face_normal_unique) const {
    if (unit.hit != got.hit) {
      report.fail(k, kind, query,
                  std::string(got.hit ? "hit " : "missed, ") + (got.hit ? kind_name(kind_of(got.user_id)) : "") +
                      (got.hit ? " at distance/k " + show(got.distance / k) : "") + ", at k=1: " +
                      (unit.hit ? "hit " + std::string(kind_name(kind_of(unit.user_id))) + " at " + show(unit.distance)
                                : "a miss"));
      return;
    }
    if (!unit.hit) return;
    if (unit.user_id != got.user_id) {
      report.fail(k, kind, query,
                  std::string("hit the ") + kind_name(kind_of(got.user_id)) + " at distance/k " +
                      show(got.distance / k) + ", at k=1 the " + kind_name(kind_of(unit.user_id)) + " at " +
                      show(unit.distance));
      return;
    }
    const Kind hit_kind = kind_of(unit.user_id);
    if (unit.flags != got.flags) {
      report.fail(k, kind, query, "flags " + std::to_string(got.flags) + ", at k=1: " + std::to_string(unit.flags));
    }
    length(kind, query, "distance", unit.distance, got.distance);
    point(kind, query, "point", unit.point, got.point);
    normal(kind, query, "normal", unit.normal, got.normal);
    length(kind, query, "depth", unit.depth, got.depth);
    if (unit.primitive != kNoPrimitive || got.primitive != kNoPrimitive) {
      if (unit.primitive == kNoPrimitive || got.primitive == kNoPrimitive) {
        report.fail(k, kind, query,
                    "primitive " + std::to_string(got.primitive) + ", at k=1: " + std::to_string(unit.primitive));
      } else if (unit.feature == Feature::face && clear_of_edges(unit.u, unit.v)) {
        if (unit.primitive != got.primitive) {
          report.fail(k, kind, query,
                      "triangle " + std::to_string(got.primitive) + ", at k=1: " + std::to_string(unit.primitive));
        } else {
          if (std::abs(unit.u - got.u) > kRelative || std::abs(unit.v - got.v) > kRelative) {
            report.fail(k, kind, query,
                        "barycentrics (" + show(got.u) + ", " + show(got.v) + "), at k=1: (" + show(unit.u) + ", " +
                            show(unit.v) + ")");
          }
          normal(kind, query, "face_normal", unit.face_normal, got.face_normal);
        }
        if (unit.feature != got.feature) report.fail(k, kind, query, "feature differs from k=1's (face)");
      }
    } else {
      if (unit.feature != got.feature) report.fail(k, kind, query, "feature differs from k=1's");
      if (face_normal_unique || face_normal_is_unique(hit_kind)) {
        normal(kind, query, "face_normal", unit.face_normal, got.face_normal);
      }
    }
  }

  void overlaps(Kind kind, const std::string& query, const std::vector<OverlapHit>& unit,
                const std::vector<OverlapHit>& got) const {
    auto names = [](const std::vector<OverlapHit>& hits) {
      std::string s = "{";
      for (const OverlapHit& h : hits) s += std::string(s.size() > 1 ? ", " : "") + kind_name(kind_of(h.user_id));
      return s + "}";
    };
    bool same = unit.size() == got.size();
    for (std::size_t i = 0; same && i < unit.size(); ++i) same = unit[i].user_id == got[i].user_id;
    if (!same) {
      report.fail(k, kind, query, "touches " + names(got) + ", at k=1: " + names(unit));
      return;
    }
    for (std::size_t i = 0; i < unit.size(); ++i) {
      const OverlapHit& a = unit[i];
      const OverlapHit& b = got[i];
      const Kind c = kind_of(a.user_id);
      const std::string q = query + " -> " + kind_name(c);
      if (a.has_contact != b.has_contact) {
        report.fail(k, c, q, std::string("has_contact ") + (b.has_contact ? "true" : "false") + ", at k=1 not");
        continue;
      }
      if (!a.has_contact) continue;
      length(c, q, "contact depth", a.contact.depth, b.contact.depth);
      normal(c, q, "contact normal", a.contact.normal, b.contact.normal);
      point(c, q, "contact point_on_a", a.contact.point_on_a, b.contact.point_on_a);
      point(c, q, "contact point_on_b", a.contact.point_on_b, b.contact.point_on_b);
      if (a.primitive != b.primitive && mesh_point_clear_of_edges(a.primitive, a.contact.point_on_b)) {
        report.fail(k, c, q,
                    "deepest triangle " + std::to_string(b.primitive) + ", at k=1: " + std::to_string(a.primitive));
      }
    }
  }
};

// The unit answers are what each probe was placed for.
void check_unit_answers(const Probes& p, const Answers& a, Report& report) {
  auto expect = [&](const std::string& query, Kind target, Expect e, const QueryHit& h) {
    bool ok = false;
    switch (e) {
      case Expect::miss:
        ok = !h.hit;
        break;
      case Expect::hit:
        ok = h.hit && h.user_id == user_id_of(target);
        break;
      case Expect::started_inside:
        ok = h.hit && h.user_id == user_id_of(target) && h.started_inside() && h.distance == 0;
        break;
      case Expect::exit:
        ok = h.hit && h.user_id == user_id_of(target) && (h.flags & kHitExit) != 0;
        break;
    }
    if (!ok) {
      report.fail(1, target, query,
                  "the probe's answer at k=1 is not what it was placed for: " +
                      (h.hit ? std::string("hit ") + kind_name(kind_of(h.user_id)) + " at " + show(h.distance) +
                                   " flags " + std::to_string(h.flags)
                             : std::string("a miss")));
    }
  };
  for (std::size_t i = 0; i < p.rays.size(); ++i) {
    const RayProbe& r = p.rays[i];
    expect(r.name, r.target, r.expect, a.raycast[i]);
    if (a.any[i] != a.raycast[i].hit) report.fail(1, r.target, "raycast_any " + r.name, "differs from raycast");
    if (a.raycast[i].hit && a.all[i].empty()) report.fail(1, r.target, "raycast_all " + r.name, "found nothing");
  }
  for (std::size_t i = 0; i < p.sweeps.size(); ++i)
    expect(p.sweeps[i].name, p.sweeps[i].target, p.sweeps[i].expect, a.sweep[i]);
  for (std::size_t i = 0; i < p.points.size(); ++i)
    expect(p.points[i].name, p.points[i].target, p.points[i].expect, a.point[i]);
  for (std::size_t i = 0; i < p.overlaps.size(); ++i) {
    const OverlapProbe& o = p.overlaps[i];
    std::vector<Kind> found;
    for (const OverlapHit& h : a.overlap[i]) {
      found.push_back(kind_of(h.user_id));
      // A box whose core overlaps a cylinder has no contact (Scene::overlap_sphere's contract).
      const bool box_in_cylinder = kind_of(h.user_id) == Kind::cylinder && std::holds_alternative<Obbf>(o.shape);
      if (!h.has_contact && o.exactly && !box_in_cylinder) {
        report.fail(1, kind_of(h.user_id), o.name, "no contact at k=1");
      }
    }
    bool ok = o.exactly ? found == o.expect : true;
    for (Kind want : o.expect) ok = ok && std::find(found.begin(), found.end(), want) != found.end();
    if (!ok)
      report.fail(1, o.expect.empty() ? Kind::none : o.expect[0], o.name,
                  "the overlap set at k=1 is not the one placed for");
  }
  for (std::size_t i = 0; i < p.grid.size(); ++i) {
    expect("raycast_batch tile", p.grid_target[i], Expect::hit, a.batch[i]);
    expect("raycast_coherent_batch tile", p.grid_target[i], Expect::hit, a.coherent[i]);
  }
}

void compare_answers(const Probes& p, const Answers& unit, const Answers& got, double k, Report& report) {
  const Compare cmp{report, k};
  for (std::size_t i = 0; i < p.rays.size(); ++i) {
    const RayProbe& r = p.rays[i];
    cmp.hit(r.target, r.name, unit.raycast[i], got.raycast[i], true);
    if (unit.any[i] != got.any[i]) {
      report.fail(k, r.target, "raycast_any " + r.name,
                  std::string(got.any[i] ? "true" : "false") + ", at k=1: " + (unit.any[i] ? "true" : "false"));
    }
    const std::vector<QueryHit>& ua = unit.all[i];
    const std::vector<QueryHit>& ga = got.all[i];
    if (ua.size() != ga.size()) {
      std::string u, g;
      for (const QueryHit& h : ua) u += std::string(" ") + kind_name(kind_of(h.user_id)) + "@" + show(h.distance);
      for (const QueryHit& h : ga) g += std::string(" ") + kind_name(kind_of(h.user_id)) + "@" + show(h.distance / k);
      report.fail(k, r.target, "raycast_all " + r.name,
                  std::to_string(ga.size()) + " crossings (distances/k:" + g + "), at k=1 " +
                      std::to_string(ua.size()) + " (" + u + ")");
    } else {
      for (std::size_t j = 0; j < ua.size(); ++j) {
        cmp.hit(r.target, "raycast_all " + r.name + " crossing " + std::to_string(j), ua[j], ga[j], true);
      }
    }
  }
  for (std::size_t i = 0; i < p.sweeps.size(); ++i) {
    cmp.hit(p.sweeps[i].target, p.sweeps[i].name, unit.sweep[i], got.sweep[i], false);
  }
  for (std::size_t i = 0; i < p.overlaps.size(); ++i) {
    cmp.overlaps(p.overlaps[i].expect.empty() ? Kind::none : p.overlaps[i].expect[0], p.overlaps[i].name,
                 unit.overlap[i], got.overlap[i]);
  }
  for (std::size_t i = 0; i < p.points.size(); ++i) {
    cmp.hit(p.points[i].target, p.points[i].name, unit.point[i], got.point[i], false);
  }
  for (std::size_t i = 0; i < p.grid.size(); ++i) {
    const std::string ray = " ray " + std::to_string(i % 64);
    cmp.hit(p.grid_target[i], "raycast_batch tile" + ray, unit.batch[i], got.batch[i], true);
    cmp.hit(p.grid_target[i], "raycast_coherent_batch tile" + ray, unit.batch[i], got.coherent[i], true);
  }
}

// Every k in [smallest, largest], powers of ten, against the scene's answers at k = 1.
void expect_answers_scale(Sizing sizing, int smallest_exponent, std::optional<int> largest_exponent) {
  const Probes& p = probes();
  const double edge = largest_scale(extent_of(p));
  Report report;
  report.set_sizing(sizing);
  const Scene unit_scene = scene_at_scale(1.0, sizing);
  const Answers unit = ask(unit_scene, p, 1.0);
  check_unit_answers(p, unit, report);
  const double largest = largest_exponent ? std::pow(10.0, *largest_exponent) : edge;
  for (int e = smallest_exponent; std::pow(10.0, e) <= largest * 1.0000001; ++e) {
    const double k = std::pow(10.0, e);
    if (e == 0) continue;
    const Scene scene = scene_at_scale(k, sizing);
    if (scene.committed_count() != slots().size() - 1) {
      report.fail(k, Kind::none, "add", "the scene holds " + std::to_string(scene.committed_count()) + " colliders");
      continue;
    }
    compare_answers(p, unit, ask(scene, p, k), k, report);
  }
  report.finish();
}

// ---------------------------------------------------------------------------------------------

TEST(SceneScale, ProbesAtUnitScaleHitEveryColliderKindWithEveryQueryKindAndTheEdgeIsAPowerOfTenBelow1e15) {
  const Probes& p = probes();
  const double extent = extent_of(p);
  const double edge = largest_scale(extent);
  EXPECT_LE(extent * edge, double(kMaxCoordinate));
  EXPECT_GT(extent * edge * 10, double(kMaxCoordinate));
  EXPECT_GE(edge, 1e13) << "extent " << extent;
  RecordProperty("largest_k", show(edge));
  const Scene scene = scene_at_scale(1.0, Sizing::by_transform);
  const Answers a = ask(scene, p, 1.0);
  // Which collider kinds each query kind hits at scale 1.
  std::map<std::string, std::set<Kind>> hit;
  auto query_kind = [](const std::string& name) { return name.substr(0, name.find(' ')); };
  for (std::size_t i = 0; i < p.rays.size(); ++i) {
    if (!a.raycast[i].hit) continue;
    const Kind kind = kind_of(a.raycast[i].user_id);
    const bool inside = p.rays[i].name.find("inside") != std::string::npos;
    hit[inside ? "raycast from inside" : "raycast from outside"].insert(kind);
    if (a.any[i]) hit["raycast_any"].insert(kind);
    for (const QueryHit& h : a.all[i]) hit["raycast_all"].insert(kind_of(h.user_id));
  }
  for (std::size_t i = 0; i < p.sweeps.size(); ++i) {
    if (a.sweep[i].hit) hit[query_kind(p.sweeps[i].name)].insert(kind_of(a.sweep[i].user_id));
  }
  for (std::size_t i = 0; i < p.overlaps.size(); ++i) {
    for (const OverlapHit& h : a.overlap[i]) hit[query_kind(p.overlaps[i].name)].insert(kind_of(h.user_id));
  }
  for (std::size_t i = 0; i < p.points.size(); ++i) {
    if (a.point[i].hit) hit["closest_point"].insert(kind_of(a.point[i].user_id));
  }
  for (std::size_t i = 0; i < p.grid.size(); ++i) {
    if (a.batch[i].hit) hit["raycast_batch"].insert(kind_of(a.batch[i].user_id));
    if (a.coherent[i].hit) hit["raycast_coherent_batch"].insert(kind_of(a.coherent[i].user_id));
  }
  const char* queries[] = {"raycast from outside",  "raycast from inside", "raycast_any",   "raycast_all",
                           "sphere_cast",           "capsule_cast",        "box_cast",      "overlap_sphere",
                           "overlap_box",           "overlap_capsule",     "closest_point", "raycast_batch",
                           "raycast_coherent_batch"};
  for (const char* q : queries) {
    for (int kind = 0; kind < static_cast<int>(Kind::none); ++kind) {
      EXPECT_TRUE(hit[q].count(static_cast<Kind>(kind)))
          << q << " never hits the " << kind_name(static_cast<Kind>(kind));
    }
  }
  Report report;
  check_unit_answers(p, a, report);
  report.finish();
}

TEST(SceneScale, CollidersScaledByTheirTransformAnswerEveryQueryScaledFrom1eMinus6ToTheEdgeOfTheWorkingRange) {
  expect_answers_scale(Sizing::by_transform, -6, std::nullopt);
}

TEST(SceneScale, ShapesBuiltScaledAnswerEveryQueryScaledFrom1eMinus6ToTheEdgeOfTheWorkingRange) {
  expect_answers_scale(Sizing::by_shape, -6, std::nullopt);
}

TEST(SceneScale, CollidersScaledByTheirTransformAnswerEveryQueryScaledDownTo1eMinus9) {
  expect_answers_scale(Sizing::by_transform, -9, -7);
}

TEST(SceneScale, ShapesBuiltScaledAnswerEveryQueryScaledDownTo1eMinus9) {
  expect_answers_scale(Sizing::by_shape, -9, -7);
}

}  // namespace
}  // namespace hitscan
