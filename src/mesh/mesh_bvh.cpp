#include "hitscan/mesh/mesh_bvh.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "hitscan/assert.hpp"
#include "hitscan/bvh/detail/traverse.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "mesh_bvh_data.hpp"

namespace hitscan {

namespace {

LeafPack make_pack(const TriangleMesh& mesh, const std::array<std::uint32_t, 4>& ids, Aabbf* bounds = nullptr) {
  // Padding lanes are NaN rather than zero: a zero triangle has edge functions of exactly zero,
  // which would send every padded pack down the rare scalar path; NaN is outside and never hit.
  float lanes[9][4];
  for (auto& field : lanes) std::fill(std::begin(field), std::end(field), std::numeric_limits<float>::quiet_NaN());
  for (int lane = 0; lane < 4; ++lane) {
    if (ids[lane] == kNoPrimitive) continue;
    const Trianglef t = mesh.triangle(ids[lane]);
    const Vec3f corners[3] = {t.v0, t.v1, t.v2};
    if (bounds) bounds->grow(t.v0), bounds->grow(t.v1), bounds->grow(t.v2);
    for (int c = 0; c < 3; ++c) {
      for (int a = 0; a < 3; ++a) lanes[3 * c + a][lane] = corners[c][a];
    }
  }
  using F = simd::Float4;
  return {{F::load(lanes[0]), F::load(lanes[1]), F::load(lanes[2]), F::load(lanes[3]), F::load(lanes[4]),
           F::load(lanes[5]), F::load(lanes[6]), F::load(lanes[7]), F::load(lanes[8])},
          ids};
}

// The unit normal (v1 - v0) x (v2 - v0) of one lane: the same floats as the mesh's triangle, so
// the same bits as computing it from the mesh.
Vec3f lane_normal(const TrianglePack4& pack, int lane) {
  const Trianglef t = lane_triangle(pack, lane);
  return normalize(cross(t.v1 - t.v0, t.v2 - t.v0));
}

// The lanes whose facing a query accepts, from the lanes' back-face bits, by one xor and one or
// made once per query: both faces take every lane, front only the lanes not back, back only the
// back lanes.
struct FaceFilter {
  int flip, all;
  explicit FaceFilter(FaceMode faces)
      : flip(faces == FaceMode::front_only ? 0xF : 0), all(faces == FaceMode::both ? 0xF : 0) {}
  int operator()(const PackHit<simd::Float4>& h) const { return (bits(h.back_face) ^ flip) | all; }
};

// The tree's walk with the prefetching its size calls for (Data::prefetch): every query of a
// mesh walks through here.
template <bool kNearFirst, class Leaf, class OnNode = bvh::IgnoreNodes>
void walk(const MeshBvh::Data& d, const Rayf& ray, float& tmax, Leaf&& leaf, OnNode on_node = {}) {
  if (d.prefetch) {
    bvh::traverse<kNearFirst>(d.nodes, ray, tmax, leaf, on_node, PrefetchPack{d.packs.data()});
  } else {
    bvh::traverse<kNearFirst>(d.nodes, ray, tmax, leaf, on_node, bvh::NoPrefetch{});
  }
}


}  // namespace

Result<MeshBvh> MeshBvh::build(std::shared_ptr<const TriangleMesh> mesh, const bvh::BuildSettings& settings,
                               Executor* executor) {
  if (!mesh) return Status{StatusCode::invalid_argument, "MeshBvh::build: the mesh is null"};
  if (settings.max_leaf_size > 4 * bvh::kMaxLeafItems) {
    return Status{StatusCode::invalid_argument, "MeshBvh::build: max_leaf_size " + std::to_string(settings.max_leaf_size) +
                                                    " is above " + std::to_string(4 * bvh::kMaxLeafItems)};
  }
  if (mesh->triangle_count() >= kNoPrimitive) {
    return Status{StatusCode::invalid_argument, "MeshBvh::build: more triangles than 32-bit indices can name"};
  }
  // The triangles' boxes, handed to the builder a chunk at a time rather than as one array.
  const bvh::BoxSource boxes = [&mesh](std::uint32_t first, std::span<Aabbf> out) {
    for (std::size_t k = 0; k < out.size(); ++k) {
      const std::size_t i = first + k;
      out[k] = Aabbf::empty();  // left out of the tree (left_out below) unless usable
      if (!mesh->is_usable(i)) continue;
      const Trianglef t = mesh->triangle(i);
      out[k] = Aabbf::from_point(t.v0);
      out[k].grow(t.v1);
      out[k].grow(t.v2);
    }
  };
  const bvh::BinaryBvh binary = bvh::build_binned_sah(static_cast<std::uint32_t>(mesh->triangle_count()), boxes,
                                                      settings, executor ? executor : &default_executor());
  auto data = std::make_shared<Data>();
  // Reserved at its exact final size: growing it by doubling would copy tens of megabytes and
  // fault in every intermediate block for a large mesh.
  std::size_t pack_count = 0;
  for (const bvh::BinaryNode& node : binary.nodes) pack_count += (node.count + 3) / 4;
  data->packs.reserve(pack_count);
  const bvh::MakeLeaf make_leaf = [&](std::uint32_t first, std::uint32_t count) {
    const auto first_pack = static_cast<std::uint32_t>(data->packs.size());
    for (std::uint32_t k = 0; k < count; k += 4) {
      std::array<std::uint32_t, 4> ids;
      for (std::uint32_t lane = 0; lane < 4; ++lane) {
        ids[lane] = k + lane < count ? binary.primitive_order[first + k + lane] : kNoPrimitive;
      }
      data->packs.push_back(make_pack(*mesh, ids));
    }
    return std::pair{first_pack, static_cast<std::uint32_t>(data->packs.size()) - first_pack};
  };
  data->nodes = bvh::collapse_to_wide(binary, make_leaf);
  if (!data->nodes.empty()) data->root_box = bvh::RootBox::of(data->nodes[0]);
  data->prefetch = data->nodes.size() * sizeof(bvh::WideNode) + data->packs.size() * sizeof(LeafPack) > kPrefetchBytes;
  for (std::size_t i = 0; i < mesh->triangle_count(); ++i) {
    if (!mesh->is_usable(i)) data->left_out.push_back(static_cast<std::uint32_t>(i));
  }
  MeshBvh result;
  result.mesh_ = std::move(mesh);
  result.data_ = std::move(data);
  return result;
}

template <class OnNode>
MeshHit MeshBvh::intersect_counted(const Rayf& ray, FaceMode faces, HitFields fields, OnNode on_node,
                                   std::uint32_t* triangles) const {
  if (!data_ || !is_valid(ray)) return {};
  // The gate: a ray that misses the box around the root's children leaves here. The counting
  // form walks as before, so that a cost picture shows the tree's own node tests.
  if constexpr (std::is_same_v<OnNode, bvh::IgnoreNodes>) {
    if (!bvh::ray_may_enter(data_->root_box, ray, ray.tmax)) return {};
  }
  // What the leaf needs, in one object. The watertight preparation (a division per axis) is made
  // when the walk first reaches a leaf: most rays that miss leave after a node test or two.
  // Constructed member by member: an aggregate with the optional in it was zero-filled whole
  // (a rep stos on every ray).
  struct Search {
    Search(const Data& data, const Rayf& r, FaceMode f, std::uint32_t* t) : d(data), ray(r), faces(f), triangles(t) {}
    const Data& d;
    const Rayf& ray;
    FaceFilter faces;
    std::uint32_t* triangles;
    std::optional<WatertightRay<float>> prepared;
    std::uint32_t best_pack = 0, best_id = kNoPrimitive;
    int best_lane = -1;
    float best_u = 0, best_v = 0;
    bool best_back = false;
  };
  Search s(*data_, ray, faces, triangles);
  float tmax = ray.tmax;
  const auto leaf = [&s](std::uint32_t first, std::uint32_t count, float& t_limit, float floor) {
    if (!s.prepared) s.prepared = WatertightRay<float>::from_valid_ray(s.ray);
    // Only the counting overload counts: a store through the pointer might alias the walk's
    // state, which the compiler would then reload after it.
    if constexpr (!std::is_same_v<OnNode, bvh::IgnoreNodes>) *s.triangles += 4 * count;
    for (std::uint32_t p = first; p < first + count; ++p) {
      s.prepared->tmax = t_limit;
      const PackHit<simd::Float4> h = ray_vs_triangles(s.d.packs[p].triangles, *s.prepared, s.ray.dir);
      int lanes = bits(h.hit) & s.faces(h);
      if (lanes == 0) continue;
      // The lanes go through memory only here, on a hit: read one by one from the start, the
      // pack's results would live on the stack for every pack tested.
      alignas(16) float hit_t[4], hit_u[4], hit_v[4];
      h.t.store(hit_t), h.u.store(hit_u), h.v.store(hit_v);
      for (; lanes != 0; lanes &= lanes - 1) {
        const int lane = std::countr_zero(static_cast<unsigned>(lanes));
        const float t = bvh::leaf_t(hit_t[lane], floor);  // the kernel took h.t <= t_limit; t may be past it
        const std::uint32_t id = s.d.packs[p].ids[lane];
        if (nearer_hit(t, id, t_limit, s.best_lane >= 0, s.best_id)) {
          t_limit = t;
          s.best_id = id;
          s.best_pack = p;
          s.best_lane = lane;
          s.best_u = hit_u[lane];
          s.best_v = hit_v[lane];
          s.best_back = ((bits(h.back_face) >> lane) & 1) != 0;
        }
      }
    }
    return false;
  };
  walk<true>(s.d, ray, tmax, leaf, on_node);
  if (s.best_lane < 0) return {};
  return complete_hit(ray, tmax, s.best_pack, s.best_lane, s.best_u, s.best_v, s.best_back, fields);
}

MeshHit MeshBvh::intersect(const Rayf& ray, FaceMode faces, HitFields fields) const {
  return intersect_counted(ray, faces, fields, bvh::IgnoreNodes{}, nullptr);
}

MeshHit MeshBvh::intersect(const Rayf& ray, FaceMode faces, TraversalCost& cost) const {
  return intersect_counted(ray, faces, HitFields::all, [&cost] { ++cost.nodes; }, &cost.triangles);
}

std::vector<Aabbf> MeshBvh::node_boxes(int depth) const {
  std::vector<Aabbf> boxes;
  if (!data_ || data_->nodes.empty()) return boxes;
  struct Entry {
    std::uint32_t node;
    int level;
  };
  std::vector<Entry> stack{{0, 0}};
  while (!stack.empty()) {
    const Entry e = stack.back();
    stack.pop_back();
    const bvh::WideNode& node = data_->nodes[e.node];
    float box[6][bvh::kWideWidth];
    node.bounds.min_x.store(box[0]), node.bounds.min_y.store(box[1]), node.bounds.min_z.store(box[2]);
    node.bounds.max_x.store(box[3]), node.bounds.max_y.store(box[4]), node.bounds.max_z.store(box[5]);
    for (int i = 0; i < bvh::kWideWidth; ++i) {
      if (node.child[i] == bvh::kEmptySlot) continue;
      if (node.count[i] == 0 && e.level < depth) {
        stack.push_back({node.child[i], e.level + 1});
        continue;
      }
      boxes.push_back({{box[0][i], box[1][i], box[2][i]}, {box[3][i], box[4][i], box[5][i]}});
    }
  }
  return boxes;
}

MeshHit MeshBvh::complete_hit(const Rayf& ray, float t, std::uint32_t pack, int lane, float u, float v, bool back,
                              HitFields fields) const {
  const LeafPack& leaf = data_->packs[pack];
  const std::uint32_t triangle = leaf.ids[lane];
  MeshHit result;
  result.hit = true;
  result.t = t;
  result.triangle = triangle;
  result.u = u;
  result.v = v;
  result.back_face = back;
  if (fields == HitFields::basic) return result;
  if (has(fields, HitFields::point)) result.point = ray.at(t);
  if (!has(fields, HitFields::normal | HitFields::shading_normal)) return result;
  const Vec3f normal = lane_normal(leaf.triangles, lane);
  if (has(fields, HitFields::normal)) result.normal = normal;
  if (has(fields, HitFields::shading_normal)) {
    result.shading_normal = normal;
    if (!mesh_->normals().empty()) {
      const auto& idx = mesh_->triangles()[triangle];
      const auto n = mesh_->normals();
      const Vec3f s = normalize(n[idx[0]] * (1.0f - u - v) + n[idx[1]] * u + n[idx[2]] * v);
      if (s != Vec3f{}) result.shading_normal = s;
    }
  }
  return result;
}

// Flattened: the walk is built into the any-hit query (4% fewer instructions per ray; the
// closest-hit query measured slower so, with more state live across the walk).
[[gnu::flatten]] bool MeshBvh::occluded(const Rayf& ray, FaceMode faces) const {
  if (!data_ || !is_valid(ray) || !bvh::ray_may_enter(data_->root_box, ray, ray.tmax)) return false;
  std::optional<WatertightRay<float>> prepared;  // made at the first leaf, as for intersect
  const FaceFilter accepted(faces);
  float tmax = ray.tmax;
  bool found = false;
  const Data& d = *data_;
  const auto leaf = [&](std::uint32_t first, std::uint32_t count, float&, float floor) {
    if (!prepared) prepared = WatertightRay<float>::from_valid_ray(ray);
    for (std::uint32_t p = first; p < first + count; ++p) {
      const PackHit<simd::Float4> h = ray_vs_triangles(d.packs[p].triangles, *prepared, ray.dir);
      const auto within = max(h.t, simd::Float4(floor)) <= simd::Float4(ray.tmax);  // leaf_t, 4 lanes
      if ((bits(h.hit & within) & accepted(h)) != 0) return found = true;
    }
    return false;
  };
  walk<false>(d, ray, tmax, leaf);
  return found;
}

std::size_t MeshBvh::intersect_all(const Rayf& ray, std::vector<MeshHit>& out, FaceMode faces,
                                   HitFields fields) const {
  out.clear();
  if (!data_ || !is_valid(ray) || !bvh::ray_may_enter(data_->root_box, ray, ray.tmax)) return 0;
  const WatertightRay<float> prepared = WatertightRay<float>::from_valid_ray(ray);
  float tmax = ray.tmax;  // never lowered: every hit counts
  const FaceFilter accepted(faces);
  const Data& d = *data_;
  walk<false>(d, ray, tmax, [&](std::uint32_t first, std::uint32_t count, float&, float floor) {
    for (std::uint32_t p = first; p < first + count; ++p) {
      const PackHit<simd::Float4> h = ray_vs_triangles(d.packs[p].triangles, prepared, ray.dir);
      for (int lanes = bits(h.hit) & accepted(h); lanes != 0; lanes &= lanes - 1) {
        const int lane = std::countr_zero(static_cast<unsigned>(lanes));
        const float t = bvh::leaf_t(h.t[lane], floor);
        if (t > ray.tmax) continue;
        out.push_back(
            complete_hit(ray, t, p, lane, h.u[lane], h.v[lane], ((bits(h.back_face) >> lane) & 1) != 0, fields));
      }
    }
    return false;
  });
  std::sort(out.begin(), out.end(), [](const MeshHit& a, const MeshHit& b) {
    return a.t < b.t || (a.t == b.t && a.triangle < b.triangle);
  });
  return out.size();
}

std::size_t MeshBvh::intersect_all(const Rayf& ray, std::span<MeshHit> buffer, FaceMode faces, std::size_t* total) const {
  std::vector<MeshHit> all;
  intersect_all(ray, all, faces);
  const std::size_t written = std::min(all.size(), buffer.size());
  std::copy_n(all.begin(), written, buffer.begin());
  if (total) *total = all.size();
  return written;
}

Status MeshBvh::refit() {
  if (!data_) return Status{StatusCode::invalid_argument, "MeshBvh::refit: the tree was never built"};
  Data& d = *data_;
  const TriangleMesh& mesh = *mesh_;
  // Triangles left out at build time must still be unusable: the tree has no place for them.
  for (const std::uint32_t i : d.left_out) {
    if (mesh.is_usable(i)) {
      d.nodes.clear();  // every ray misses until the caller rebuilds
      return Status{StatusCode::degenerate, "MeshBvh::refit: triangle " + std::to_string(i) +
                                                " was degenerate at build time and now has area; rebuild the tree"};
    }
  }
  // One pass over the packs gathers the new corners and each pack's bounds.
  std::vector<Aabbf> pack_bounds(d.packs.size());
  for (std::size_t p = 0; p < d.packs.size(); ++p) d.packs[p] = make_pack(mesh, d.packs[p].ids, &pack_bounds[p]);
  // Children come after their parent in the depth-first layout, so a reverse sweep sees every
  // child node's boxes before its parent needs their union.
  std::vector<Aabbf> node_bounds(d.nodes.size());
  for (std::size_t n = d.nodes.size(); n-- > 0;) {
    bvh::WideNode& node = d.nodes[n];
    float box[6][bvh::kWideWidth];
    node.bounds.min_x.store(box[0]), node.bounds.min_y.store(box[1]), node.bounds.min_z.store(box[2]);
    node.bounds.max_x.store(box[3]), node.bounds.max_y.store(box[4]), node.bounds.max_z.store(box[5]);
    for (int i = 0; i < bvh::kWideWidth; ++i) {
      if (node.child[i] == bvh::kEmptySlot) continue;
      Aabbf b;
      if (node.count[i] == 0) {
        b = node_bounds[node.child[i]];
      } else {
        for (std::uint32_t p = node.child[i]; p < node.child[i] + node.count[i]; ++p) b.grow(pack_bounds[p]);
      }
      node_bounds[n].grow(b);
      for (int a = 0; a < 3; ++a) box[a][i] = b.min[a], box[3 + a][i] = b.max[a];
    }
    bvh::set_bounds(node, box);
  }
  if (!d.nodes.empty()) d.root_box = bvh::RootBox::of(d.nodes[0]);
  return Status::success();
}

MeshHit MeshInstance::intersect(const Rayf& ray, FaceMode faces, HitFields fields) const {
  if (!bvh || !transform.is_invertible() || !is_valid(ray)) return {};
  return intersect_valid(ray, faces, fields);
}

namespace {

// The world ray carried into a mesh instance's frame. Under the identity transform (the mesh's
// frame is the world's: reconstruction chunks, static level geometry) the world ray itself is
// walked instead.
// transform.inverse_point(origin) and inverse_vector(dir) on Float4 lanes, read straight from the
// two structures (lane 3 holds the next field and is ignored): the same operations in the same
// order, so the same bits, in half the instructions of the scalar forms.
Rayf local_ray(const Transformf& transform, const Rayf& ray) {
  using simd::Float4;
  static_assert(sizeof(Transformf) == 10 * sizeof(float) && sizeof(Rayf) == 8 * sizeof(float), "packed floats");
  const Float4 w(transform.rotation.w);
  const Float4 u = -Float4::load(&transform.rotation.x);  // the conjugate's vector part
  const Float4 scale(transform.scale.x, transform.scale.y, transform.scale.z, 1.0f);
  const Float4 origin = Float4::load(&ray.origin.x) - Float4::load(&transform.translation.x);
  alignas(16) float o[4], d[4];
  (detail::rotate_lanes(w, u, origin) / scale).store(o);
  (detail::rotate_lanes(w, u, Float4::load(&ray.dir.x)) / scale).store(d);
  return {{o[0], o[1], o[2]}, {d[0], d[1], d[2]}, ray.tmin, ray.tmax};
}

// What a mesh instance asks its tree for: under a transform, the point is taken on the world ray.
HitFields tree_fields(bool identity, HitFields fields) {
  return identity ? fields : without(fields, HitFields::point);
}

// A hit of the tree carried to the world: of `fields`, the point on the world ray and the
// normals by the inverse transpose (renormalised only, under the identity). The inverse
// transpose keeps the mesh's front as the front, mirrors included, and preserves the sign of
// dot(dir, normal), so back_face and the face mode carry over unchanged.
void hit_to_world(const Transformf& transform, bool identity, const Rayf& ray, HitFields fields, MeshHit& hit) {
  if (!identity && has(fields, HitFields::point)) hit.point = ray.at(hit.t);
  const auto to_world = [&](Vec3f n) { return identity ? normalize(n) : transform.apply_normal(n); };
  if (has(fields, HitFields::normal)) hit.normal = to_world(hit.normal);
  if (has(fields, HitFields::shading_normal)) hit.shading_normal = to_world(hit.shading_normal);
}

}  // namespace

MeshHit MeshInstance::intersect_valid(const Rayf& ray, FaceMode faces, HitFields fields) const {
  HITSCAN_ASSERT(bvh && transform.is_invertible() && is_valid(ray));
  const bool identity = transform.is_identity();
  MeshHit hit = bvh->intersect(identity ? ray : local_ray(transform, ray), faces, tree_fields(identity, fields));
  if (hit) hit_to_world(transform, identity, ray, fields, hit);
  return hit;
}

std::size_t MeshInstance::intersect_all(const Rayf& ray, std::vector<MeshHit>& out, FaceMode faces,
                                        HitFields fields) const {
  out.clear();
  if (!bvh || !transform.is_invertible() || !is_valid(ray)) return 0;
  const bool identity = transform.is_identity();
  bvh->intersect_all(identity ? ray : local_ray(transform, ray), out, faces, tree_fields(identity, fields));
  for (MeshHit& hit : out) hit_to_world(transform, identity, ray, fields, hit);
  return out.size();
}

bool MeshInstance::occluded(const Rayf& ray, FaceMode faces) const {
  if (!bvh || !transform.is_invertible() || !is_valid(ray)) return false;
  return bvh->occluded(transform.is_identity() ? ray : local_ray(transform, ray), faces);
}

std::size_t MeshBvh::memory_bytes() const {
  if (!data_) return 0;
  return data_->nodes.size() * sizeof(bvh::WideNode) + data_->packs.size() * sizeof(LeafPack);
}

std::size_t MeshBvh::node_count() const { return data_ ? data_->nodes.size() : 0; }

}  // namespace hitscan
