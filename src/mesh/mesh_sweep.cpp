#include "hitscan/mesh/mesh_sweep.hpp"

#include <bit>
#include <cmath>

#include "hitscan/geometry/detail/gjk_distance.hpp"
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

// Walks the tree nearest first with the box (center, half) moved as center + s * direction over
// s in [0, max_distance], and runs cast(local triangle, limit) on each triangle of each leaf it
// reaches, limit the best distance so far; the best hit in the header's order.
template <class Cast>
MeshSweepHit walk(const MeshBvh::Data& tree, Vec3f center, Vec3f half, Vec3f direction, float max_distance,
                  Cast&& cast) {
  MeshSweepHit best;
  // A direction component of zero becomes a tiny one, so that the slab products stay finite
  // (0 * inf would be NaN); the slabs it makes are wide beyond any coordinate.
  using F = simd::Float8;
  float inv[3];
  for (int k = 0; k < 3; ++k) {
    const float d = std::abs(direction[k]) < 1e-30f ? 1e-30f : direction[k];
    inv[k] = 1.0f / d;
  }
  const F ox(center.x), oy(center.y), oz(center.z), hx(half.x), hy(half.y), hz(half.z);
  const F ix(inv[0]), iy(inv[1]), iz(inv[2]);
  constexpr float kFarScale = 1.0f + 4.0f * kEpsilon<float>;

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
        for (int lane = 0; lane < 4; ++lane) {
          if (pack.ids[lane] == kNoPrimitive) continue;
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
    const auto& b = node.bounds;
    const F lx = (b.min_x - hx - ox) * ix, ux = (b.max_x + hx - ox) * ix;
    const F ly = (b.min_y - hy - oy) * iy, uy = (b.max_y + hy - oy) * iy;
    const F lz = (b.min_z - hz - oz) * iz, uz = (b.max_z + hz - oz) * iz;
    const F t_near = max(max(max(min(lx, ux), min(ly, uy)), min(lz, uz)), F(0.0f));
    const F t_far = min(min(min(max(lx, ux), max(ly, uy)), max(lz, uz)) * kFarScale, F(limit));
    float near_t[bvh::kWideWidth];
    t_near.store(near_t);
    // Children sorted by entry, farthest first, so that the nearest ends on top of the stack.
    Entry children[bvh::kWideWidth];
    int n = 0;
    for (unsigned mask = static_cast<unsigned>(bits(t_near <= t_far)); mask != 0; mask &= mask - 1) {
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
              [&](const Trianglef& t, float limit) { return cast(moving, direction, limit, t, tol); });
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
  });
}

}  // namespace hitscan
