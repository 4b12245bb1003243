#pragma once
// What every Jolt baseline of the benchmarks sets up the same way: Jolt's process-wide state, the
// one broadphase layer all bodies share, the frame a commit steps and the conversions of vectors
// and rotations. Included only by the files that are compiled with Jolt (bench/CMakeLists.txt).

#include <Jolt/Jolt.h>

#include <Jolt/Core/JobSystemSingleThreaded.h>
#include <Jolt/Core/TempAllocator.h>
#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Collision/BroadPhase/BroadPhaseLayer.h>
#include <Jolt/Physics/PhysicsSystem.h>

#include <cstddef>
#include <vector>

#include "hitscan/math/quat.hpp"
#include "hitscan/math/vec3.hpp"

namespace hitscan::bench {

/// Jolt's process-wide setup (allocator, factory, types), done once however often it is called.
void set_up_jolt();

/// The step PhysicsSystem::Update is given for a commit (one frame at 60 Hz).
inline constexpr float kJoltFrame = 1.0f / 60.0f;

inline JPH::Vec3 to_jolt(Vec3f v) { return {v.x, v.y, v.z}; }
inline JPH::Quat to_jolt(const Quatf& q) { return {q.x, q.y, q.z, q.w}; }

/// The one broadphase layer every body is in.
class JoltLayers final : public JPH::BroadPhaseLayerInterface {
 public:
  JPH::uint GetNumBroadPhaseLayers() const override { return 1; }
  JPH::BroadPhaseLayer GetBroadPhaseLayer(JPH::ObjectLayer) const override { return JPH::BroadPhaseLayer(0); }
#if defined(JPH_EXTERNAL_PROFILE) || defined(JPH_PROFILE_ENABLED)
  const char* GetBroadPhaseLayerName(JPH::BroadPhaseLayer) const override { return "bodies"; }
#endif
};

/// A PhysicsSystem of static bodies in one layer, as a game sets one up for queries, with what it
/// needs to step (a temporary allocator, a job system running on the calling thread).
class JoltWorld {
 public:
  explicit JoltWorld(std::size_t max_bodies);

  /// Creates a body (added to the system by add); throws when Jolt cannot.
  JPH::BodyID create(const JPH::BodyCreationSettings& settings);
  /// Adds the bodies created, in one AddBodiesPrepare / AddBodiesFinalize, none activated, then
  /// optimises the broadphase, as Jolt advises for a level loaded at once.
  void add(std::vector<JPH::BodyID> ids);
  /// PhysicsSystem::Update by one frame with one collision step; throws when it fails.
  void update();

  JPH::BodyInterface& bodies() { return system_.GetBodyInterfaceNoLock(); }
  /// The no-lock interface: nothing modifies the system while queries run.
  const JPH::NarrowPhaseQuery& query() const { return system_.GetNarrowPhaseQueryNoLock(); }

 private:
  // First: Jolt's allocator must be set up before the members below allocate.
  struct SetUp {
    SetUp() { set_up_jolt(); }
  } set_up_;
  JoltLayers layers_;
  JPH::ObjectVsBroadPhaseLayerFilter object_vs_broadphase_;
  JPH::ObjectLayerPairFilter object_pairs_;
  JPH::TempAllocatorImpl temp_;
  JPH::JobSystemSingleThreaded jobs_;
  JPH::PhysicsSystem system_;
};

}  // namespace hitscan::bench
