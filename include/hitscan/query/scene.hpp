#pragma once
/// Scene: colliders and the queries users know from game engines — raycast, raycast_any,
/// raycast_all, sphere, capsule, box and convex casts, overlaps, closest_point — with layer
/// masks, a distance limit, face modes, filters and batches, synchronous or in the background.
///
/// Editing and committing. add, remove and the set_ functions record changes; commit makes them
/// visible to queries, all at once. Until then queries see the scene as of the last commit, so a
/// thread may prepare the next frame's changes while others query. The top-level tree over the
/// colliders' boxes is updated in place by commit, a change at a time (a dynamic AABB tree with
/// fattened boxes): moving k of n colliders costs about k log n, not a rebuild.
///
/// Threads. Queries are const and safe from any number of threads at once. Edits are safe from
/// any thread beside queries (they take a lock of their own). commit waits for the queries under
/// way to finish and holds new ones back while it applies the changes, so a query sees the scene
/// entirely before or entirely after a commit, never half of it. A batch counts as one query.
///
/// Asynchronous batches (raycast_batch_async, sphere_cast_batch_async) take their commit boundary
/// at submission: the call returns once its batch holds the scene for reading, which it keeps
/// until it has finished. So the batch sees every commit that returned before the submission; a
/// commit called after the submission returned waits for the batch (as for any query under way),
/// applies to the next batch, and never to half of this one. Each batch runs on a thread of its
/// own, which hands the work to the batch's executor (so even the default pool, whose
/// parallel_for works on the calling thread too, runs it in the background) and ends with it.
/// Because a batch holds the scene until it has finished, a thread must not commit, wait for a
/// batch or destroy an unfinished handle where the batch cannot make progress: inside a task of
/// the ThreadPool the batch runs on (a pool runs one parallel_for at a time, so the batch waits
/// for that task), or inside a filter callback (which must not submit batches either). Submitting
/// from a pool task is fine; give a batch waited for inside a pool task another executor (a
/// SerialExecutor, or a second pool). The scene must stay where it is (not destroyed, moved from
/// or assigned to) until its batches finish.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "hitscan/executor.hpp"
#include "hitscan/query/async_batch.hpp"
#include "hitscan/query/collider.hpp"
#include "hitscan/query/overlap.hpp"
#include "hitscan/query/query_hit.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// What raycast_all wrote into a caller's buffer.
struct RaycastAllCount {
  /// Hits written: the nearest min(total, buffer size).
  std::size_t written = 0;
  /// Hits there were; total - written were dropped.
  std::size_t total = 0;
};

class Scene {
 public:
  Scene();
  ~Scene();
  Scene(Scene&&) noexcept;
  Scene& operator=(Scene&&) noexcept;
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  /// Adds a collider (visible after the next commit) and returns its id. Fails with
  /// invalid_argument for a layer above 31 or a shape and transform that to_world rejects, and
  /// with out_of_range when kMaxColliders colliders exist.
  Result<ColliderId> add(ColliderDesc desc);
  /// Removes a collider at the next commit. not_found for an id that names no collider.
  Status remove(ColliderId id);
  /// Changes a collider at the next commit; the same failures as add, and not_found for a bad id.
  Status set_transform(ColliderId id, const Transformf& transform);
  Status set_shape(ColliderId id, ColliderShape shape);
  Status set_layer(ColliderId id, std::uint32_t layer);
  Status set_user_id(ColliderId id, std::uint64_t user_id);
  /// The collider as last described (committed or not); not_found for a bad id.
  Result<ColliderDesc> collider(ColliderId id) const;

  /// Makes room for `colliders` colliders in all, so that adding up to that many and committing
  /// them allocates once per array instead of growing each step by step. Optional, for a level
  /// loaded at once; changes no answer. Fails with out_of_range above kMaxColliders.
  Status reserve(std::size_t colliders);

  /// Applies every change since the last commit. Returns the number of changes applied.
  std::size_t commit();
  /// Colliders visible to queries.
  std::size_t committed_count() const;

