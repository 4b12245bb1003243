// Quickhull (see convex_hull.hpp) and the queries of a built hull.
//
// The build keeps the hull as triangles with outward planes, an owner per directed edge (a face
// owns the edges it runs counter-clockwise, so the neighbour across edge (a, b) owns (b, a)), and
// per face the list of the points above it. Each step takes the furthest point above some face,
// finds the faces it sees by a walk from that face over edges (the visible set stays connected,
// even where rounding makes a lone far face look visible), replaces them by a cone of triangles
// from the point to the horizon, and hands their points to the new faces; a point above none of
// them is inside the hull and is dropped.

#include "hitscan/geometry/convex_hull.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <unordered_map>

#include "quadric.hpp"

namespace hitscan {
namespace {

using V = Vec3<double>;

struct Face {
  std::array<int, 3> v{};
  V normal{};
  double offset = 0;
  std::vector<int> outside;  // points above the face
  bool alive = true;
  int visit = -1;     // the step that last looked at this face
  bool visible = false;
};

std::uint64_t edge_key(int a, int b) { return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b); }

class Builder {
 public:
  Builder(std::vector<V> points, double tolerance) : p_(std::move(points)), eps_(tolerance) {}

  // The initial tetrahedron (indices known to span a volume), then the Quickhull steps.
  void run(const std::array<int, 4>& simplex) {
    const V centre = (p_[simplex[0]] + p_[simplex[1]] + p_[simplex[2]] + p_[simplex[3]]) * 0.25;
    static constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    std::vector<int> created;
    for (const auto& f : kFaces) {
      int a = simplex[f[0]], b = simplex[f[1]], c = simplex[f[2]];
      if (dot(cross(p_[b] - p_[a], p_[c] - p_[a]), centre - p_[a]) > 0) std::swap(b, c);
      created.push_back(add_face(a, b, c));
    }
    std::vector<int> all;
    all.reserve(p_.size());
    for (int i = 0; i < static_cast<int>(p_.size()); ++i) {
      if (i != simplex[0] && i != simplex[1] && i != simplex[2] && i != simplex[3]) all.push_back(i);
    }
    assign(all, created);
    std::vector<int> pending = created;
    int step = 0;
    while (!pending.empty()) {
      const int f = pending.back();
      pending.pop_back();
      if (!faces_[f].alive || faces_[f].outside.empty()) continue;
      add_point(f, step++, pending);
    }
  }

  std::vector<Face>& faces() { return faces_; }

 private:
  double height(int face, int point) const { return dot(faces_[face].normal, p_[point]) - faces_[face].offset; }

  int add_face(int a, int b, int c) {
    Face face;
    face.v = {a, b, c};
    face.normal = normalize(cross(p_[b] - p_[a], p_[c] - p_[a]));
    face.offset = dot(face.normal, p_[a]);
    const int index = static_cast<int>(faces_.size());
    for (int k = 0; k < 3; ++k) owner_[edge_key(face.v[k], face.v[(k + 1) % 3])] = index;
    faces_.push_back(std::move(face));
    return index;
  }

  // Each point goes to the first face it lies above by more than the tolerance, or is dropped.
  void assign(const std::vector<int>& points, const std::vector<int>& candidates) {
    for (const int i : points) {
      for (const int f : candidates) {
        if (height(f, i) > eps_) {
          faces_[f].outside.push_back(i);
          break;
        }
      }
    }
  }

