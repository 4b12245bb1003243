// Bullet 3 as the reference: a btCollisionWorld with btDbvtBroadphase, btCollisionDispatcher and
// btDefaultCollisionConfiguration, over the scene's spheres (btSphereShape) and boxes
// (btBoxShape with the scene's re-orthonormalised rotation as the basis).
//
// Choices that make Bullet answer the same question as hitscan:
// - Box margins are set to 0 (btBoxShape::setMargin keeps the half extents, so the box is the
//   exact box, not one with rounded corners); a sphere's margin is its radius, as Bullet defines it.
// - Spheres and boxes sit in two collision filter groups that only collide with each other, so
//   Bullet's broadphase never hands sphere-sphere or box-box pairs to the narrowphase.
// - Bullet 3.24 compiles btSphereBoxCollisionAlgorithm out of btDefaultCollisionConfiguration
//   (USE_BUGGY_SPHERE_BOX_ALGORITHM is not defined); with `sphere_box_algorithm` it is registered
//   on the dispatcher for (sphere, box) and, swapped, for (box, sphere). Without it, the default
//   configuration's btConvexConvexAlgorithm (GJK, EPA for penetration) answers.
// - Bullet keeps contacts up to its contact breaking threshold (gContactBreakingThreshold, 0.02,
//   scaled by each shape's size) apart and keeps up to four points per pair across passes. Left
//   at their defaults; a pair counts as touching when its deepest manifold point has a distance
//   below 0, and that point is its contact.
//
// A pass sets every object's origin to the frame's centre, then either steps the warm world
// (performDiscreteCollisionDetection: AABBs, the broadphase's incremental update, the narrowphase
// on the cached pairs) or makes a new world, adds every object, steps it once and destroys it
// (World::remove_all_pairs keeps that linear). Either way it reads the manifolds into
// PairContact records.

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionDispatch/btSphereBoxCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include "backend.hpp"

