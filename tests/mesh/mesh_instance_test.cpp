// An instance (shared BVH + transform) against a BVH built over the transformed vertices.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <limits>
#include <random>
#include <vector>

#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

std::shared_ptr<const TriangleMesh> transformed(const TriangleMesh& mesh, const Transformf& tr) {
  std::vector<Vec3f> p;
  for (const Vec3f& v : mesh.positions()) p.push_back(tr.apply_point(v));
  std::vector<TriangleMesh::Indices> f(mesh.triangles().begin(), mesh.triangles().end());
  return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(p), std::move(f)).value());
}

void compare(const Transformf& tr, int seed) {
  const auto mesh = test::icosphere(3, 1.0f);
  const MeshInstance instance{std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value()), tr};
  const MeshBvh baked = MeshBvh::build(transformed(*mesh, tr)).value();
  const bool mirrored = tr.scale.x * tr.scale.y * tr.scale.z < 0;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  int disagreements = 0, hits = 0;
  const int kRays = 4000;
  for (int i = 0; i < kRays; ++i) {
    const Vec3f origin = tr.translation + Vec3f{u(gen), u(gen), u(gen)} * 8.0f;
    const Vec3f target = tr.translation + Vec3f{u(gen), u(gen), u(gen)} * 2.0f;
    const Rayf ray{origin, (target - origin) * (0.5f + std::abs(u(gen))), 0, kInfinity<float>};
    const MeshHit a = instance.intersect(ray), b = baked.intersect(ray);
    EXPECT_EQ(instance.occluded(ray), a.hit);
    if (a.hit != b.hit) {
      ++disagreements;  // float rounding of the two frames at a silhouette
      continue;
    }
    if (!a.hit) continue;
    ++hits;
    EXPECT_NEAR(a.t, b.t, 1e-4f * (1 + b.t)) << "ray " << i;
    EXPECT_LT(distance(a.point, b.point), 1e-3f);
    // The baked mesh's winding is reversed by a mirror; the instance keeps the mesh's front.
    const Vec3f expected_normal = mirrored ? -b.normal : b.normal;
    if (a.triangle == b.triangle) {
      EXPECT_GT(dot(a.normal, expected_normal), 0.9999f) << "ray " << i;
    }
    EXPECT_EQ(a.back_face, mirrored ? !b.back_face : b.back_face) << "ray " << i;
    EXPECT_NEAR(length(a.normal), 1.0f, 1e-5f);
  }
  EXPECT_LE(disagreements, kRays / 500);
  EXPECT_GT(hits, kRays / 10);
}

TEST(MeshInstance, RotatedTranslatedUniformScale) {
  compare({Quatf::from_euler({0.3f, -1.1f, 2.0f}), {5, -2, 7}, {2, 2, 2}}, 1);
}
TEST(MeshInstance, NonUniformScale) { compare({Quatf::from_euler({1.0f, 0.2f, -0.4f}), {-3, 1, 0}, {0.5f, 3, 1.5f}}, 2); }
TEST(MeshInstance, MirroringScaleKeepsTheMeshFrontOutside) {
  compare({Quatf::from_axis_angle({0, 1, 0}, 0.7f), {1, 1, 1}, {-1.5f, 1, 1}}, 3);
  // From outside a mirrored closed sphere the first hit is still a front face.
  const MeshInstance mirrored{std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(2)).value()),
                              {Quatf{}, {0, 0, 0}, {-1, 1, 1}}};
  const MeshHit hit = mirrored.intersect({{0, 0, -5}, {0, 0, 1}});
  ASSERT_TRUE(hit.hit);
  EXPECT_FALSE(hit.back_face);
  EXPECT_LT(hit.normal.z, -0.95f);  // the facet of a coarse sphere, facing the ray
}

