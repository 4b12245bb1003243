// Jolt Physics as a baseline: a PhysicsSystem holding every collider as a static body, queried
// through its NarrowPhaseQuery the way Jolt's users query it: CastRay for the closest hit, CastRay
// with an AnyHitCollisionCollector for any hit, CollideShape with a sphere for overlaps, CastShape with a sphere and a closest-hit collector for
// sphere casts; a move is BodyInterface::SetPositionAndRotation, a commit PhysicsSystem::Update.
// Compiled only when the benchmark is configured with HITSCAN_BENCH_JOLT_DIR (bench/CMakeLists.txt
// builds Jolt there in its shipping configuration).
//
// Choices that make Jolt answer the same question as hitscan, and as fast as it can:
// - Shapes: SphereShape, BoxShape, CapsuleShape and CylinderShape (capsules and cylinders along
//   local y, the scenario's convention), and for the mesh one MeshShape over the shared torus, each
//   instance a ScaledShape of it (Jolt's instancing with scale). Boxes and cylinders have convex
//   radius 0: the default (0.05) rounds their edges, and distances near the edges would differ.
// - One object layer and one broadphase layer: every body is static, and queries ask about all of
//   them. Bodies are created, then added in one AddBodiesPrepare / AddBodiesFinalize, then the
//   broadphase is optimised (OptimizeBroadPhase), as Jolt advises for a level loaded at once.
// - Queries use the no-lock interfaces (GetNarrowPhaseQueryNoLock, GetBodyInterfaceNoLock): nothing
//   modifies the system while queries run, which is also what lets the rays run on several
//   threads against the one system.
// - Faces: hitscan's defaults are solid solids and two-sided surfaces. CastRay (the closest-hit
//   form) treats convex shapes as solid and reports the back faces of triangles; the collector
//   form, CollideShape and CastShape are given EBackFaceMode::CollideWithBackFaces for triangles
//   (their default ignores a mesh's back faces). Active edges are not asked for (EActiveEdgeMode::CollideWithAll): they change contact
//   normals, which these queries do not return, not which bodies are hit or how far.
// - Touching, for overlaps: a body counts once when CollideShape reports any contact with it (Jolt
//   reports touching within its collision tolerance, 1e-4); after a body's first contact the
//   collector stops testing that body's remaining triangles, as a user counting bodies would.
// - A commit: PhysicsSystem::Update with one collision step on the calling thread. With no active
//   body (all are static) Update only brings the broadphase up to date with the moved bodies.

#include <Jolt/Jolt.h>

#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Body/BodyInterface.h>
#include <Jolt/Physics/Collision/CastResult.h>
#include <Jolt/Physics/Collision/CollideShape.h>
#include <Jolt/Physics/Collision/CollisionCollectorImpl.h>
#include <Jolt/Physics/Collision/NarrowPhaseQuery.h>
#include <Jolt/Physics/Collision/RayCast.h>
#include <Jolt/Physics/Collision/ShapeCast.h>
#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>
#include <Jolt/Physics/Collision/Shape/CylinderShape.h>
#include <Jolt/Physics/Collision/Shape/MeshShape.h>
#include <Jolt/Physics/Collision/Shape/ScaledShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "../common/jolt_setup.hpp"
#include "backend.hpp"

namespace hitscan::bench {
namespace {

static_assert(std::is_same_v<JPH::Real, float>, "the benchmark builds Jolt in single precision");

constexpr JPH::ObjectLayer kLayer = 0;

// Counts the bodies CollideShape reports touching the query shape, each once.
class TouchingCollector final : public JPH::CollideShapeCollector {
 public:
  TouchingCollector(const std::vector<std::uint32_t>& collider_of, std::vector<std::uint32_t>* ids)
      : collider_of_(collider_of), ids_(ids) {}

  std::uint32_t count = 0;

  void OnBody(const JPH::Body&) override { counted_ = false; }

  void AddHit(const JPH::CollideShapeResult& hit) override {
    if (counted_) return;
    counted_ = true;
    ++count;
    if (ids_) ids_->push_back(collider_of_[hit.mBodyID2.GetIndex()]);
    // The body is known to touch: the rest of its triangles are skipped ...
    ForceEarlyOut();
  }

  // ... and the next body is tested in full.
  void OnBodyEnd() override { ResetEarlyOutFraction(); }

