// Determinism: a fixed set of queries on a fixed scene gives bitwise-identical hit records in
// every build (scalar, SSE, AVX2, AVX-512: -DHITSCAN_SIMD=OFF and -march settings) and at every
// thread count. The records are hashed field by field, and the hash is stored here: a build whose
// hash differs answers some query differently, by as little as one bit.

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "hitscan/executor.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

// The hash every build must give; printed by the test when it differs. Change it only with a
// deliberate change of results, and say why in the commit.
constexpr std::uint64_t kExpectedHash = 0xde7d699a7cdfada0;

// FNV-1a over the bits of each field.
class Hash {
 public:
  template <class T>
  void add(const T& value) {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (const unsigned char b : bytes) state_ = (state_ ^ b) * 0x100000001b3ull;
  }
  void add(Vec3f v) { add(v.x), add(v.y), add(v.z); }
  void add(const QueryHit& h) {
    add(h.hit), add(h.flags), add(h.feature), add(h.distance), add(h.point), add(h.normal), add(h.face_normal);
    add(h.collider), add(h.user_id), add(h.primitive), add(h.u), add(h.v), add(h.depth);
  }
  void add(const OverlapHit& h) {
    add(h.collider), add(h.user_id), add(h.has_contact), add(h.primitive);
    add(h.contact.touching), add(h.contact.point_on_a), add(h.contact.point_on_b), add(h.contact.normal);
    add(h.contact.depth);
  }
  void add(const MeshHit& h) {
    add(h.hit), add(h.back_face), add(h.t), add(h.u), add(h.v), add(h.triangle), add(h.point), add(h.normal);
    add(h.shading_normal);
  }
  std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ull;
};

constexpr float kExtent = 40.0f;

struct Fixture {
  Scene scene;
  std::shared_ptr<const MeshBvh> mesh;
  std::vector<QueryRay> rays;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(3, 2.0f)).value());
    std::mt19937 gen(2026);
    for (int i = 0; i < 400; ++i) {
      ColliderDesc d = test::random_collider(gen, kExtent, x.mesh, i % 50 == 0);
      if (i % 9 == 4) d.transform.scale = {0.7f, 1.4f, 1.1f};
      (void)x.scene.add(d);  // a shape that cannot take the scale is left out, the same in every build
    }
    x.scene.commit();
    for (int i = 0; i < 3000; ++i) x.rays.push_back(test::random_query_ray(gen, kExtent));
    return x;
  }();
  return f;
}

std::uint64_t query_hash(Executor& executor) {
  const Fixture& f = fixture();
  Hash h;
  std::vector<QueryHit> hits(f.rays.size());
  EXPECT_TRUE(f.scene.raycast_batch(f.rays, hits, {}, &executor).ok());
  for (const QueryHit& hit : hits) h.add(hit);
  std::vector<std::uint8_t> any(f.rays.size());
  EXPECT_TRUE(f.scene.raycast_any_batch(f.rays, any, {}, &executor).ok());
  for (const std::uint8_t a : any) h.add(a);
  std::vector<QueryHit> all;
  QueryOptions shells;
  shells.solid = false;
  for (std::size_t i = 0; i < 300; ++i) {
    f.scene.raycast_all(f.rays[i], all, shells);
    h.add(all.size());
    for (const QueryHit& hit : all) h.add(hit);
  }
  QueryOptions near;
  near.max_distance = 6.0f;
  std::vector<OverlapHit> overlaps;
  QueryOptions contacts;
  contacts.contacts = true;
  for (std::size_t i = 0; i < 300; ++i) {
    const QueryRay& r = f.rays[i];
    h.add(f.scene.closest_point(r.origin, near));
    f.scene.overlap_sphere(Spheref{r.origin, 2.5f}, overlaps, contacts);
    h.add(overlaps.size());
    for (const OverlapHit& o : overlaps) h.add(o);
  }
  std::vector<SphereSweep> sweeps;
  for (std::size_t i = 0; i < 300; ++i) sweeps.push_back({Spheref{f.rays[i].origin, 0.6f}, f.rays[i].direction, 15.0f});
  std::vector<QueryHit> swept(sweeps.size());
  EXPECT_TRUE(f.scene.sphere_cast_batch(sweeps, swept, {}, &executor).ok());
  for (const QueryHit& hit : swept) h.add(hit);
  for (std::size_t i = 0; i < 100; ++i) {
    const QueryRay& r = f.rays[i];
    h.add(f.scene.capsule_cast({Capsulef{r.origin, r.origin + Vec3f{0, 1.5f, 0}, 0.4f}, r.direction, 15.0f}));
  }
  // The mesh layer on its own: a ray from outside through the sphere's inside.
  for (std::size_t i = 0; i < 1000; ++i) {
    const QueryRay& r = f.rays[i];
    const Rayf ray{r.origin * 0.2f, normalize(r.direction)};
    h.add(f.mesh->intersect(ray));
  }
  return h.value();
}

TEST(Determinism, StoredHashInThisBuild) {
  SerialExecutor serial;
  const std::uint64_t got = query_hash(serial);
  EXPECT_EQ(got, kExpectedHash) << "hash of this build: 0x" << std::hex << got;
}

TEST(Determinism, SameHashOnAnyNumberOfThreads) {
  SerialExecutor serial;
  const std::uint64_t one = query_hash(serial);
  for (const unsigned threads : {2u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(query_hash(pool), one) << threads << " threads";
  }
}

}  // namespace
}  // namespace hitscan
