#include "jolt_setup.hpp"

#include <Jolt/Core/Factory.h>
#include <Jolt/RegisterTypes.h>

#include <stdexcept>

namespace hitscan::bench {

void set_up_jolt() {
  // Jolt's process-wide state: its allocator, the factory of its serialisable types, the types.
  struct Session {
    Session() {
      JPH::RegisterDefaultAllocator();
      JPH::Factory::sInstance = new JPH::Factory();
      JPH::RegisterTypes();
    }
    ~Session() {
      JPH::UnregisterTypes();
      delete JPH::Factory::sInstance;
      JPH::Factory::sInstance = nullptr;
    }
  };
  static Session session;
}

JoltWorld::JoltWorld(std::size_t max_bodies) : temp_(1 << 20), jobs_(JPH::cMaxPhysicsJobs) {
  system_.Init(JPH::uint(max_bodies), 0, 1024, 1024, layers_, object_vs_broadphase_, object_pairs_);
}

JPH::BodyID JoltWorld::create(const JPH::BodyCreationSettings& settings) {
  JPH::Body* body = bodies().CreateBody(settings);
  if (!body) throw std::runtime_error("jolt: CreateBody failed");
  return body->GetID();
}

void JoltWorld::add(std::vector<JPH::BodyID> ids) {
  // A copy: AddBodiesPrepare may reorder the IDs it is given.
  const JPH::BodyInterface::AddState state = bodies().AddBodiesPrepare(ids.data(), int(ids.size()));
  bodies().AddBodiesFinalize(ids.data(), int(ids.size()), state, JPH::EActivation::DontActivate);
  system_.OptimizeBroadPhase();
}

void JoltWorld::update() {
  if (system_.Update(kJoltFrame, 1, &temp_, &jobs_) != JPH::EPhysicsUpdateError::None) {
    throw std::runtime_error("jolt: PhysicsSystem::Update failed");
  }
}

}  // namespace hitscan::bench