 private:
  const std::vector<std::uint32_t>& collider_of_;
  std::vector<std::uint32_t>* ids_;
  bool counted_ = false;
};

class JoltBackend final : public TouchingOverlaps<JoltBackend> {
  friend class TouchingOverlaps<JoltBackend>;  // touching

 public:
  JoltBackend(const Scenario& scenario, int threads)
      : threads_(std::max(1, threads)), world_(scenario.colliders.size()) {
    const std::size_t n = scenario.colliders.size();

    JPH::VertexList vertices;
    for (const Vec3f& p : scenario.mesh->positions()) vertices.push_back(JPH::Float3(p.x, p.y, p.z));
    JPH::IndexedTriangleList triangles;
    for (const TriangleMesh::Indices& t : scenario.mesh->triangles()) {
      triangles.push_back(JPH::IndexedTriangle(t[0], t[1], t[2], 0));
    }
    JPH::ShapeSettings::ShapeResult mesh = JPH::MeshShapeSettings(vertices, triangles).Create();
    if (mesh.HasError()) throw std::runtime_error("jolt: MeshShape: " + std::string(mesh.GetError().c_str()));
    mesh_ = mesh.Get();

    ids_.resize(n);
    collider_of_.assign(n, kNoIndex);
    for (std::size_t i = 0; i < n; ++i) {
      const SceneCollider& c = scenario.colliders[i];
      const JPH::BodyCreationSettings settings(make_shape(c), to_jolt(c.position), to_jolt(c.rotation),
                                               JPH::EMotionType::Static, kLayer);
      ids_[i] = world_.create(settings);
      collider_of_[ids_[i].GetIndex()] = std::uint32_t(i);
    }
    world_.add(ids_);

    collide_settings_.mBackFaceMode = JPH::EBackFaceMode::CollideWithBackFaces;
    collide_settings_.mActiveEdgeMode = JPH::EActiveEdgeMode::CollideWithAll;
    cast_settings_.SetBackFaceMode(JPH::EBackFaceMode::CollideWithBackFaces);
    ray_settings_.mBackFaceModeTriangles = JPH::EBackFaceMode::CollideWithBackFaces;  // convex shapes stay solid
    cast_settings_.mActiveEdgeMode = JPH::EActiveEdgeMode::CollideWithAll;
  }

  const std::string& name() const override { return name_; }

  void raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) override { trace(rays, out); }

  bool raycast_threads(std::span<const QueryRay> rays, std::span<CastAnswer> out, int threads) override {
    threads = std::min(threads, threads_);
    run_in_chunks(rays.size(), threads, [&](int, std::size_t first, std::size_t count) {
      trace(rays.subspan(first, count), out.subspan(first, count));
    });
    return true;
  }

