#include "structures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "hitscan/bvh/build.hpp"
#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/bvh/octree.hpp"
#include "hitscan/bvh/detail/traverse.hpp"
#include "hitscan/bvh/uniform_grid.hpp"
#include "hitscan/geometry/ray_aabb.hpp"

namespace hitscan::bench {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// What every structure's ray callback does with an object it reports: the exact entry, kept
// when nearer (or as near and of lower index); returns the new tmax.
struct Nearest {
  const RayInverse<float>& ray;
  std::span<const Aabbf> boxes;
  NearestAnswer best{kNoObject, kInfinity<float>};

  float visit(std::uint32_t object, float tmax) {
    float t0, t1;
    if (ray_vs_aabb_interval(boxes[object], ray, t0, t1) &&
        (t0 < best.t || (t0 == best.t && object < best.object))) {
      best = {object, t0};
    }
    return min(tmax, best.t);
  }
  NearestAnswer answer() const { return best.object == kNoObject ? NearestAnswer{} : best; }
};

struct Overlaps {
  OverlapAnswer answer;
  void add(std::uint32_t object) {
    ++answer.count;
    answer.hash += mix(object);
  }
};

class Bvh final : public Structure {
 public:
  const char* name() const override { return "bvh"; }
  void build(std::span<const Aabbf> boxes) override {
    boxes_ = boxes;
    const bvh::BinaryBvh binary = bvh::build_binned_sah(boxes);
    ids_.assign(binary.primitive_order.begin(), binary.primitive_order.end());
    leaf_boxes_.resize(ids_.size());
    for (std::size_t k = 0; k < ids_.size(); ++k) leaf_boxes_[k] = boxes[ids_[k]];
    nodes_ = bvh::collapse_to_wide(binary, [](std::uint32_t first, std::uint32_t count) {
      return std::pair{first, count};
    });
  }
  void nearest(std::span<const Rayf> rays, std::span<NearestAnswer> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const RayInverse<float> inverse = RayInverse<float>::from_ray(rays[i]);
      Nearest nearest{inverse, boxes_};
      float tmax = rays[i].tmax;
      if (inverse.valid) {
        bvh::traverse<true>(nodes_, rays[i], tmax, [&](std::uint32_t first, std::uint32_t count, float& limit, float) {
          for (std::uint32_t k = first; k < first + count; ++k) {
            float t;
            if (ray_enters_box(leaf_boxes_[k], inverse, limit, t)) limit = nearest.visit(ids_[k], limit);
          }
          return false;
        });
      }
      out[i] = nearest.answer();
    }
  }
  void overlap(std::span<const Aabbf> probes, std::span<OverlapAnswer> out) override {
    using F = simd::Float8;
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const Aabbf& q = probes[i];
      Overlaps found;
      std::uint32_t stack[bvh::kTraversalStackSize];
      int top = 0;
      if (!nodes_.empty()) stack[top++] = 0;
      while (top > 0) {
        const bvh::WideNode& node = nodes_[stack[--top]];
        const AabbPack<F>& b = node.bounds;
        // Empty slots hold the empty box, which overlaps no finite probe.
        const int mask = bits((b.min_x <= F(q.max.x)) & (b.max_x >= F(q.min.x)) & (b.min_y <= F(q.max.y)) &
                              (b.max_y >= F(q.min.y)) & (b.min_z <= F(q.max.z)) & (b.max_z >= F(q.min.z)));
        for (unsigned m = static_cast<unsigned>(mask); m != 0; m &= m - 1) {
          const int lane = std::countr_zero(m);
          if (node.count[lane] == 0) {
            stack[top++] = node.child[lane];
            continue;
          }
          for (std::uint32_t k = node.child[lane]; k < node.child[lane] + node.count[lane]; ++k) {
            if (leaf_boxes_[k].overlaps(q)) found.add(ids_[k]);
          }
        }
      }
      out[i] = found.answer;
    }
  }
  std::string describe() const override { return std::to_string(nodes_.size()) + " wide nodes"; }

 private:
  std::span<const Aabbf> boxes_;
  HugePageVector<bvh::WideNode> nodes_;
  std::vector<std::uint32_t> ids_;
  std::vector<Aabbf> leaf_boxes_;
};

class Octree final : public Structure {
 public:
  const char* name() const override { return "octree"; }
  void build(std::span<const Aabbf> boxes) override {
    boxes_ = boxes;
    tree_.build(boxes);
  }
  void nearest(std::span<const Rayf> rays, std::span<NearestAnswer> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const RayInverse<float> inverse = RayInverse<float>::from_ray(rays[i]);
      Nearest nearest{inverse, boxes_};
      tree_.ray_query(rays[i], [&](std::uint32_t object, float tmax) { return nearest.visit(object, tmax); });
      out[i] = nearest.answer();
    }
  }
  void overlap(std::span<const Aabbf> probes, std::span<OverlapAnswer> out) override {
    for (std::size_t i = 0; i < probes.size(); ++i) {
      Overlaps found;
      tree_.query(probes[i], [&](std::uint32_t object) {
        found.add(object);
        return true;
      });
      out[i] = found.answer;
    }
  }
  std::string describe() const override {
    return std::to_string(tree_.node_count()) + " nodes, depth " + std::to_string(tree_.depth());
  }

 private:
  std::span<const Aabbf> boxes_;
  bvh::Octree tree_;
};

