#include "hitscan/mesh/mesh_sweep.hpp"

#include <bit>
#include <cmath>

#include "hitscan/geometry/detail/gjk_distance.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "mesh_bvh_data.hpp"

namespace hitscan {
namespace {

// The moving shape's bounding box as a centre and half extents.
template <class Shape>
void box_of(const Shape& shape, Vec3f& center, Vec3f& half) {
  const Aabbf box = bounds_of(shape);
  center = box.center();
  half = box.extent() * 0.5f;
}

SweepHitf cast(const Spheref& s, Vec3f d, float limit, const Trianglef& t, ContactTolerancef tol) {
  return sphere_cast(s, d, limit, t, tol);
}
SweepHitf cast(const Capsulef& c, Vec3f d, float limit, const Trianglef& t, ContactTolerancef tol) {
  return capsule_cast(c, d, limit, t, tol);
}

// Whether `candidate` beats `best` (see the header's order).
bool better(const SweepHitf& candidate, std::uint32_t triangle, const MeshSweepHit& best) {
  if (!best.sweep.hit) return true;
  if (candidate.distance != best.sweep.distance) return candidate.distance < best.sweep.distance;
  if (candidate.depth != best.sweep.depth) return candidate.depth > best.sweep.depth;
  return triangle < best.triangle;
}

// The box (center, half) moved as center + s * direction, prepared for the slab test against W
// boxes at once (F = simd::Float4 or Float8). A direction component of zero becomes a tiny one, so
// that the slab products stay finite (0 * inf would be NaN); the slabs it makes are wide beyond
// any coordinate.
template <class F>
struct BoxPath {
  F ox, oy, oz, hx, hy, hz, ix, iy, iz;

  BoxPath(Vec3f center, Vec3f half, Vec3f direction) : ox(center.x), oy(center.y), oz(center.z),
                                                        hx(half.x), hy(half.y), hz(half.z) {
    float inv[3];
    for (int k = 0; k < 3; ++k) {
      const float d = std::abs(direction[k]) < 1e-30f ? 1e-30f : direction[k];
      inv[k] = 1.0f / d;
    }
    ix = F(inv[0]), iy = F(inv[1]), iz = F(inv[2]);
  }

  /// The lanes whose box, grown by the half extents, the path enters within [0, limit] (as bits),
  /// with t_near the entry. The far distance is enlarged by a few ulps, so that the rounding of
  /// the products never culls a box the path touches. A NaN box is never entered; the empty box
  /// (min +inf, max -inf) always is.
  unsigned enters(const AabbPack<F>& b, float limit, F& t_near) const {
    constexpr float kFarScale = 1.0f + 4.0f * kEpsilon<float>;
    const F lx = (b.min_x - hx - ox) * ix, ux = (b.max_x + hx - ox) * ix;
    const F ly = (b.min_y - hy - oy) * iy, uy = (b.max_y + hy - oy) * iy;
    const F lz = (b.min_z - hz - oz) * iz, uz = (b.max_z + hz - oz) * iz;
    t_near = max(max(max(min(lx, ux), min(ly, uy)), min(lz, uz)), F(0.0f));
    const F t_far = min(min(min(max(lx, ux), max(ly, uy)), max(lz, uz)) * kFarScale, F(limit));
    return static_cast<unsigned>(bits(t_near <= t_far));
  }
};

// Keeps every lane: the lane filter of a shape that has no test beyond the boxes.
struct AllLanes {
  unsigned operator()(const TrianglePack4& /*pack*/) const { return 0xFu; }
};

// The lanes of a pack whose triangle may meet a moving sphere or capsule: the corridor the swept
// shape stays in (detail::SweepCorridor: two slabs along the direction), each slab grown by the
// slack, against the triangles' corners: a triangle whose corners all lie beyond one side of a
// slab is never met. The slack covers the kernel's tolerance and the rounding of these products
// and of the corridor's normals and bounds to float, of the order of epsilon times the
// coordinates.
class Corridor {
 public:
  template <class Shape>
  Corridor(const Shape& moving, Vec3f direction, float slack) {
    const detail::SweepCorridor c(moving, direction);
    active_ = c.active;
    if (!active_) return;
    for (int k = 0; k < 2; ++k) {
      const Vec3f n = vec3_cast<float>(c.n[k]);
      n_[k][0] = simd::Float4(n.x), n_[k][1] = simd::Float4(n.y), n_[k][2] = simd::Float4(n.z);
      low_[k] = simd::Float4(static_cast<float>(c.low[k]) - slack);
      high_[k] = simd::Float4(static_cast<float>(c.high[k]) + slack);
    }
  }
  unsigned operator()(const TrianglePack4& t) const {
    if (!active_) return 0xFu;
    using F = simd::Float4;
    simd::Mask4 keep = ~simd::Mask4();
    for (int k = 0; k < 2; ++k) {
      const F d0 = t.v0_x * n_[k][0] + t.v0_y * n_[k][1] + t.v0_z * n_[k][2];
      const F d1 = t.v1_x * n_[k][0] + t.v1_y * n_[k][1] + t.v1_z * n_[k][2];
      const F d2 = t.v2_x * n_[k][0] + t.v2_y * n_[k][1] + t.v2_z * n_[k][2];
      // A NaN (padding) lane is dropped: its comparisons are false.
      keep = keep & (max(max(d0, d1), d2) >= low_[k]) & (min(min(d0, d1), d2) <= high_[k]);
    }
    return static_cast<unsigned>(bits(keep));
  }