// The fields asked for are those of the full hit bit for bit, in the world: the point on the
// world ray, the normals carried by the inverse transpose and renormalised; the others stay zero.
// intersect_valid, for a caller that checked the ray and instance, answers as intersect, and
// intersect_all carries every hit to the world the same way.
TEST(MeshInstance, HitFieldsInTheWorldAreThoseAskedForBitForBit) {
  const auto sphere = test::icosphere(3, 1.0f);
  std::vector<Vec3f> normals;
  for (const Vec3f& p : sphere->positions()) normals.push_back(normalize(p + Vec3f{0.1f, 0, 0}));
  const auto mesh = std::make_shared<const TriangleMesh>(
      TriangleMesh::make({sphere->positions().begin(), sphere->positions().end()},
                         {sphere->triangles().begin(), sphere->triangles().end()}, normals)
          .value());
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  const auto bits = [](Vec3f a) {
    return std::array{std::bit_cast<std::uint32_t>(a.x), std::bit_cast<std::uint32_t>(a.y),
                      std::bit_cast<std::uint32_t>(a.z)};
  };
  for (const Transformf& tr : {Transformf{}, Transformf{Quatf::from_euler({0.3f, -1.1f, 0.7f}), {2, -1, 4}, {1.5f, 0.5f, 2.0f}}}) {
    const MeshInstance instance{bvh, tr};
    std::mt19937 gen(21);
    std::uniform_real_distribution<float> u(-1, 1);
    int hits = 0;
    for (int i = 0; i < 400; ++i) {
      const Vec3f origin = tr.translation + Vec3f{u(gen), u(gen), u(gen)} * 6.0f;
      const Vec3f target = tr.translation + Vec3f{u(gen), u(gen), u(gen)};
      const Rayf ray{origin, target - origin, 0, kInfinity<float>};
      const MeshHit all = instance.intersect(ray);
      if (all.hit) {
        ++hits;
        // The reference: the tree's hit of the local ray, carried to the world by hand (under
        // the identity the ray goes in as it is and the normals are only renormalised).
        const Rayf local{tr.inverse_point(ray.origin), tr.inverse_vector(ray.dir), ray.tmin, ray.tmax};
        const MeshHit in_mesh = bvh->intersect(tr.is_identity() ? ray : local);
        const auto to_world = [&](Vec3f n) { return tr.is_identity() ? normalize(n) : tr.apply_normal(n); };
        ASSERT_TRUE(in_mesh.hit);
        EXPECT_EQ(all.triangle, in_mesh.triangle);
        EXPECT_EQ(bits(all.point), bits(ray.at(in_mesh.t)));
        EXPECT_EQ(bits(all.normal), bits(to_world(in_mesh.normal)));
        EXPECT_EQ(bits(all.shading_normal), bits(to_world(in_mesh.shading_normal)));
      }
      // Every hit: the tree's hits of the same ray, each carried to the world as intersect
      // carries its one; the first is intersect's.
      std::vector<MeshHit> every, in_mesh_every;
      instance.intersect_all(ray, every);
      bvh->intersect_all(tr.is_identity() ? ray : Rayf{tr.inverse_point(ray.origin), tr.inverse_vector(ray.dir),
                                                        ray.tmin, ray.tmax},
                         in_mesh_every);
      ASSERT_EQ(every.size(), in_mesh_every.size()) << "ray " << i;
      ASSERT_EQ(every.empty(), !all.hit) << "ray " << i;
      for (std::size_t k = 0; k < every.size(); ++k) {
        EXPECT_EQ(every[k].triangle, in_mesh_every[k].triangle);
        EXPECT_EQ(bits(every[k].point), bits(ray.at(every[k].t))) << "ray " << i;
      }
      if (all.hit) {
        EXPECT_EQ(std::bit_cast<std::uint32_t>(every[0].t), std::bit_cast<std::uint32_t>(all.t));
        EXPECT_EQ(every[0].triangle, all.triangle);
        EXPECT_EQ(bits(every[0].normal), bits(all.normal)) << "ray " << i;
        EXPECT_EQ(bits(every[0].shading_normal), bits(all.shading_normal)) << "ray " << i;
      }
      for (const HitFields fields : {HitFields::basic, HitFields::point, HitFields::normal, HitFields::shading_normal,
                                     HitFields::point | HitFields::normal}) {
        for (const MeshHit& h : {instance.intersect(ray, FaceMode::both, fields),
                                 instance.intersect_valid(ray, FaceMode::both, fields)}) {
          ASSERT_EQ(h.hit, all.hit) << "ray " << i;
          EXPECT_EQ(std::bit_cast<std::uint32_t>(h.t), std::bit_cast<std::uint32_t>(all.t));
          EXPECT_EQ(h.triangle, all.triangle);
          EXPECT_EQ(h.back_face, all.back_face);
          EXPECT_EQ(bits(h.point), bits(has(fields, HitFields::point) ? all.point : Vec3f{})) << "ray " << i;
          EXPECT_EQ(bits(h.normal), bits(has(fields, HitFields::normal) ? all.normal : Vec3f{})) << "ray " << i;
          EXPECT_EQ(bits(h.shading_normal), bits(has(fields, HitFields::shading_normal) ? all.shading_normal : Vec3f{}))
              << "ray " << i;
        }
      }
    }
    EXPECT_GT(hits, 100);
  }
}