  /// The nearest hit along the ray within options.max_distance. A zero, NaN or infinite direction,
  /// or an origin beyond the working range (±kMaxCoordinate, NaN and infinities included), is a miss.
  QueryHit raycast(const QueryRay& ray, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  /// Whether anything is hit; stops at the first hit found.
  bool raycast_any(const QueryRay& ray, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  /// Every surface crossing within the distance limit, sorted by distance (then by collider and
  /// primitive): a ray through a solid gives its entry and its exit (kHitExit), a ray through a
  /// mesh each triangle it crosses, exactly once at shared edges and vertices. A ray starting
  /// inside a solid gives, with options.solid, a hit at distance 0 (kHitStartedInside) and then
  /// the exit. `out` is cleared first; returns the count.
  std::size_t raycast_all(const QueryRay& ray, std::vector<QueryHit>& out, const QueryOptions& options = {},
                          QueryStats* stats = nullptr) const;
  /// The same into a caller's buffer: the nearest hits that fit, and how many there were.
  RaycastAllCount raycast_all(const QueryRay& ray, std::span<QueryHit> buffer, const QueryOptions& options = {},
                              QueryStats* stats = nullptr) const;

  /// The first collider the moving sphere meets on its way (geometry/sweep.hpp for the method of
  /// each pair; convex hulls by gjk_epa.hpp's convex_cast), within the sweep's and the options'
  /// distance limit, through the layer mask and filter (faces and solid do not apply: solids are
  /// solid, surfaces two-sided). distance is how far the sphere travelled, point the contact
  /// point on the collider, normal the contact normal (from the collider towards the sphere),
  /// face_normal the surface's own normal there; mesh hits carry the triangle and the
  /// barycentrics of the point. A sphere already touching a
  /// collider at the start hits at distance 0 with kHitStartedInside, the normal that separates
  /// them and the depth; among several such, the deepest. A zero, NaN or infinite direction, a
  /// sphere beyond the working range (±kMaxCoordinate) or a negative radius is a miss.
  QueryHit sphere_cast(const SphereSweep& sweep, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  /// The same for a capsule.
  QueryHit capsule_cast(const CapsuleSweep& sweep, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  /// The same for an oriented box, and for a convex hull. Against every collider but planes and
  /// meshes: gjk_epa.hpp's convex_cast (conservative advancement on the GJK distance, stopping
  /// within the contact tolerance of the first contact, never past it; EPA's contact at a start in
  /// contact). Planes: exact, the shape's lowest point on the side of its middle (a box's flat face
  /// or edge: its middle). Meshes, under any transform: the triangles the swept box reaches in the
  /// mesh's BVH, each carried to the world and cast against (mesh/mesh_sweep.hpp). A box with a NaN
  /// or infinite value or negative half extents, or a null hull, is a miss.
  QueryHit box_cast(const BoxSweep& sweep, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  QueryHit convex_cast(const ConvexSweep& sweep, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  /// Every collider the sweep meets, once each at its first contact, sorted by distance (then
  /// collider id); those touched at the start come first at distance 0. `out` is cleared first;
  /// returns the count.
  std::size_t sphere_cast_all(const SphereSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options = {},
                              QueryStats* stats = nullptr) const;
  std::size_t capsule_cast_all(const CapsuleSweep& sweep, std::vector<QueryHit>& out,
                               const QueryOptions& options = {}, QueryStats* stats = nullptr) const;
  std::size_t box_cast_all(const BoxSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options = {},
                           QueryStats* stats = nullptr) const;
  std::size_t convex_cast_all(const ConvexSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options = {},
                              QueryStats* stats = nullptr) const;

  /// The nearest surface point of the scene to p within options.max_distance (inclusive), through
  /// the layer mask and filter (faces do not apply). With options.solid, a p inside a solid is its
  /// own closest point (distance 0, kHitStartedInside); without, the nearest point of the
  /// solid's surface. normal points from the surface to p (the face normal when p is on it),
  /// primitive, u, v and feature describe a mesh triangle's point. Convex hulls are exact: from
  /// outside the nearest point of their triangles, from inside that of their nearest face plane.
  /// A p beyond the working range (±kMaxCoordinate, NaN and infinities included), or a negative or
  /// NaN max_distance, finds nothing.
  QueryHit closest_point(Vec3f p, const QueryOptions& options = {}, QueryStats* stats = nullptr) const;

  /// Every collider the sphere touches (overlaps, or lies within the contact tolerance of), through
  /// the layer mask and filter, into `out` (cleared first) in collider id order; returns the
  /// count. max_distance, faces and solid do not apply: solids are solid, planes, polygons and
  /// meshes are two-sided surfaces (a shape wholly inside a closed mesh touches none of its
  /// triangles). With options.contacts each hit carries its contact (see OverlapHit). The pairs:
  /// - sphere, box, capsule colliders and convex polygons (as a fan of triangles): the exact pair
  ///   kernels of geometry/contact_*.hpp; a polygon's contact is that of its deepest triangle;
  /// - planes: the query shape's extent along the normal against the offset, exact;
  /// - cylinders: a sphere by the closest point of the solid cylinder, exact with contacts; a box
  ///   or a capsule by the GJK distance of box or core segment to the cylinder (touching when it
  ///   is within tolerance, plus the capsule's radius), exact; the contact when they are apart or
  ///   only the capsule's rounding overlaps, but none (has_contact = false) when the box or the
  ///   capsule's core itself overlaps the cylinder. A cylinder with a == b touches nothing.
  /// - convex hulls: GJK's distance for the touch, EPA's contact (geometry/gjk_epa.hpp);
  /// - meshes: with a uniform positive scale, the query shape taken into the mesh's frame and
  ///   mesh/mesh_contact.hpp's BVH walk; under a non-uniform or mirroring scale, every triangle
  ///   taken to the world and tested with the pair kernel (exact, linear in the mesh's size).
  /// A query shape with a coordinate or size beyond the working range (±kMaxCoordinate, NaN and
  /// infinities included), or a negative or NaN radius, touches nothing. Safe from any number of threads, like every query.
  std::size_t overlap_sphere(const Spheref& sphere, std::vector<OverlapHit>& out, const QueryOptions& options = {},
                             QueryStats* stats = nullptr) const;
  /// The same for an oriented box (its rotation expected orthonormal; negative or NaN half
  /// extents touch nothing).
  std::size_t overlap_box(const Obbf& box, std::vector<OverlapHit>& out, const QueryOptions& options = {},
                          QueryStats* stats = nullptr) const;
  /// The same for a capsule.
  std::size_t overlap_capsule(const Capsulef& capsule, std::vector<OverlapHit>& out, const QueryOptions& options = {},
                              QueryStats* stats = nullptr) const;
  /// The same into a caller's buffer: the first hits (in collider id order) that fit, and how many
  /// there were.
  OverlapCount overlap_sphere(const Spheref& sphere, std::span<OverlapHit> buffer, const QueryOptions& options = {},
                              QueryStats* stats = nullptr) const;
  OverlapCount overlap_box(const Obbf& box, std::span<OverlapHit> buffer, const QueryOptions& options = {},
                           QueryStats* stats = nullptr) const;
  OverlapCount overlap_capsule(const Capsulef& capsule, std::span<OverlapHit> buffer, const QueryOptions& options = {},
                               QueryStats* stats = nullptr) const;

  /// hits[i] = raycast(rays[i], options) over `executor` (the default pool when null), identical
  /// to one at a time, without allocating per ray. invalid_argument when the spans differ in size.
  Status raycast_batch(std::span<const QueryRay> rays, std::span<QueryHit> hits, const QueryOptions& options = {},
                       Executor* executor = nullptr) const;
  /// raycast_batch for coherent rays: hits[i] = raycast(rays[i], options), with runs of 64
  /// consecutive rays traced together as packets (each mesh collider by
  /// MeshInstance::intersect_coherent, the other shapes ray by ray), which pays when each run is
  /// coherent: the rays through an 8 x 8 pixel tile, say. The hits are raycast's, bit for bit,
  /// except that of two triangles of a mesh hit at exactly the same distance either may be
  /// reported. With a filter it is raycast_batch. invalid_argument when the spans differ in size.
  Status raycast_coherent_batch(std::span<const QueryRay> rays, std::span<QueryHit> hits,
                                const QueryOptions& options = {}, Executor* executor = nullptr) const;
  /// raycast_coherent_batch when only the distance is wanted (a depth map): distances[i] is
  /// raycast(rays[i], options).distance, +inf for a miss. Cheaper, since the rest of each record
  /// (point, normals, barycentrics) is never made. invalid_argument when the spans differ in size.
  Status raycast_coherent_distances(std::span<const QueryRay> rays, std::span<float> distances,
                                    const QueryOptions& options = {}, Executor* executor = nullptr) const;
  /// hits[i] = sphere_cast(sweeps[i], options), in the same way.
  Status sphere_cast_batch(std::span<const SphereSweep> sweeps, std::span<QueryHit> hits,
                           const QueryOptions& options = {}, Executor* executor = nullptr) const;
  /// hit[i] = raycast_any(rays[i], options) as 0 or 1, in the same way.
  Status raycast_any_batch(std::span<const QueryRay> rays, std::span<std::uint8_t> hit,
                           const QueryOptions& options = {}, Executor* executor = nullptr) const;

  /// raycast_batch in the background: returns at once (see the thread rules above for the commit
  /// it sees) with a handle whose wait() gives hits[i] = raycast(rays[i], options), bitwise those
  /// of raycast_batch. The rays are taken by value (move them in to spare the copy); `options`
  /// is copied, but its filter's context, the executor (the default pool when null) and the
  /// scene must outlive the batch. out_of_memory when the batch's memory or thread cannot be had.
  Result<BatchHandle> raycast_batch_async(std::vector<QueryRay> rays, const QueryOptions& options = {},
                                          Executor* executor = nullptr) const;
  /// sphere_cast_batch in the background, in the same way.
  Result<BatchHandle> sphere_cast_batch_async(std::vector<SphereSweep> sweeps, const QueryOptions& options = {},
                                              Executor* executor = nullptr) const;

  struct State;  // private, defined in src/query

 private:
  std::unique_ptr<State> state_;
};

}  // namespace hitscan
