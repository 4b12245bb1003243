// Convex hull colliders: a hull built from a box's corners agrees with the box collider on every
// query; a hull of random points agrees with brute force in double (a ray clipped by every face
// plane, the nearest point over every face); bad hulls are rejected.

#include <gtest/gtest.h>

#include <random>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/gjk_epa.hpp"
#include "query/convex_sweep_reference.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

using test::random_rotation;

std::vector<Vec3f> corners(const Obbf& b) {
  std::vector<Vec3f> v;
  for (int k = 0; k < 8; ++k) {
    const Vec3f sign{k & 1 ? 1.0f : -1.0f, k & 2 ? 1.0f : -1.0f, k & 4 ? 1.0f : -1.0f};
    v.push_back(b.center + b.rotation * mul(sign, b.half_extents));
  }
  return v;
}

HullShape make_hull(std::span<const Vec3f> points) {
  return std::make_shared<const ConvexHullf>(ConvexHullf::make(points).value());
}

// The same box twice: as a box collider in one scene and as the hull of its corners in another,
// under the same transform. Half the twins have a rotated box and a uniform scale, half an
// unrotated box under a non-uniform (sometimes mirroring) scale.
struct Twin {
  Scene box_scene, hull_scene;
  Obbf world;  // the box in the world, as the box scene holds it
  float size = 0;
};

void make_twin(std::mt19937& gen, bool rotated, Twin& twin) {
  std::uniform_real_distribution<float> half(0.3f, 2.0f), pos(-1, 1), scale(0.5f, 2.0f);
  Obbf local{{pos(gen), pos(gen), pos(gen)}, {half(gen), half(gen), half(gen)}, Mat3f::identity()};
  Transformf t;
  t.rotation = random_rotation(gen);
  t.translation = {pos(gen), pos(gen), pos(gen)};
  if (rotated) {
    local.rotation = Mat3f::from_quat(random_rotation(gen));
    const float s = scale(gen);
    t.scale = {s, s, s};
  } else {
    t.scale = {scale(gen), scale(gen), scale(gen)};
    if (gen() % 3 == 0) t.scale.y = -t.scale.y;
  }
  ASSERT_TRUE(twin.box_scene.add({local, t}).ok());
  ASSERT_TRUE(twin.hull_scene.add({make_hull(corners(local)), t}).ok());
  twin.box_scene.commit();
  twin.hull_scene.commit();
  WorldShape w;
  ASSERT_TRUE(to_world(local, t, w).ok());
  twin.world = std::get<Obbf>(w);
  twin.size = max_component(twin.world.half_extents);
}

// How far p lies from the box's nearest edge, measured in the faces' planes: small when p is
// within that of two faces at once (where the two shapes may pick either face's normal).
float edge_clearance(const Obbf& b, Vec3f p) {
  const Vec3f q = b.rotation.transpose_mul(p - b.center);
  float gaps[3];
  for (int i = 0; i < 3; ++i) gaps[i] = std::abs(b.half_extents[i] - std::abs(q[i]));
  std::sort(gaps, gaps + 3);
  return gaps[1];
}

bool same_direction(Vec3f a, Vec3f b, float cos_tolerance = 0.999f) { return dot(a, b) >= cos_tolerance; }