class Grid final : public Structure {
 public:
  const char* name() const override { return "grid"; }
  void build(std::span<const Aabbf> boxes) override {
    boxes_ = boxes;
    grid_.update(boxes);
    stamp_.assign(boxes.size(), 0);
    query_ = 0;
    bounds_ = {};
    for (const Aabbf& b : boxes) bounds_.grow(b);
    const float magnitude = max_component(max(abs(bounds_.min), abs(bounds_.max)));
    // The segment boxes are grown by far more than the rounding of the walk's coordinates.
    pad_ = 1e-3f * grid_.cell_size() + 1e-6f * magnitude;
    bounds_ = {bounds_.min - Vec3f{pad_, pad_, pad_}, bounds_.max + Vec3f{pad_, pad_, pad_}};
  }
  void nearest(std::span<const Rayf> rays, std::span<NearestAnswer> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) out[i] = walk(rays[i]);
  }
  void overlap(std::span<const Aabbf> probes, std::span<OverlapAnswer> out) override {
    for (std::size_t i = 0; i < probes.size(); ++i) {
      Overlaps found;
      grid_.query(probes[i], [&](std::uint32_t object) {
        found.add(object);
        return true;
      });
      out[i] = found.answer;
    }
  }
  std::string describe() const override {
    return std::to_string(grid_.occupied_cell_count()) + " cells of side " + std::to_string(grid_.cell_size());
  }

 private:
  // Cell by cell along the ray, clipped to the objects' bounds; in each cell the objects meeting
  // the ray's segment there (its box, padded), each tested once (a stamp per object), until the
  // nearest entry found lies within the cells walked.
  NearestAnswer walk(const Rayf& ray) {
    const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
    Nearest nearest{inverse, boxes_};
    float t_start, t_end;
    if (!inverse.valid || !ray_vs_aabb_interval(bounds_, inverse, t_start, t_end)) return {};
    if (++query_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), query_ = 1;
    const double size = grid_.cell_size();
    double origin[3], dir[3], next[3], delta[3];
    std::int64_t cell[3], step[3];
    for (int a = 0; a < 3; ++a) {
      origin[a] = ray.origin[a];
      dir[a] = ray.dir[a];
      cell[a] = static_cast<std::int64_t>(std::floor((origin[a] + dir[a] * t_start) / size));
      step[a] = dir[a] > 0 ? 1 : (dir[a] < 0 ? -1 : 0);
      const double boundary = double(cell[a] + (step[a] > 0 ? 1 : 0)) * size;
      next[a] = step[a] == 0 ? HUGE_VAL : (boundary - origin[a]) / dir[a];
      delta[a] = step[a] == 0 ? HUGE_VAL : size / std::abs(dir[a]);
    }
    float tmax = ray.tmax;
    for (double t = t_start;;) {
      const double t_exit = std::min({next[0], next[1], next[2], double(t_end)});
      Aabbf segment;
      for (int a = 0; a < 3; ++a) {
        const double p = origin[a] + dir[a] * t, q = origin[a] + dir[a] * t_exit;
        segment.min[a] = float(std::min(p, q)) - pad_;
        segment.max[a] = float(std::max(p, q)) + pad_;
      }
      grid_.query(segment, [&](std::uint32_t object) {
        if (stamp_[object] == query_) return true;
        stamp_[object] = query_;
        float entry;
        if (ray_enters_box(boxes_[object], inverse, tmax, entry)) tmax = nearest.visit(object, tmax);
        return true;
      });
      if (double(nearest.best.t) <= t_exit || t_exit >= double(t_end)) break;
      const int a = next[0] <= next[1] ? (next[0] <= next[2] ? 0 : 2) : (next[1] <= next[2] ? 1 : 2);
      cell[a] += step[a];
      next[a] += delta[a];
      t = t_exit;
    }
    return nearest.answer();
  }

  std::span<const Aabbf> boxes_;
  bvh::UniformGrid grid_;
  Aabbf bounds_;
  float pad_ = 0;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t query_ = 0;
};

class DynamicTree final : public Structure {
 public:
  const char* name() const override { return "dynamic_tree"; }
  void build(std::span<const Aabbf> boxes) override {
    boxes_ = boxes;
    bvh::DynamicTreeSettings settings;
    settings.margin_fraction = 0.0f;
    tree_ = bvh::DynamicTree(settings);
    for (std::uint32_t i = 0; i < boxes.size(); ++i) tree_.insert(boxes[i], i);
  }
  void nearest(std::span<const Rayf> rays, std::span<NearestAnswer> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const RayInverse<float> inverse = RayInverse<float>::from_ray(rays[i]);
      Nearest nearest{inverse, boxes_};
      tree_.ray_query(rays[i], [&](std::uint32_t proxy, float tmax) {
        return nearest.visit(static_cast<std::uint32_t>(tree_.user(proxy)), tmax);
      });
      out[i] = nearest.answer();
    }
  }
  void overlap(std::span<const Aabbf> probes, std::span<OverlapAnswer> out) override {
    for (std::size_t i = 0; i < probes.size(); ++i) {
      Overlaps found;
      tree_.query(probes[i], [&](std::uint32_t proxy) {
        found.add(static_cast<std::uint32_t>(tree_.user(proxy)));
        return true;
      });
      out[i] = found.answer;
    }
  }
  std::string describe() const override { return "height " + std::to_string(tree_.height()); }

 private:
  std::span<const Aabbf> boxes_;
  bvh::DynamicTree tree_;
};

}  // namespace

std::unique_ptr<Structure> make_bvh() { return std::make_unique<Bvh>(); }
std::unique_ptr<Structure> make_octree() { return std::make_unique<Octree>(); }
std::unique_ptr<Structure> make_grid() { return std::make_unique<Grid>(); }
std::unique_ptr<Structure> make_dynamic_tree() { return std::make_unique<DynamicTree>(); }

}  // namespace hitscan::bench