 private:
  bool active_ = false;
  simd::Float4 n_[2][3], low_[2], high_[2];
};

// Walks the tree nearest first with the box (center, half) moved as center + s * direction over
// s in [0, max_distance], and runs cast(local triangle, limit) on each triangle of each leaf it
// reaches whose own box the moved box meets within the limit and that lane_filter keeps, limit
// the best distance so far; the best hit in the header's order.
template <class Cast, class LaneFilter>
MeshSweepHit walk(const MeshBvh::Data& tree, Vec3f center, Vec3f half, Vec3f direction, float max_distance,
                  Cast&& cast, const LaneFilter& lane_filter) {
  MeshSweepHit best;
  const BoxPath<simd::Float8> path(center, half, direction);
  const BoxPath<simd::Float4> lane_path(center, half, direction);

  float limit = max_distance;
  // Inner nodes (count 0) and leaves (their packs) share the stack, nearest entry on top.
  struct Entry {
    std::uint32_t first, count;
    float t;
  };
  Entry stack[bvh::kTraversalStackSize];
  int top = 0;
  stack[top++] = {0, 0, 0.0f};
  while (top > 0) {
    const Entry entry = stack[--top];
    if (entry.t > limit) continue;  // the limit shrank since it was pushed
    if (entry.count != 0) {
      for (std::uint32_t p = entry.first; p < entry.first + entry.count; ++p) {
        const LeafPack& pack = tree.packs[p];
        // The triangles' own boxes first: a leaf's box holds its triangles', and most of them lie
        // beside the path even when the leaf's box does not. Padding lanes (NaN) are never met.
        simd::Float4 entry_t;
        unsigned lanes = lane_path.enters(triangle_boxes(pack.triangles), limit, entry_t) & lane_filter(pack.triangles);
        alignas(16) float lane_entry[4];
        entry_t.store(lane_entry);
        for (; lanes != 0; lanes &= lanes - 1) {
          const int lane = std::countr_zero(lanes);
          // A hit on an earlier lane may have brought the limit below this triangle's box.
          if (pack.ids[lane] == kNoPrimitive || lane_entry[lane] > limit) continue;
          // One ulp beyond the best distance, so that a triangle met at that same distance is
          // still found (ties go to the deeper start, then the lower index).
          const SweepHitf h = cast(lane_triangle(pack.triangles, lane), std::nextafter(limit, kInfinity<float>));
          if (h.hit && h.distance > limit) continue;
          if (h.hit && better(h, pack.ids[lane], best)) {
            best = {pack.ids[lane], h};
            limit = h.distance;
          }
        }
      }
      continue;
    }
    const bvh::WideNode& node = tree.nodes[entry.first];
    simd::Float8 t_near;
    const unsigned hit = path.enters(node.bounds, limit, t_near);
    float near_t[bvh::kWideWidth];
    t_near.store(near_t);
    // Children sorted by entry, farthest first, so that the nearest ends on top of the stack.
    Entry children[bvh::kWideWidth];
    int n = 0;
    for (unsigned mask = hit; mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      if (node.child[i] == bvh::kEmptySlot) continue;  // the empty box's slabs do not exclude it
      int k = n++;
      for (; k > 0 && children[k - 1].t < near_t[i]; --k) children[k] = children[k - 1];
      children[k] = {node.child[i], node.count[i], near_t[i]};
    }
    for (int k = 0; k < n; ++k) stack[top++] = children[k];
  }
  return best;
}

// The largest coordinate magnitude of a box (0 for an empty one).
float magnitude(const Aabbf& box) {
  return box.is_valid() ? max(max_component(abs(box.min)), max_component(abs(box.max))) : 0.0f;
}

template <class Shape>
MeshSweepHit sweep(const Shape& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                   ContactTolerancef tol) {
  const MeshBvh::Data* tree = mesh.data();
  if (!tree || tree->nodes.empty() || !(max_distance >= 0.0f) || !is_finite(direction)) return {};
  Vec3f center, half;
  box_of(moving, center, half);
  if (!is_finite(center) || !is_finite(half) || !(min_component(half) >= 0.0f)) return {};

  // The node boxes are grown by the shape's half extents and by what the triangle kernel's
  // tolerance and the rounding of the boxes and of the slab products can reach, so that the box
  // test never culls a triangle the kernel would meet.
  const Aabbf mesh_bounds = mesh.mesh().bounds();
  const float mesh_size = mesh_bounds.is_valid() ? 0.5f * length(mesh_bounds.extent()) : 0.0f;
  const float size = size_of(moving);
  const float coordinates = max(max_component(abs(center)), magnitude(mesh_bounds));
  const float slack = tol.at_size(max(size, mesh_size)) + 64 * kEpsilon<float> * (coordinates + size);
  half += Vec3f{slack, slack, slack};
  return walk(*tree, center, half, direction, max_distance,
              [&](const Trianglef& t, float limit) { return cast(moving, direction, limit, t, tol); },
              Corridor(moving, direction, slack));
}

// The world box of a mesh instance: its mesh's box, corner by corner.
Aabbf world_box(const MeshInstance& mesh) {
  const Aabbf local = mesh.bvh->mesh().bounds();
  Aabbf box;
  if (!local.is_valid()) return box;
  for (int corner = 0; corner < 8; ++corner) {
    box.grow(mesh.transform.apply_point({corner & 1 ? local.max.x : local.min.x, corner & 2 ? local.max.y : local.min.y,
                                         corner & 4 ? local.max.z : local.min.z}));
  }
  return box;
}

}  // namespace

MeshSweepHit sphere_cast(const Spheref& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                         ContactTolerancef tol) {
  return sweep(moving, direction, max_distance, mesh, tol);
}

MeshSweepHit capsule_cast(const Capsulef& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                          ContactTolerancef tol) {
  return sweep(moving, direction, max_distance, mesh, tol);
}

MeshSweepHit convex_cast(const ConvexShapef& moving, Vec3f direction, float max_distance, const MeshInstance& mesh,
                         ContactTolerancef tol) {
  if (!mesh.bvh || !mesh.transform.is_invertible() || !(max_distance >= 0.0f) || !is_finite(direction)) return {};
  const MeshBvh::Data* tree = mesh.bvh->data();
  if (!tree || tree->nodes.empty()) return {};
  const ConvexCore core = convex_core(moving);
  if (!core.valid) return {};
  // The shape's world box: its core's support along the axes, grown by its radius, by the
  // tolerance and by the rounding of the boxes, the corners' transform and the slab products.
  Aabbf box;
  for (int k = 0; k < 3; ++k) {
    Vec3<double> axis{};
    axis[k] = 1.0;
    box.max[k] = static_cast<float>(core.support.support(axis)[k] + core.radius);
    box.min[k] = static_cast<float>(core.support.support(-axis)[k] - core.radius);
  }
  const Aabbf mesh_world = world_box(mesh);
  const float mesh_size = mesh_world.is_valid() ? 0.5f * length(mesh_world.extent()) : 0.0f;
  const float size = static_cast<float>(core.size);
  const float slack = tol.at_size(max(size, mesh_size)) +
                      64 * kEpsilon<float> * (max(magnitude(box), magnitude(mesh_world)) + size);
  if (!is_finite(box.min) || !is_finite(box.max) || !std::isfinite(slack)) return {};
  box = {box.min - Vec3f{slack, slack, slack}, box.max + Vec3f{slack, slack, slack}};
  // Into the mesh's frame: the box's corners, and the direction as a vector, not normalised, so
  // that the path's parameter stays the world distance (an affine map keeps a straight path one).
  const Transformf& t = mesh.transform;
  Aabbf local;
  for (int corner = 0; corner < 8; ++corner) {
    local.grow(t.inverse_point({corner & 1 ? box.max.x : box.min.x, corner & 2 ? box.max.y : box.min.y,
                                corner & 4 ? box.max.z : box.min.z}));
  }
  const float rounding = 64 * kEpsilon<float> * magnitude(local);
  const Vec3f half = local.extent() * 0.5f + Vec3f{rounding, rounding, rounding};
  const Vec3f local_direction = t.inverse_vector(direction);
  if (!is_finite(local.min) || !is_finite(local.max) || !is_finite(local_direction)) return {};
  return walk(*tree, local.center(), half, local_direction, max_distance, [&](const Trianglef& l, float limit) {
    const Trianglef world{t.apply_point(l.v0), t.apply_point(l.v1), t.apply_point(l.v2)};
    return convex_cast(moving, direction, limit, world, tol);
  }, AllLanes{});
}

}  // namespace hitscan