TEST(SceneHull, HullOfBoxCornersAgreesWithTheBoxOnEveryQuery) {
  std::mt19937 gen(20261130);
  std::uniform_real_distribution<float> pos(-6, 6), unit(-1, 1), radius(0.05f, 1.5f);
  int compared_rays = 0, compared_sweeps = 0, touching = 0;
  for (int twin_index = 0; twin_index < 24; ++twin_index) {
    Twin twin;
    make_twin(gen, twin_index % 2 == 0, twin);
    const Obbf& box = twin.world;
    const float tol = 1e-4f * (1.0f + twin.size);
    for (int q = 0; q < 40; ++q) {
      // Rays from around the box towards a point near it (hits and misses); every 8th from inside.
      const Vec3f target = box.center + Vec3f{unit(gen), unit(gen), unit(gen)} * (1.3f * twin.size);
      const Vec3f origin = q % 8 == 0 ? box.center : Vec3f{pos(gen), pos(gen), pos(gen)} + box.center;
      const QueryRay ray{origin, target - origin};
      for (const bool solid : {true, false}) {
        QueryOptions o;
        o.solid = solid;
        const QueryHit a = twin.box_scene.raycast(ray, o), b = twin.hull_scene.raycast(ray, o);
        if (a.hit != b.hit) {
          // Only a ray through an edge may go either way.
          const QueryHit& h = a.hit ? a : b;
          EXPECT_LT(edge_clearance(box, h.point), 1e-3f * twin.size) << twin_index << " " << q;
          continue;
        }
        if (!a.hit) continue;
        ++compared_rays;
        EXPECT_NEAR(a.distance, b.distance, tol) << twin_index << " " << q;
        EXPECT_EQ(a.flags, b.flags);
        if (edge_clearance(box, a.point) > 1e-3f * twin.size) {
          EXPECT_TRUE(same_direction(a.normal, b.normal)) << twin_index << " " << q;
          EXPECT_TRUE(same_direction(a.face_normal, b.face_normal)) << twin_index << " " << q;
        }
      }
      std::vector<QueryHit> all_a, all_b;
      EXPECT_EQ(twin.box_scene.raycast_all(ray, all_a), twin.hull_scene.raycast_all(ray, all_b));
      for (std::size_t i = 0; i < std::min(all_a.size(), all_b.size()); ++i) {
        EXPECT_NEAR(all_a[i].distance, all_b[i].distance, tol);
        EXPECT_EQ(all_a[i].flags, all_b[i].flags);
      }
      EXPECT_EQ(twin.box_scene.raycast_any(ray), twin.hull_scene.raycast_any(ray));

      // Closest points, inside and out, solid or not.
      const Vec3f p = box.center + Vec3f{unit(gen), unit(gen), unit(gen)} * (2.0f * twin.size);
      for (const bool solid : {true, false}) {
        QueryOptions o;
        o.solid = solid;
        const QueryHit a = twin.box_scene.closest_point(p, o), b = twin.hull_scene.closest_point(p, o);
        ASSERT_TRUE(a.hit && b.hit);
        EXPECT_NEAR(a.distance, b.distance, tol);
        EXPECT_LT(length(a.point - b.point), 10 * tol) << twin_index << " " << q;
        EXPECT_EQ(a.flags, b.flags);
        if (a.distance > 1e-3f) {
          EXPECT_TRUE(same_direction(a.normal, b.normal));
        }
      }

      // Overlaps of a sphere, a box and a capsule, unless they only graze (within 1e-3).
      const Vec3f c = box.center + Vec3f{unit(gen), unit(gen), unit(gen)} * (1.6f * twin.size);
      const Spheref sphere{c, radius(gen)};
      const Obbf query_box{c, {radius(gen), radius(gen), radius(gen)}, Mat3f::from_quat(random_rotation(gen))};
      const Capsulef capsule{c, c + Vec3f{unit(gen), unit(gen), unit(gen)} * 2.0f, radius(gen)};
      const ConvexDistance<double> gaps[3] = {
          gjk_distance(ConvexShaped(Sphere<double>{test::to_double(c), sphere.radius}), test::to_double(box)),
          gjk_distance(ConvexShaped(test::to_double(query_box)), test::to_double(box)),
          gjk_distance(ConvexShaped(Capsule<double>{test::to_double(capsule.a), test::to_double(capsule.b), capsule.radius}),
                       test::to_double(box))};
      QueryOptions with_contacts;
      with_contacts.contacts = true;
      auto overlaps = [&](const Scene& scene, int kind, std::vector<OverlapHit>& out) {
        if (kind == 0) return scene.overlap_sphere(sphere, out, with_contacts);
        if (kind == 1) return scene.overlap_box(query_box, out, with_contacts);
        return scene.overlap_capsule(capsule, out, with_contacts);
      };
      for (int kind = 0; kind < 3; ++kind) {
        if (!gaps[kind].overlapping && gaps[kind].distance < 1e-3) continue;
        std::vector<OverlapHit> a, b;
        overlaps(twin.box_scene, kind, a);
        overlaps(twin.hull_scene, kind, b);
        ASSERT_EQ(a.size(), b.size()) << twin_index << " " << q << " kind " << kind;
        if (a.empty()) continue;
        ++touching;
        ASSERT_TRUE(b[0].has_contact);
        // The capsule's contact kernel keeps the face normal once its core enters the box, which
        // need not be the least translation EPA finds; spheres and boxes agree on it.
        if (kind < 2) {
          EXPECT_NEAR(a[0].contact.depth, b[0].contact.depth, 1e-3f * (1.0f + twin.size)) << twin_index << " " << q;
          if (a[0].contact.depth > 1e-2f) {
            EXPECT_TRUE(same_direction(a[0].contact.normal, b[0].contact.normal, 0.99f));
          }
        }
      }
      std::vector<OverlapHit> plain;
      if (gaps[0].overlapping || gaps[0].distance >= 1e-3) {
        EXPECT_EQ(twin.hull_scene.overlap_sphere(sphere, plain), twin.box_scene.overlap_sphere(sphere, plain));
      }

      // Sphere and capsule casts towards the box: the box's exact kernels against conservative
      // advancement on the hull, which stops within the contact tolerance short of the contact.
      const Vec3f d = box.center + Vec3f{unit(gen), unit(gen), unit(gen)} * twin.size - c;
      const QueryHit sa = twin.box_scene.sphere_cast({sphere, d, 20.0f}), sb = twin.hull_scene.sphere_cast({sphere, d, 20.0f});
      const QueryHit ca = twin.box_scene.capsule_cast({capsule, d, 20.0f}), cb = twin.hull_scene.capsule_cast({capsule, d, 20.0f});
      for (const auto& [a, b] : {std::pair{sa, sb}, std::pair{ca, cb}}) {
        if (a.hit != b.hit) {
          // Only a path that grazes the box may go either way.
          EXPECT_LT(edge_clearance(box, a.hit ? a.point : b.point), 2e-3f * twin.size) << twin_index << " " << q;
          continue;
        }
        if (!a.hit) continue;
        ++compared_sweeps;
        EXPECT_NEAR(a.distance, b.distance, 2e-3f * (1.0f + twin.size)) << twin_index << " " << q;
        EXPECT_EQ(a.flags, b.flags) << twin_index << " " << q;
        if (a.started_inside()) {
          EXPECT_NEAR(a.depth, b.depth, 1e-3f * (1.0f + twin.size)) << twin_index << " " << q;
        }
      }
    }
  }
  EXPECT_GT(compared_rays, 600);
  EXPECT_GT(compared_sweeps, 300);
  EXPECT_GT(touching, 300);
}

