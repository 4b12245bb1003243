// Bullet as a reference: btBvhTriangleMeshShape (quantized AABB tree) over the mesh's own arrays,
// closest hits through performRaycast. Bullet casts segments, so a ray becomes the segment from
// origin to origin + tmax * dir and the hit fraction times tmax is its t. Its quantized nodes hold
// a triangle index in 21 bits beside a part index in 10 (btQuantizedBvh.h, MAX_NUM_PARTS_IN_BITS),
// so larger meshes are handed over as consecutive parts of 2^21 triangles.

#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btOptimizedBvh.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <vector>

#include "backend.hpp"
#include "statistics.hpp"

namespace hitscan::bench {
namespace {

static_assert(sizeof(btScalar) == sizeof(float), "the benchmark links Bullet's single-precision build");

constexpr std::size_t kPartTriangles = std::size_t(1) << (31 - MAX_NUM_PARTS_IN_BITS);

class ClosestTriangle final : public btTriangleRaycastCallback {
 public:
  using btTriangleRaycastCallback::btTriangleRaycastCallback;
  btScalar reportHit(const btVector3&, btScalar fraction, int part, int triangle_index) override {
    triangle = static_cast<std::uint32_t>(std::size_t(part) * kPartTriangles + std::size_t(triangle_index));
    return fraction;  // becomes m_hitFraction: only closer triangles are reported afterwards
  }
  std::uint32_t triangle = kNoPrimitive;
};

// The mesh's arrays as Bullet's parts, read in place (each part sees every vertex).
std::unique_ptr<btTriangleIndexVertexArray> bullet_arrays(const TriangleMesh& mesh) {
  auto arrays = std::make_unique<btTriangleIndexVertexArray>();
  for (std::size_t first = 0; first < mesh.triangle_count(); first += kPartTriangles) {
    btIndexedMesh part;
    part.m_numTriangles = static_cast<int>(std::min(kPartTriangles, mesh.triangle_count() - first));
    part.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(mesh.triangles().data() + first);
    part.m_triangleIndexStride = static_cast<int>(sizeof(TriangleMesh::Indices));
    part.m_numVertices = static_cast<int>(mesh.vertex_count());
    part.m_vertexBase = reinterpret_cast<const unsigned char*>(mesh.positions().data());
    part.m_vertexStride = static_cast<int>(sizeof(Vec3f));
    arrays->addIndexedMesh(part, PHY_INTEGER);
  }
  return arrays;
}

// Bullet reads the vertices and indices in place; the shape must outlive nothing but this.
struct BulletMesh {
  std::shared_ptr<const TriangleMesh> mesh;
  std::unique_ptr<btTriangleIndexVertexArray> arrays;
  btBvhTriangleMeshShape shape;

  explicit BulletMesh(std::shared_ptr<const TriangleMesh> m)
      : mesh(std::move(m)), arrays(bullet_arrays(*mesh)), shape(arrays.get(), /*useQuantizedAabbCompression=*/true) {}
};

class BulletBackend final : public Backend {
 public:
  explicit BulletBackend(std::unique_ptr<BulletMesh> mesh) : mesh_(std::move(mesh)) {}

  const std::string& name() const override { return name_; }
  bool has_any() const override { return false; }
  /// Bullet does not report its memory; the size of the serialised tree stands for it.
  std::size_t memory_bytes() const override {
    const btOptimizedBvh* bvh = mesh_->shape.getOptimizedBvh();
    return bvh ? bvh->calculateSerializeBufferSize() : 0;
  }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const Rayf& r = rays[i];
      const btVector3 from(r.origin.x, r.origin.y, r.origin.z);
      const Vec3f end = r.origin + r.dir * r.tmax;
      const btVector3 to(end.x, end.y, end.z);
      ClosestTriangle callback(from, to);
      mesh_->shape.performRaycast(&callback, from, to);
      const bool hit = callback.triangle != kNoPrimitive;
      out.t[i] = hit ? callback.m_hitFraction * r.tmax : kInfinity<float>;
      out.triangle[i] = callback.triangle;
    }
  }

  void any(std::span<const Rayf>, ResultSpan) const override {}

 private:
  std::unique_ptr<BulletMesh> mesh_;
  std::string name_ = "bullet";
};

}  // namespace

BuildTiming build_bullet(std::shared_ptr<const TriangleMesh> mesh, int builds) {
  std::unique_ptr<BulletMesh> built;
  const double ms = median_ms(builds, [&] { built.reset(); }, [&] { built = std::make_unique<BulletMesh>(mesh); });
  return {std::make_unique<BulletBackend>(std::move(built)), ms};
}

}  // namespace hitscan::bench
