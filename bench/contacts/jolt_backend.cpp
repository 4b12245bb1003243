// Jolt Physics as a baseline of the contacts suite: a PhysicsSystem holding every box as a static
// body, moved each pass with BodyInterface::SetPosition and brought up to date with
// PhysicsSystem::Update, then one NarrowPhaseQuery::CollideShape per sphere (a SphereShape made
// once per sphere). Compiled only when the benchmark is configured with HITSCAN_BENCH_JOLT_DIR
// (bench/CMakeLists.txt builds Jolt there in its shipping configuration).
//
// Choices that make Jolt answer the same question as hitscan:
// - Boxes are BoxShape with convex radius 0 (the default, 0.05, rounds their edges and corners),
//   rotated as the scene's boxes: the quaternion of the same re-orthonormalised rotation every
//   backend takes.
// - The spheres are query shapes, not bodies: the suite asks for (sphere, box) pairs only, so
//   there are no sphere-sphere or box-box pairs for Jolt to skip.
// - Jolt has no dedicated sphere-box routine: CollideShape runs its convex-convex path (GJK, then
//   EPA for penetration). A pair counts as touching when Jolt reports a positive penetration
//   depth; its contact is Jolt's: the points on the sphere and on the box, and the penetration
//   axis (the direction to move the box out), reversed to point from the box to the sphere.
// - Results are asked for in world space (base offset zero) and on the calling thread.

#include <Jolt/Jolt.h>

#include <Jolt/Physics/Body/BodyInterface.h>
#include <Jolt/Physics/Collision/CollideShape.h>
#include <Jolt/Physics/Collision/NarrowPhaseQuery.h>
#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>

#include <type_traits>

#include "../common/jolt_setup.hpp"
#include "backend.hpp"

namespace hitscan::bench {
namespace {

static_assert(std::is_same_v<JPH::Real, float>, "the benchmark builds Jolt in single precision");

constexpr JPH::ObjectLayer kLayer = 0;

Vec3f from_jolt(JPH::Vec3Arg v) { return {v.GetX(), v.GetY(), v.GetZ()}; }

// The rotation of a box as Jolt takes it: Mat3 stores columns, as Mat44 does.
JPH::Quat rotation_of(const Mat3f& r) {
  const JPH::Mat44 m(JPH::Vec4(r.col[0].x, r.col[0].y, r.col[0].z, 0), JPH::Vec4(r.col[1].x, r.col[1].y, r.col[1].z, 0),
                     JPH::Vec4(r.col[2].x, r.col[2].y, r.col[2].z, 0), JPH::Vec4(0, 0, 0, 1));
  return m.GetQuaternion().Normalized();
}

// The touching boxes of one sphere, each as a PairContact.
class PairCollector final : public JPH::CollideShapeCollector {
 public:
  PairCollector(const std::vector<std::uint32_t>& box_of, std::vector<PairContact>& out) : box_of_(box_of), out_(out) {}

  std::uint32_t sphere = 0;

  void AddHit(const JPH::CollideShapeResult& hit) override {
    if (!(hit.mPenetrationDepth > 0.0f)) return;
    PairContact pair;
    pair.sphere = sphere;
    pair.box = box_of_[hit.mBodyID2.GetIndex()];
    Contactf& c = pair.contact;
    c.touching = true;
    c.depth = hit.mPenetrationDepth;
    c.normal = -from_jolt(hit.mPenetrationAxis.NormalizedOr(JPH::Vec3::sZero()));
    c.point_on_a = from_jolt(hit.mContactPointOn1);
    c.point_on_b = from_jolt(hit.mContactPointOn2);
    out_.push_back(pair);
  }

 private:
  const std::vector<std::uint32_t>& box_of_;
  std::vector<PairContact>& out_;
};

class JoltContacts final : public Backend {
 public:
  explicit JoltContacts(const ContactScene& scene) : world_(scene.box_count()) {
    const std::size_t boxes = scene.box_count();
    const Frame& first = scene.frames.front();
    ids_.resize(boxes);
    box_of_.assign(boxes, 0);
    for (std::size_t j = 0; j < boxes; ++j) {
      const Obbf& box = scene.boxes[j].box;
      const JPH::BodyCreationSettings settings(new JPH::BoxShape(to_jolt(box.half_extents), 0.0f),
                                               to_jolt(first.box_centers[j]), rotation_of(box.rotation),
                                               JPH::EMotionType::Static, kLayer);
      ids_[j] = world_.create(settings);
      box_of_[ids_[j].GetIndex()] = std::uint32_t(j);
    }
    world_.add(ids_);
    for (const float radius : scene.radii) spheres_.push_back(new JPH::SphereShape(radius));
  }

  const std::string& name() const override { return name_; }
  bool is_hitscan() const override { return false; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    JPH::BodyInterface& bodies = world_.bodies();
    for (std::size_t j = 0; j < ids_.size(); ++j) {
      bodies.SetPosition(ids_[j], to_jolt(frame.box_centers[j]), JPH::EActivation::DontActivate);
    }
    world_.update();
    const JPH::NarrowPhaseQuery& query = world_.query();
    PairCollector collector(box_of_, out);
    for (std::size_t i = 0; i < spheres_.size(); ++i) {
      collector.sphere = std::uint32_t(i);
      query.CollideShape(spheres_[i].GetPtr(), JPH::Vec3::sOne(), JPH::RMat44::sTranslation(to_jolt(frame.sphere_centers[i])),
                         settings_, JPH::RVec3::sZero(), collector);
    }
  }

 private:
  JoltWorld world_;
  std::vector<JPH::Ref<JPH::Shape>> spheres_;
  std::vector<JPH::BodyID> ids_;
  // The box of each body, by BodyID::GetIndex().
  std::vector<std::uint32_t> box_of_;
  JPH::CollideShapeSettings settings_;
  std::string name_ = "jolt";
};

}  // namespace

std::unique_ptr<Backend> make_jolt(const ContactScene& scene) {
  return std::make_unique<JoltContacts>(scene);
}

}  // namespace hitscan::bench