// A hull of random points in a random placement (non-uniform and mirroring scale included), and
// its faces carried to the world in double by the test.
struct RandomHull {
  ColliderDesc desc;
  std::vector<Trianglef> local_faces;
};

RandomHull random_hull(std::mt19937& gen, int points) {
  std::normal_distribution<float> n(0, 1);
  std::uniform_real_distribution<float> pos(-3, 3), scale(0.4f, 2.0f);
  std::vector<Vec3f> cloud;
  for (int i = 0; i < points; ++i) cloud.push_back(Vec3f{n(gen), n(gen), n(gen)} * 1.5f);
  RandomHull r;
  const HullShape hull = make_hull(cloud);
  for (const auto& f : hull->faces()) r.local_faces.push_back({hull->vertices()[f[0]], hull->vertices()[f[1]], hull->vertices()[f[2]]});
  r.desc.shape = hull;
  r.desc.transform = {random_rotation(gen), {pos(gen), pos(gen), pos(gen)}, {scale(gen), scale(gen), scale(gen)}};
  if (gen() % 2 == 0) r.desc.transform.scale.z = -r.desc.transform.scale.z;
  return r;
}

// The ray's entry and exit of the solid bounded by the world faces (outward by the interior point),
// in double: Cyrus-Beck clipping. enter = 0 when the origin is inside.
bool clip(const std::vector<Triangle<double>>& faces, Vec3d inside, Vec3d origin, Vec3d dir, double& enter,
          double& exit) {
  enter = 0, exit = std::numeric_limits<double>::infinity();
  for (const Triangle<double>& f : faces) {
    Vec3d n = normalize(cross(f.v1 - f.v0, f.v2 - f.v0));
    if (dot(n, inside - f.v0) > 0) n = -n;
    const double along = dot(n, dir), height = dot(n, origin - f.v0);
    if (along == 0) {
      if (height > 0) return false;
      continue;
    }
    const double t = -height / along;
    if (along < 0) enter = std::max(enter, t);
    else exit = std::min(exit, t);
  }
  return enter <= exit;
}