  void add_point(int start, int step, std::vector<int>& pending) {
    Face& seed = faces_[start];
    int eye = seed.outside[0];
    double best = height(start, eye);
    for (const int i : seed.outside) {
      const double h = height(start, i);
      if (h > best) best = h, eye = i;
    }
    // The faces the eye sees, connected to the seed; the horizon is where the walk stops.
    std::vector<int> visible{start}, stack{start};
    std::vector<std::pair<int, int>> horizon;
    seed.visit = step;
    seed.visible = true;
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      for (int k = 0; k < 3; ++k) {
        const int a = faces_[f].v[k], b = faces_[f].v[(k + 1) % 3];
        const int g = owner_.at(edge_key(b, a));
        if (faces_[g].visit != step) {
          faces_[g].visit = step;
          faces_[g].visible = height(g, eye) > eps_;
          if (faces_[g].visible) visible.push_back(g), stack.push_back(g);
        }
      }
    }
    for (const int f : visible) {
      for (int k = 0; k < 3; ++k) {
        const int a = faces_[f].v[k], b = faces_[f].v[(k + 1) % 3];
        if (!faces_[owner_.at(edge_key(b, a))].visible) horizon.emplace_back(a, b);
      }
    }
    std::vector<int> orphans;
    for (const int f : visible) {
      for (const int i : faces_[f].outside) {
        if (i != eye) orphans.push_back(i);
      }
      faces_[f].outside = {};
      faces_[f].alive = false;
      faces_[f].visible = false;
      for (int k = 0; k < 3; ++k) owner_.erase(edge_key(faces_[f].v[k], faces_[f].v[(k + 1) % 3]));
    }
    std::vector<int> created;
    for (const auto& [a, b] : horizon) created.push_back(add_face(a, b, eye));
    assign(orphans, created);
    for (const int f : created) {
      if (!faces_[f].outside.empty()) pending.push_back(f);
    }
  }

  std::vector<V> p_;
  double eps_;
  std::vector<Face> faces_;
  std::unordered_map<std::uint64_t, int> owner_;
};

// The index of the point furthest from `from` by `measure`, and that measure.
template <class Measure>
std::pair<int, double> furthest(const std::vector<V>& p, Measure measure) {
  int best = 0;
  double best_value = -1;
  for (int i = 0; i < static_cast<int>(p.size()); ++i) {
    const double value = measure(p[i]);
    if (value > best_value) best_value = value, best = i;
  }
  return {best, best_value};
}

Status no_volume(const char* what) {
  return Status{StatusCode::invalid_argument,
                std::string("convex hull needs 4 affinely independent points: all points ") + what};
}

}  // namespace

template <Real T>
Result<ConvexHull<T>> ConvexHull<T>::make(std::span<const Vec3<T>> points) {
  const std::size_t n = points.size();
  if (n < 4) return Status{StatusCode::invalid_argument, "convex hull needs at least 4 points, got " + std::to_string(n)};
  if (n >= (std::size_t(1) << 31)) return Status{StatusCode::out_of_range, "convex hull input exceeds 2^31 points"};
  std::vector<V> p(n);
  Aabb<double> box;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in_working_range(points[i])) {
      return Status{StatusCode::invalid_argument,
                    "convex hull point " + std::to_string(i) +
                        (is_finite(points[i]) ? std::string(" ") + kBeyondWorkingRange : std::string(" is not finite"))};
    }
    p[i] = vec3_cast<double>(points[i]);
    box.grow(p[i]);
  }
  // The build runs in double, where points given in float are exact: visibility is decided to a
  // few dozen ulps of double at the coordinates' magnitude (Barber et al.'s "3 (|x|max + |y|max +
  // |z|max) epsilon"). Whether the cloud has a volume at all is asked at T's own precision: points
  // within 16 ulps of T of a plane are coplanar as far as the caller's rounding can tell.
  const V magnitude = max(abs(box.min), abs(box.max));
  const double eps = 64.0 * kEpsilon<double> * (magnitude.x + magnitude.y + magnitude.z);
  const double flat = eps + 16.0 * static_cast<double>(kEpsilon<T>) * max_component(magnitude);

  // The initial tetrahedron: the most distant pair of axis extremes, then the point furthest
  // from their line, then the one furthest from the plane of the three.
  std::array<int, 6> extremes{};
  for (int i = 0; i < static_cast<int>(n); ++i) {
    for (int k = 0; k < 3; ++k) {
      if (p[i][k] < p[extremes[2 * k]][k]) extremes[2 * k] = i;
      if (p[i][k] > p[extremes[2 * k + 1]][k]) extremes[2 * k + 1] = i;
    }
  }
  int i0 = extremes[0], i1 = extremes[1];
  for (int k = 1; k < 3; ++k) {
    if (distance(p[extremes[2 * k]], p[extremes[2 * k + 1]]) > distance(p[i0], p[i1])) {
      i0 = extremes[2 * k], i1 = extremes[2 * k + 1];
    }
  }
  if (!(distance(p[i0], p[i1]) > flat)) return no_volume("coincide");
  const V axis = normalize(p[i1] - p[i0]);
  const auto [i2, off_line] = furthest(p, [&](V x) { return length(cross(x - p[i0], axis)); });
  if (!(off_line > flat)) return no_volume("are collinear");
  const V normal = normalize(cross(p[i1] - p[i0], p[i2] - p[i0]));
  const auto [i3, off_plane] = furthest(p, [&](V x) { return std::abs(dot(x - p[i0], normal)); });
  if (!(off_plane > flat)) return no_volume("are coplanar");

  Builder builder(std::move(p), eps);
  builder.run({i0, i1, i2, i3});

  ConvexHull hull;
  std::vector<int> remap(n, -1);
  for (const Face& face : builder.faces()) {
    if (!face.alive) continue;
    std::array<std::uint32_t, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      int& slot = remap[face.v[k]];
      if (slot < 0) slot = static_cast<int>(hull.vertices_.size()), hull.vertices_.push_back(points[face.v[k]]);
      tri[k] = static_cast<std::uint32_t>(slot);
    }
    hull.faces_.push_back(tri);
    hull.planes_.push_back(Plane<T>{vec3_cast<T>(face.normal), static_cast<T>(face.offset)});
  }
  V sum{};
  for (const Vec3<T>& v : hull.vertices_) {
    sum += vec3_cast<double>(v);
    hull.bounds_.grow(v);
  }
  hull.interior_ = vec3_cast<T>(sum / static_cast<double>(hull.vertices_.size()));
  return hull;
}

