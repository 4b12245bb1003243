#include "hitscan/mesh/mesh_sweep.hpp"

#include <bit>
#include <cmath>

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

template <class Shape>
MeshSweepHit sweep(const Shape& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                   ContactTolerancef tol) {
  MeshSweepHit best;
  const MeshBvh::Data* tree = mesh.data();
  if (!tree || tree->nodes.empty() || !(max_distance >= 0.0f) || !is_finite(direction)) return best;
  Vec3f center, half;
  box_of(moving, center, half);
  if (!is_finite(center) || !is_finite(half) || !(min_component(half) >= 0.0f)) return best;

  // The node boxes are grown by the shape's half extents and by what the triangle kernel's
  // tolerance and the rounding of the boxes and of the slab products can reach, so that the box
  // test never culls a triangle the kernel would meet.
  const Aabbf mesh_bounds = mesh.mesh().bounds();
  const float mesh_size = mesh_bounds.is_valid() ? 0.5f * length(mesh_bounds.extent()) : 0.0f;
  const float size = size_of(moving);
  const float coordinates =
      max(max_component(abs(center)), mesh_bounds.is_valid() ? max(max_component(abs(mesh_bounds.min)),
                                                                    max_component(abs(mesh_bounds.max)))
                                                              : 0.0f);
  const float slack = tol.at_size(max(size, mesh_size)) + 64 * kEpsilon<float> * (coordinates + size);
  half += Vec3f{slack, slack, slack};

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
        const LeafPack& pack = tree->packs[p];
        for (int lane = 0; lane < 4; ++lane) {
          if (pack.ids[lane] == kNoTriangle) continue;
          // One ulp beyond the best distance, so that a triangle met at that same distance is
          // still found (ties go to the deeper start, then the lower index).
          const SweepHitf h = cast(moving, direction, std::nextafter(limit, kInfinity<float>),
                                   lane_triangle(pack.triangles, lane), tol);
          if (h.hit && h.distance > limit) continue;
          if (h.hit && better(h, pack.ids[lane], best)) {
            best = {pack.ids[lane], h};
            limit = h.distance;
          }
        }
      }
      continue;
    }
    const bvh::WideNode& node = tree->nodes[entry.first];
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

}  // namespace

MeshSweepHit sphere_cast(const Spheref& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                         ContactTolerancef tol) {
  return sweep(moving, direction, max_distance, mesh, tol);
}

MeshSweepHit capsule_cast(const Capsulef& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                          ContactTolerancef tol) {
  return sweep(moving, direction, max_distance, mesh, tol);
}

}  // namespace hitscan