TEST(SceneHull, RandomHullMatchesPlaneClippingAndNearestFaceInDouble) {
  std::mt19937 gen(911);
  std::uniform_real_distribution<float> pos(-8, 8), unit(-1, 1);
  int hits = 0, inside = 0;
  for (int h = 0; h < 30; ++h) {
    const RandomHull hull = random_hull(gen, 40 + h * 3);
    Scene scene;
    ASSERT_TRUE(scene.add(hull.desc).ok());
    scene.commit();
    const Transform<double> t = test::to_double(hull.desc.transform);
    std::vector<Triangle<double>> faces;
    Vec3d centroid{};
    for (const Trianglef& f : hull.local_faces) {
      faces.push_back({t.apply_point(test::to_double(f.v0)), t.apply_point(test::to_double(f.v1)),
                       t.apply_point(test::to_double(f.v2))});
      centroid += (faces.back().v0 + faces.back().v1 + faces.back().v2) / 3.0;
    }
    centroid = centroid / static_cast<double>(faces.size());
    const Vec3f center = vec3_cast<float>(centroid);
    for (int q = 0; q < 60; ++q) {
      const Vec3f origin = q % 6 == 0 ? center + Vec3f{unit(gen), unit(gen), unit(gen)} * 0.2f
                                      : center + Vec3f{pos(gen), pos(gen), pos(gen)};
      const Vec3f toward = center + Vec3f{unit(gen), unit(gen), unit(gen)} * 3.0f - origin;
      const QueryHit hit = scene.raycast({origin, toward});
      const Vec3d o = test::to_double(origin), d = normalize(test::to_double(normalize(toward)));
      double enter, exit;
      const bool expected = clip(faces, centroid, o, d, enter, exit);
      if (hit.hit != expected) {
        // Through an edge or a vertex: the clipped interval is a point.
        EXPECT_LT(exit - enter, 1e-4) << h << " " << q;
        continue;
      }
      if (!hit.hit) continue;
      ++hits;
      EXPECT_NEAR(hit.distance, enter, 1e-5 * (1.0 + enter)) << h << " " << q;
      EXPECT_EQ(hit.started_inside(), enter == 0.0) << h << " " << q;
      inside += hit.started_inside();

      // The nearest surface point: the least distance over every face, or inside the least
      // distance to a face plane.
      const Vec3f p = center + Vec3f{unit(gen), unit(gen), unit(gen)} * 4.0f;
      const Vec3d pd = test::to_double(p);
      double outside_distance = std::numeric_limits<double>::infinity(), plane_distance = outside_distance;
      bool is_inside = true;
      for (const Triangle<double>& f : faces) {
        Vec3d n = normalize(cross(f.v1 - f.v0, f.v2 - f.v0));
        if (dot(n, centroid - f.v0) > 0) n = -n;
        const double height = dot(n, pd - f.v0);
        is_inside = is_inside && height <= 0;
        plane_distance = std::min(plane_distance, -height);
        outside_distance = std::min(outside_distance, length(closest_point_on_triangle(f, pd).point - pd));
      }
      QueryOptions shell;
      shell.solid = false;
      const QueryHit near = scene.closest_point(p, shell), solid = scene.closest_point(p);
      ASSERT_TRUE(near.hit && solid.hit);
      EXPECT_NEAR(near.distance, is_inside ? plane_distance : outside_distance, 1e-5 * (1.0 + near.distance)) << h << " " << q;
      EXPECT_EQ(solid.started_inside(), is_inside);
      if (is_inside) {
        EXPECT_EQ(solid.distance, 0.0f);
      }
    }
  }
  EXPECT_GT(hits, 600);
  EXPECT_GT(inside, 100);
}

TEST(SceneHull, NullAndFlatHullsAreRejected) {
  Scene scene;
  const Result<ColliderId> null_hull = scene.add({HullShape{}});
  ASSERT_FALSE(null_hull.ok());
  EXPECT_EQ(null_hull.status().code(), StatusCode::invalid_argument);
  const Vec3f coplanar[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5f, 0.2f, 0}};
  const Result<ConvexHullf> flat = ConvexHullf::make(coplanar);
  ASSERT_FALSE(flat.ok());
  EXPECT_EQ(flat.status().code(), StatusCode::invalid_argument);
  // A good hull, then a null one through set_shape: refused, the collider unchanged.
  const Vec3f tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Result<ColliderId> id = scene.add({make_hull(tetrahedron)});
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(scene.set_shape(id.value(), HullShape{}).code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.set_transform(id.value(), {{}, {}, {1, 0, 1}}).code(), StatusCode::invalid_argument);
  scene.commit();
  EXPECT_TRUE(scene.raycast({{0.2f, 0.2f, 5}, {0, 0, -1}}).hit);
}

TEST(SceneHull, WorldFormIsTheTransformedHull) {
  const Vec3f tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const HullShape hull = make_hull(tetrahedron);
  WorldShape w;
  ASSERT_TRUE(to_world(hull, Transformf{}, w).ok());
  EXPECT_EQ(std::get<WorldHull>(w), hull);  // the identity shares the hull
  EXPECT_TRUE(is_solid(w));
  const Transformf t{Quatf::identity(), {10, 0, 0}, {2, -3, 4}};
  ASSERT_TRUE(to_world(hull, t, w).ok());
  const Aabbf box = world_bounds(w);
  EXPECT_EQ(box.min, (Vec3f{10, -3, 0}));
  EXPECT_EQ(box.max, (Vec3f{12, 0, 4}));
  // Moving the collider moves what rays hit.
  Scene scene;
  const ColliderId id = scene.add({hull}).value();
  scene.commit();
  const QueryRay down{{10.2f, -0.5f, 9}, {0, 0, -1}};
  EXPECT_FALSE(scene.raycast(down).hit);
  ASSERT_TRUE(scene.set_transform(id, t).ok());
  scene.commit();
  const QueryHit hit = scene.raycast(down);
  ASSERT_TRUE(hit.hit);
  // The slanted face x/2 - y/3 + z/4 = 1 in the frame of the scaled tetrahedron.
  EXPECT_NEAR(hit.point.z, 4.0f * (1.0f - 0.1f - 0.5f / 3.0f), 1e-5f);
}

}  // namespace
}  // namespace hitscan