// An instance takes a world ray into its frame as Transform's inverse_point and inverse_vector
// do, bit for bit: its hits are those of its tree for that local ray, and the same for every
// rotation, scale (mirrors included) and translation.
TEST(MeshInstance, TracesTheLocalRayOfTransformsInverseBitForBit) {
  const auto mesh = test::icosphere(3, 1.0f);
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  std::mt19937 gen(71);
  std::uniform_real_distribution<float> u(-1, 1);
  int hits = 0;
  for (int k = 0; k < 40; ++k) {
    const Transformf tr{Quatf::from_components(u(gen), u(gen), u(gen), u(gen)),
                        Vec3f{u(gen), u(gen), u(gen)} * 50.0f,
                        {0.25f + 2 * std::abs(u(gen)), (k % 3 == 0 ? -1.0f : 1.0f) * (0.25f + 2 * std::abs(u(gen))),
                         0.25f + 2 * std::abs(u(gen))}};
    const MeshInstance instance{bvh, tr};
    for (int i = 0; i < 200; ++i) {
      const Vec3f target = tr.apply_point(Vec3f{u(gen), u(gen), u(gen)});
      const Vec3f origin = target + Vec3f{u(gen), u(gen), u(gen)} * 10.0f;
      const Rayf ray{origin, target - origin, 0.0f, 100.0f};
      const Rayf local{tr.inverse_point(ray.origin), tr.inverse_vector(ray.dir), ray.tmin, ray.tmax};
      const MeshHit a = instance.intersect(ray, FaceMode::both, HitFields::basic);
      const MeshHit b = bvh->intersect(local, FaceMode::both, HitFields::basic);
      ASSERT_EQ(a.hit, b.hit) << k << " " << i;
      if (!a.hit) continue;
      ++hits;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(a.t), std::bit_cast<std::uint32_t>(b.t)) << k << " " << i;
      ASSERT_EQ(a.triangle, b.triangle);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(a.u), std::bit_cast<std::uint32_t>(b.u));
      ASSERT_EQ(std::bit_cast<std::uint32_t>(a.v), std::bit_cast<std::uint32_t>(b.v));
    }
  }
  EXPECT_GT(hits, 3000);
}

TEST(MeshInstance, SingularTransformMisses) {
  const MeshInstance flat{std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1)).value()),
                          {Quatf{}, {0, 0, 0}, {1, 0, 1}}};
  EXPECT_FALSE(flat.intersect({{0, 0, -5}, {0, 0, 1}}).hit);
  EXPECT_FALSE(flat.occluded({{0, 0, -5}, {0, 0, 1}}));
  EXPECT_FALSE(MeshInstance{}.intersect({{0, 0, -5}, {0, 0, 1}}).hit);
  std::vector<MeshHit> every{MeshHit{}};
  EXPECT_EQ(flat.intersect_all({{0, 0, -5}, {0, 0, 1}}, every), 0u);
  EXPECT_TRUE(every.empty());
  EXPECT_EQ(MeshInstance{}.intersect_all({{0, 0, -5}, {0, 0, 1}}, every), 0u);
}

// Rays the instance cannot take (a zero, NaN or infinite direction, a NaN origin, tmin above
// tmax) miss, in every query, whatever the transform.
TEST(MeshInstance, InvalidRaysMissEveryQuery) {
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(2)).value());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Rayf valid{{0, 0, -5}, {0, 0, 1}};
  for (const Transformf& tr : {Transformf{}, Transformf{Quatf::from_euler({0.2f, 0.4f, 0.1f}), {0.1f, 0, 0}, {2, 1, 1}}}) {
    const MeshInstance instance{bvh, tr};
    ASSERT_TRUE(instance.intersect(valid).hit);
    std::vector<MeshHit> every;
    ASSERT_EQ(instance.intersect_all(valid, every), 2u) << "in and out of the sphere";
    for (const Rayf& ray : {Rayf{{0, 0, -5}, {0, 0, 0}}, Rayf{{0, 0, -5}, {0, nan, 1}}, Rayf{{nan, 0, -5}, {0, 0, 1}},
                            Rayf{{0, 0, -5}, {0, 0, kInfinity<float>}}, Rayf{{0, 0, -5}, {0, 0, 1}, 3.0f, 2.0f}}) {
      EXPECT_FALSE(instance.intersect(ray).hit);
      EXPECT_FALSE(instance.occluded(ray));
      EXPECT_EQ(instance.intersect_all(ray, every), 0u);
      EXPECT_TRUE(every.empty());
    }
  }
}

}  // namespace
}  // namespace hitscan
