// Bullet 3 as the reference: btCollisionWorld over a btDbvtBroadphase, queried the way Bullet's
// users query it: rayTest with ClosestRayResultCallback, contactTest with a btSphereShape object,
// convexSweepTest with a btSphereShape and ClosestConvexResultCallback; a move is
// setWorldTransform and updateSingleAabb.
//
// Choices that make Bullet answer the same question as hitscan, and as fast as it can:
// - Shapes: btSphereShape, btBoxShape, btCapsuleShape and btCylinderShape (both along local y, the
//   scenario's convention), and for the mesh one btBvhTriangleMeshShape over the shared torus,
//   each instance a btScaledBvhTriangleMeshShape of it (Bullet's instancing with scale). Box and
//   cylinder margins are set to 0 (their setMargin keeps the dimensions, so the shapes are exact,
//   without rounded edges); the mesh's margin is 0; a sphere's and a capsule's margin is their
//   radius, as Bullet defines them, which is exact too.
// - The world is a query-only world: its broadphase keeps no pair cache (btNullPairCache) and
//   defers its pair search (m_deferedcollide), so that a move updates the tree and nothing else;
//   after the objects are added the tree is optimised top-down (btDbvtBroadphase::optimize).
// - btDbvtBroadphase keeps one traversal stack for rayTest and convexSweepTest (Bullet is built
//   without BT_THREADSAFE), so rays on several threads each use a world of their own: the shapes
//   are shared, every thread has its own objects, broadphase and world. Moves go to the first
//   world only.
// - Rays use rayTest's default convex cast (btSubsimplexConvexCast). It stops within about 10^-2
//   of the surface and now and then reports a hit on a shape the ray passes by (the cross-check
//   counts them); btGjkConvexCast (kF_UseGjkConvexCastRaytest), the alternative, is worse on
//   these zero-margin boxes and cylinders: it misses many of them.
// - Touching, for contactTest: a collider counts when Bullet reports a point at distance <= 0
//   (with the default closest-distance threshold of 0 its algorithms may also report points a
//   little apart).

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <algorithm>

#include "backend.hpp"

namespace hitscan::bench {
namespace {

static_assert(sizeof(btScalar) == sizeof(float), "the benchmark links Bullet's single-precision build");

btVector3 to_bullet(Vec3f v) { return {v.x, v.y, v.z}; }
btTransform to_bullet(const Quatf& q, Vec3f p) { return btTransform(btQuaternion(q.x, q.y, q.z, q.w), to_bullet(p)); }

// One world and what it is made of. The world is destroyed first (its destructor takes the
// objects' proxies out of the broadphase), then the objects, dispatcher, broadphase, pair cache.
struct World {
  btNullPairCache pairs;
  std::unique_ptr<btDbvtBroadphase> broadphase;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::vector<std::unique_ptr<btCollisionObject>> objects;
  std::unique_ptr<btCollisionWorld> world;
};

// Counts the colliders Bullet reports touching the query object.
struct TouchingCallback final : btCollisionWorld::ContactResultCallback {
  std::vector<std::uint32_t>* ids = nullptr;
  std::uint32_t count = 0;
  int last = -1;

  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrap0, int, int,
                           const btCollisionObjectWrapper* wrap1, int, int) override {
    if (point.getDistance() > 0) return 0;
    // The query object is one of the two; the other is the collider.
    const int a = wrap0->getCollisionObject()->getUserIndex(), b = wrap1->getCollisionObject()->getUserIndex();
    const int collider = a >= 0 ? a : b;
    // Points of one pair arrive together; a pair already counted is skipped.
    if (collider == last) return 0;
    if (ids) {
      if (std::find(ids->begin(), ids->end(), std::uint32_t(collider)) != ids->end()) return 0;
      ids->push_back(std::uint32_t(collider));
    }
    last = collider;
    ++count;
    return 0;
  }
};

class BulletBackend final : public TouchingOverlaps<BulletBackend> {
  friend class TouchingOverlaps<BulletBackend>;  // touching