namespace hitscan::bench {
namespace {

static_assert(sizeof(btScalar) == sizeof(float), "the benchmark links Bullet's single-precision build");

constexpr int kSphereGroup = 1;
constexpr int kBoxGroup = 2;

btVector3 to_bullet(Vec3f v) { return {v.x, v.y, v.z}; }
Vec3f from_bullet(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

// A collision world and what it is made of. Destroyed world first, then dispatcher and
// broadphase (members go in reverse order); the world's destructor takes its objects out of the
// broadphase, so that they can join another world.
struct World {
  World() = default;
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World() { remove_all_pairs(); }

  // btCollisionWorld's destructor takes each proxy out of the pair cache by scanning every pair
  // (btHashedOverlappingPairCache::cleanProxyFromPairs), which is quadratic: seconds at 10^5
  // objects. Removing the pairs first, one by one by their hash, makes the teardown linear.
  void remove_all_pairs() {
    if (!broadphase) return;
    btOverlappingPairCache* cache = broadphase->getOverlappingPairCache();
    for (int n = cache->getNumOverlappingPairs(); n > 0; n = cache->getNumOverlappingPairs()) {
      const btBroadphasePair& last = cache->getOverlappingPairArrayPtr()[n - 1];
      btBroadphaseProxy* proxy0 = last.m_pProxy0;
      btBroadphaseProxy* proxy1 = last.m_pProxy1;
      cache->removeOverlappingPair(proxy0, proxy1, dispatcher.get());
    }
  }

  std::unique_ptr<btDbvtBroadphase> broadphase;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::unique_ptr<btCollisionWorld> world;
};

class BulletBackend final : public Backend {
 public:
  BulletBackend(const ContactScene& scene, const BulletSettings& settings)
      : spheres_(static_cast<int>(scene.sphere_count())), settings_(settings) {
    name_ = std::string("bullet_") + (settings.sphere_box_algorithm ? "sphere_box" : "gjk") +
            (settings.from_scratch ? "_scratch" : "");
    box_sphere_.m_swapped = true;
    const Frame& first = scene.frames.front();
    for (std::size_t i = 0; i < scene.sphere_count(); ++i) {
      shapes_.push_back(std::make_unique<btSphereShape>(scene.radii[i]));
      add_object(btMatrix3x3::getIdentity(), first.sphere_centers[i], kSphereGroup);
    }
    for (std::size_t j = 0; j < scene.box_count(); ++j) {
      const Obbf& box = scene.boxes[j].box;
      auto shape = std::make_unique<btBoxShape>(to_bullet(box.half_extents));
      shape->setMargin(0);
      shapes_.push_back(std::move(shape));
      // Mat3 stores columns; btMatrix3x3 takes rows.
      const Mat3f& r = box.rotation;
      const btMatrix3x3 basis(r.col[0].x, r.col[1].x, r.col[2].x, r.col[0].y, r.col[1].y, r.col[2].y, r.col[0].z,
                              r.col[1].z, r.col[2].z);
      add_object(basis, first.box_centers[j], kBoxGroup);
    }
    if (!settings_.from_scratch) fill_world(world_);
  }

  const std::string& name() const override { return name_; }
  bool is_hitscan() const override { return false; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    for (int i = 0; i < spheres_; ++i) {
      objects_[std::size_t(i)]->getWorldTransform().setOrigin(to_bullet(frame.sphere_centers[std::size_t(i)]));
    }
    for (std::size_t j = 0; j < frame.box_centers.size(); ++j) {
      objects_[std::size_t(spheres_) + j]->getWorldTransform().setOrigin(to_bullet(frame.box_centers[j]));
    }
    if (settings_.from_scratch) {
      World world;
      fill_world(world);
      world.world->performDiscreteCollisionDetection();
      read_contacts(*world.dispatcher, out);
    } else {
      world_.world->performDiscreteCollisionDetection();
      read_contacts(*world_.dispatcher, out);
    }
  }

 private:
  void add_object(const btMatrix3x3& basis, Vec3f origin, int group) {
    auto object = std::make_unique<btCollisionObject>();
    object->setCollisionShape(shapes_.back().get());
    object->setWorldTransform(btTransform(basis, to_bullet(origin)));
    object->setUserIndex(static_cast<int>(objects_.size()));
    objects_.push_back(std::move(object));
    groups_.push_back(group);
  }

  void fill_world(World& w) {
    w.broadphase = std::make_unique<btDbvtBroadphase>();
    w.dispatcher = std::make_unique<btCollisionDispatcher>(&configuration_);
    if (settings_.sphere_box_algorithm) {
      w.dispatcher->registerCollisionCreateFunc(SPHERE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, &sphere_box_);
      w.dispatcher->registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE, &box_sphere_);
    }
    w.world = std::make_unique<btCollisionWorld>(w.dispatcher.get(), w.broadphase.get(), &configuration_);
    for (std::size_t k = 0; k < objects_.size(); ++k) {
      const int group = groups_[k];
      w.world->addCollisionObject(objects_[k].get(), group, group == kSphereGroup ? kBoxGroup : kSphereGroup);
    }
  }

  // The deepest point of every manifold whose deepest point penetrates, as the sphere's contact
  // with the box: Bullet's normal points from body 1 to body 0, and distance < 0 is penetration.
  void read_contacts(btCollisionDispatcher& dispatcher, std::vector<PairContact>& out) const {
    const int manifolds = dispatcher.getNumManifolds();
    for (int m = 0; m < manifolds; ++m) {
      const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
      const int points = manifold->getNumContacts();
      if (points == 0) continue;
      int deepest = 0;
      for (int p = 1; p < points; ++p) {
        if (manifold->getContactPoint(p).getDistance() < manifold->getContactPoint(deepest).getDistance()) deepest = p;
      }
      const btManifoldPoint& point = manifold->getContactPoint(deepest);
      if (!(point.getDistance() < 0)) continue;
      const int user0 = manifold->getBody0()->getUserIndex(), user1 = manifold->getBody1()->getUserIndex();
      const bool sphere_first = user0 < spheres_;
      PairContact pair;
      pair.sphere = static_cast<std::uint32_t>(sphere_first ? user0 : user1);
      pair.box = static_cast<std::uint32_t>((sphere_first ? user1 : user0) - spheres_);
      Contactf& c = pair.contact;
      c.touching = true;
      c.depth = -point.getDistance();
      const Vec3f normal = from_bullet(point.m_normalWorldOnB);
      c.normal = sphere_first ? normal : -normal;
      c.point_on_a = from_bullet(sphere_first ? point.m_positionWorldOnA : point.m_positionWorldOnB);
      c.point_on_b = from_bullet(sphere_first ? point.m_positionWorldOnB : point.m_positionWorldOnA);
      out.push_back(pair);
    }
  }

  int spheres_;
  BulletSettings settings_;
  std::string name_;
  btDefaultCollisionConfiguration configuration_;
  btSphereBoxCollisionAlgorithm::CreateFunc sphere_box_;
  btSphereBoxCollisionAlgorithm::CreateFunc box_sphere_;
  // Spheres first, then boxes, as the scene's objects.
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
  std::vector<int> groups_;
  World world_;
};

}  // namespace

std::unique_ptr<Backend> make_bullet(const ContactScene& scene, const BulletSettings& settings) {
  return std::make_unique<BulletBackend>(scene, settings);
}

}  // namespace hitscan::bench