template <Real T>
ConvexHull<T> ConvexHull<T>::transformed(const Transform<T>& transform) const {
  ConvexHull out;
  out.vertices_.reserve(vertices_.size());
  for (const Vec3<T>& v : vertices_) {
    out.vertices_.push_back(transform.apply_point(v));
    out.bounds_.grow(out.vertices_.back());
  }
  out.faces_ = faces_;
  const bool mirrored = transform.scale.x * transform.scale.y * transform.scale.z < T(0);
  out.planes_.reserve(faces_.size());
  for (auto& f : out.faces_) {
    if (mirrored) std::swap(f[1], f[2]);
    const V a = vec3_cast<double>(out.vertices_[f[0]]), b = vec3_cast<double>(out.vertices_[f[1]]),
            c = vec3_cast<double>(out.vertices_[f[2]]);
    const V normal = normalize(cross(b - a, c - a));
    out.planes_.push_back(Plane<T>{vec3_cast<T>(normal), static_cast<T>(dot(normal, a))});
  }
  // An affine map keeps the mean of the vertices their mean.
  out.interior_ = transform.apply_point(interior_);
  return out;
}

template <Real T>
Vec3<T> ConvexHull<T>::support(Vec3<T> direction) const {
  Vec3<T> best = vertices_[0];
  T best_along = dot(best, direction);
  for (const Vec3<T>& v : vertices_) {
    const T along = dot(v, direction);
    if (along > best_along) best_along = along, best = v;
  }
  return best;
}

template <Real T>
bool ConvexHull<T>::contains(Vec3<T> p, T tolerance) const {
  for (const Plane<T>& plane : planes_) {
    if (!(dot(plane.normal, p) - plane.offset <= tolerance)) return false;
  }
  return true;
}

template <Real T>
RayHit<T> ray_vs_hull(const ConvexHull<T>& hull, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!is_valid(ray)) return hit;
  T t_enter = -kInfinity<T>, t_exit = kInfinity<T>;
  Vec3<T> enter_normal{};
  for (const Plane<T>& plane : hull.planes()) {
    const T along = dot(plane.normal, ray.dir);
    const T inside = plane.offset - dot(plane.normal, ray.origin);  // >= 0: the origin is behind the plane
    if (along == T(0)) {
      if (inside < T(0)) return hit;  // parallel and outside: never crosses in
      continue;
    }
    const T t = inside / along;
    if (along < T(0)) {
      if (t > t_enter) t_enter = t, enter_normal = plane.normal;
    } else if (t < t_exit) {
      t_exit = t;
    }
  }
  if (!detail::fill_solid_hit(ray, t_enter, t_exit, hit)) return hit;
  if (!hit.started_inside()) hit.normal = enter_normal;
  return hit;
}

template class ConvexHull<float>;
template class ConvexHull<double>;
template RayHit<float> ray_vs_hull(const ConvexHull<float>&, const Ray<float>&);
template RayHit<double> ray_vs_hull(const ConvexHull<double>&, const Ray<double>&);

}  // namespace hitscan