 public:
  BulletBackend(const Scenario& scenario, int threads)
      : arrays_(static_cast<int>(scenario.mesh->triangle_count()),
                const_cast<int*>(reinterpret_cast<const int*>(scenario.mesh->triangles().data())),
                static_cast<int>(sizeof(TriangleMesh::Indices)), static_cast<int>(scenario.mesh->vertex_count()),
                const_cast<btScalar*>(&scenario.mesh->positions().data()->x), static_cast<int>(sizeof(Vec3f))),
        mesh_(&arrays_, /*useQuantizedAabbCompression=*/true),
        query_shape_(1) {
    mesh_.setMargin(0);
    for (const SceneCollider& c : scenario.colliders) shapes_.push_back(make_shape(c));
    worlds_.resize(std::size_t(std::max(1, threads)));
    for (std::unique_ptr<World>& w : worlds_) w = make_world(scenario);
    query_object_.setCollisionShape(&query_shape_);
    query_object_.setUserIndex(-1);
  }

  const std::string& name() const override { return name_; }

  void raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) override {
    trace(*worlds_[0]->world, rays, out);
  }

  bool raycast_threads(std::span<const QueryRay> rays, std::span<CastAnswer> out, int threads) override {
    threads = std::min<int>(threads, int(worlds_.size()));
    run_in_chunks(rays.size(), threads, [&](int t, std::size_t first, std::size_t count) {
      trace(*worlds_[std::size_t(t)]->world, rays.subspan(first, count), out.subspan(first, count));
    });
    return true;
  }

  void all_hits(const QueryRay& r, std::vector<std::uint32_t>& ids) override {
    const btVector3 from = to_bullet(r.origin), to = to_bullet(r.origin + normalize(r.direction) * r.max_distance);
    btCollisionWorld::AllHitsRayResultCallback callback(from, to);
    worlds_[0]->world->rayTest(from, to, callback);
    ids.clear();
    for (int k = 0; k < callback.m_collisionObjects.size(); ++k) {
      ids.push_back(std::uint32_t(callback.m_collisionObjects[k]->getUserIndex()));
    }
  }