  void raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) override {
    const JPH::NarrowPhaseQuery& query = world_.query();
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const QueryRay& r = rays[i];
      const JPH::RRayCast ray(to_jolt(r.origin), to_jolt(normalize(r.direction) * r.max_distance));
      JPH::AnyHitCollisionCollector<JPH::CastRayCollector> collector;
      query.CastRay(ray, ray_settings_, collector);
      out[i] = collector.HadHit() ? 1 : 0;
    }
  }

  void all_hits(const QueryRay& r, std::vector<std::uint32_t>& ids) override {
    const JPH::RRayCast ray(to_jolt(r.origin), to_jolt(normalize(r.direction) * r.max_distance));
    JPH::AllHitCollisionCollector<JPH::CastRayCollector> collector;
    world_.query().CastRay(ray, ray_settings_, collector);
    ids.clear();
    for (const JPH::RayCastResult& hit : collector.mHits) ids.push_back(collider_of_[hit.mBodyID.GetIndex()]);
  }

  void sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) override {
    const JPH::NarrowPhaseQuery& query = world_.query();
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      const SphereSweep& s = sweeps[i];
      JPH::SphereShape shape(s.sphere.radius);
      shape.SetEmbedded();
      const JPH::Vec3 start = to_jolt(s.sphere.center);
      const JPH::RShapeCast cast(&shape, JPH::Vec3::sOne(), JPH::RMat44::sTranslation(start),
                                 to_jolt(normalize(s.direction) * s.max_distance));
      JPH::ClosestHitCollisionCollector<JPH::CastShapeCollector> collector;
      query.CastShape(cast, cast_settings_, start, collector);
      out[i] = collector.HadHit() ? CastAnswer{collector.mHit.mFraction * s.max_distance,
                                               collider_of_[collector.mHit.mBodyID2.GetIndex()]}
                                  : CastAnswer{};
    }
  }

  void capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) override {
    const JPH::NarrowPhaseQuery& query = world_.query();
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      const CapsuleSweep& s = sweeps[i].sweep;
      // CapsuleShape(half height of the core, radius) lies along y, turned to the capsule's axis.
      JPH::CapsuleShape shape(sweeps[i].half_length, s.capsule.radius);
      shape.SetEmbedded();
      const JPH::Vec3 start = to_jolt((s.capsule.a + s.capsule.b) * 0.5f);
      const JPH::RShapeCast cast(&shape, JPH::Vec3::sOne(),
                                 JPH::RMat44::sRotationTranslation(to_jolt(sweeps[i].rotation), start),
                                 to_jolt(normalize(s.direction) * s.max_distance));
      JPH::ClosestHitCollisionCollector<JPH::CastShapeCollector> collector;
      query.CastShape(cast, cast_settings_, start, collector);
      out[i] = collector.HadHit() ? CastAnswer{collector.mHit.mFraction * s.max_distance,
                                               collider_of_[collector.mHit.mBodyID2.GetIndex()]}
                                  : CastAnswer{};
    }
  }

  bool move(std::span<const Move> moves) override {
    JPH::BodyInterface& bodies = world_.bodies();
    for (const Move& m : moves) {
      bodies.SetPositionAndRotation(ids_[m.index], to_jolt(m.position), to_jolt(m.rotation),
                                    JPH::EActivation::DontActivate);
    }
    world_.update();
    return true;
  }

 private:
  const JPH::Shape* make_shape(const SceneCollider& c) {
    JPH::Ref<JPH::Shape> shape;
    switch (c.kind) {
      case ShapeKind::sphere: shape = new JPH::SphereShape(c.size.x); break;
      case ShapeKind::box: shape = new JPH::BoxShape(to_jolt(c.size), 0.0f); break;
      // CapsuleShape(half height of the core, radius); CylinderShape(half height, radius, convex radius).
      case ShapeKind::capsule: shape = new JPH::CapsuleShape(c.size.y, c.size.x); break;
      case ShapeKind::cylinder: shape = new JPH::CylinderShape(c.size.y, c.size.x, 0.0f); break;
      case ShapeKind::mesh: shape = new JPH::ScaledShape(mesh_, JPH::Vec3::sReplicate(c.size.x)); break;
    }
    shapes_.push_back(shape);
    return shape.GetPtr();
  }

  void trace(std::span<const QueryRay> rays, std::span<CastAnswer> out) const {
    const JPH::NarrowPhaseQuery& query = world_.query();
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const QueryRay& r = rays[i];
      const JPH::RRayCast ray(to_jolt(r.origin), to_jolt(normalize(r.direction) * r.max_distance));
      JPH::RayCastResult hit;
      out[i] = query.CastRay(ray, hit)
                   ? CastAnswer{hit.mFraction * r.max_distance, collider_of_[hit.mBodyID.GetIndex()]}
                   : CastAnswer{};
    }
  }

  std::uint32_t touching(const Spheref& sphere, std::vector<std::uint32_t>* ids) {
    JPH::SphereShape shape(sphere.radius);
    shape.SetEmbedded();
    const JPH::Vec3 center = to_jolt(sphere.center);
    TouchingCollector collector(collider_of_, ids);
    world_.query().CollideShape(&shape, JPH::Vec3::sOne(), JPH::RMat44::sTranslation(center),
                                       collide_settings_, center, collector);
    return collector.count;
  }

  int threads_;
  JoltWorld world_;
  JPH::Ref<JPH::Shape> mesh_;
  std::vector<JPH::Ref<JPH::Shape>> shapes_;
  std::vector<JPH::BodyID> ids_;
  // The collider of each body, by BodyID::GetIndex().
  std::vector<std::uint32_t> collider_of_;
  JPH::CollideShapeSettings collide_settings_;
  JPH::ShapeCastSettings cast_settings_;
  JPH::RayCastSettings ray_settings_;
  std::string name_ = "jolt";
};

}  // namespace

std::unique_ptr<Backend> make_jolt(const Scenario& scenario, int threads) {
  return std::make_unique<JoltBackend>(scenario, threads);
}

}  // namespace hitscan::bench