  void sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) override {
    const btCollisionWorld& world = *worlds_[0]->world;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      const SphereSweep& s = sweeps[i];
      const btSphereShape shape(s.sphere.radius);
      const btVector3 from = to_bullet(s.sphere.center);
      const btVector3 to = to_bullet(s.sphere.center + s.direction * s.max_distance);
      btCollisionWorld::ClosestConvexResultCallback callback(from, to);
      world.convexSweepTest(&shape, btTransform(btQuaternion::getIdentity(), from),
                            btTransform(btQuaternion::getIdentity(), to), callback);
      out[i] = callback.hasHit() ? CastAnswer{callback.m_closestHitFraction * s.max_distance,
                                              std::uint32_t(callback.m_hitCollisionObject->getUserIndex())}
                                 : CastAnswer{};
    }
  }

  void capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) override {
    const btCollisionWorld& world = *worlds_[0]->world;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      const CapsuleSweep& s = sweeps[i].sweep;
      // btCapsuleShape(radius, length of the core) lies along y, turned to the capsule's axis.
      const btCapsuleShape shape(s.capsule.radius, 2 * sweeps[i].half_length);
      const Vec3f center = (s.capsule.a + s.capsule.b) * 0.5f;
      const btTransform from = to_bullet(sweeps[i].rotation, center);
      const btTransform to = to_bullet(sweeps[i].rotation, center + s.direction * s.max_distance);
      btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
      world.convexSweepTest(&shape, from, to, callback);
      out[i] = callback.hasHit() ? CastAnswer{callback.m_closestHitFraction * s.max_distance,
                                              std::uint32_t(callback.m_hitCollisionObject->getUserIndex())}
                                 : CastAnswer{};
    }
  }

  bool move(std::span<const Move> moves) override {
    World& w = *worlds_[0];
    for (const Move& m : moves) {
      btCollisionObject& object = *w.objects[m.index];
      object.setWorldTransform(to_bullet(m.rotation, m.position));
      w.world->updateSingleAabb(&object);
    }
    return true;
  }

 private:
  std::unique_ptr<btCollisionShape> make_shape(const SceneCollider& c) {
    switch (c.kind) {
      case ShapeKind::sphere: return std::make_unique<btSphereShape>(c.size.x);
      case ShapeKind::box: {
        auto box = std::make_unique<btBoxShape>(to_bullet(c.size));
        box->setMargin(0);
        return box;
      }
      // btCapsuleShape(radius, height): height is the distance between the caps' centres.
      case ShapeKind::capsule: return std::make_unique<btCapsuleShape>(c.size.x, 2 * c.size.y);
      case ShapeKind::cylinder: {
        auto cylinder = std::make_unique<btCylinderShape>(btVector3(c.size.x, c.size.y, c.size.x));
        cylinder->setMargin(0);
        return cylinder;
      }
      case ShapeKind::mesh:
        return std::make_unique<btScaledBvhTriangleMeshShape>(&mesh_, btVector3(c.size.x, c.size.x, c.size.x));
    }
    return nullptr;
  }

  std::unique_ptr<World> make_world(const Scenario& scenario) {
    auto w = std::make_unique<World>();
    w->broadphase = std::make_unique<btDbvtBroadphase>(&w->pairs);
    w->broadphase->m_deferedcollide = true;
    w->dispatcher = std::make_unique<btCollisionDispatcher>(&configuration_);
    w->world = std::make_unique<btCollisionWorld>(w->dispatcher.get(), w->broadphase.get(), &configuration_);
    for (std::size_t i = 0; i < scenario.colliders.size(); ++i) {
      const SceneCollider& c = scenario.colliders[i];
      auto object = std::make_unique<btCollisionObject>();
      object->setCollisionShape(shapes_[i].get());
      object->setWorldTransform(to_bullet(c.rotation, c.position));
      object->setUserIndex(int(i));
      w->world->addCollisionObject(object.get());
      w->objects.push_back(std::move(object));
    }
    w->broadphase->optimize();
    return w;
  }

  // Any hit: the first reported contact ends the ray (a closest hit fraction of 0 stops Bullet's
  // walk of the broadphase and of a mesh's triangles).
  struct AnyHitCallback final : btCollisionWorld::RayResultCallback {
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool) override {
      m_collisionObject = result.m_collisionObject;
      m_closestHitFraction = 0;
      return 0;
    }
  };

  void raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const QueryRay& r = rays[i];
      const btVector3 from = to_bullet(r.origin);
      const btVector3 to = to_bullet(r.origin + r.direction * r.max_distance);
      AnyHitCallback callback;
      worlds_[0]->world->rayTest(from, to, callback);
      out[i] = callback.hasHit() ? 1 : 0;
    }
  }

  static void trace(const btCollisionWorld& world, std::span<const QueryRay> rays, std::span<CastAnswer> out) {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const QueryRay& r = rays[i];
      const btVector3 from = to_bullet(r.origin);
      const btVector3 to = to_bullet(r.origin + r.direction * r.max_distance);
      btCollisionWorld::ClosestRayResultCallback callback(from, to);
      world.rayTest(from, to, callback);
      out[i] = callback.hasHit() ? CastAnswer{callback.m_closestHitFraction * r.max_distance,
                                              std::uint32_t(callback.m_collisionObject->getUserIndex())}
                                 : CastAnswer{};
    }
  }

  std::uint32_t touching(const Spheref& sphere, std::vector<std::uint32_t>* ids) {
    query_shape_.setUnscaledRadius(sphere.radius);
    query_object_.setWorldTransform(btTransform(btQuaternion::getIdentity(), to_bullet(sphere.center)));
    TouchingCallback callback;
    callback.ids = ids;
    worlds_[0]->world->contactTest(&query_object_, callback);
    return callback.count;
  }

  btDefaultCollisionConfiguration configuration_;
  btTriangleIndexVertexArray arrays_;
  btBvhTriangleMeshShape mesh_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<World>> worlds_;
  btSphereShape query_shape_;
  btCollisionObject query_object_;
  std::string name_ = "bullet";
};

}  // namespace

std::unique_ptr<Backend> make_bullet(const Scenario& scenario, int threads) {
  return std::make_unique<BulletBackend>(scenario, threads);
}

}  // namespace hitscan::bench
