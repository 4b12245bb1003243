// GJK distance and EPA penetration between convex shapes (geometry/gjk_epa.hpp). The distance walk
// is gjk_distance.cpp's; this file turns shapes into cores, adds the radii, and expands the
// Minkowski difference of overlapping cores into a polytope whose nearest face to the origin gives
// the penetration (the Expanding Polytope Algorithm, van den Bergen 2001; Ericson's RTCD 9.5 for
// the Minkowski-difference view).

#include <cmath>
#include <limits>
#include <vector>

#include "hitscan/geometry/detail/gjk_distance.hpp"
#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/shape_size.hpp"

namespace hitscan {
namespace {

using V = Vec3<double>;

template <Real T>
bool valid_radius(T r) {
  return is_finite(r) && r >= T(0);
}

// Each shape's core, radius, size and validity.
struct CoreOf {
  template <Real T>
  ConvexCore operator()(const Sphere<T>& s) const {
    return {ConvexSupport::from(Segment<T>{s.center, s.center}), double(s.radius), double(size_of(s)),
            is_finite(s.center) && valid_radius(s.radius)};
  }
  template <Real T>
  ConvexCore operator()(const Aabb<T>& b) const {
    return (*this)(Obb<T>{b.center(), b.half_extents(), Mat3<T>{}});
  }
  template <Real T>
  ConvexCore operator()(const Obb<T>& b) const {
    const bool valid = is_finite(b.center) && is_finite(b.half_extents) && min_component(b.half_extents) >= T(0) &&
                       is_finite(b.rotation.col[0]) && is_finite(b.rotation.col[1]) && is_finite(b.rotation.col[2]);
    return {ConvexSupport::from(b), 0.0, double(size_of(b)), valid};
  }
  template <Real T>
  ConvexCore operator()(const Capsule<T>& c) const {
    return {ConvexSupport::from(Segment<T>{c.a, c.b}), double(c.radius), double(size_of(c)),
            is_finite(c.a) && is_finite(c.b) && valid_radius(c.radius)};
  }
  template <Real T>
  ConvexCore operator()(const Cylinder<T>& c) const {
    return {ConvexSupport::from(c), 0.0, double(size_of(c)),
            is_finite(c.a) && is_finite(c.b) && c.a != c.b && valid_radius(c.radius)};
  }
  template <Real T>
  ConvexCore operator()(const Triangle<T>& t) const {
    return {ConvexSupport::from(t), 0.0, double(size_of(t)), is_finite(t.v0) && is_finite(t.v1) && is_finite(t.v2)};
  }
  template <Real T>
  ConvexCore operator()(const ConvexPolygon<T>* p) const {
    return {ConvexSupport::from(*p), 0.0, double(size_of(*p)), true};
  }
  template <Real T>
  ConvexCore operator()(const ConvexHull<T>* h) const {
    return {ConvexSupport::from(*h), 0.0, double(size_of(*h)), true};
  }
};

// A point of the Minkowski difference A - B with the support points it came from.
struct Vertex {
  V w, on_a, on_b;
};

Vertex support_of(const ConvexSupport& a, const ConvexSupport& b, V d) {
  Vertex v{{}, a.support(d), b.support(-d)};
  v.w = v.on_a - v.on_b;
  return v;
}

struct Face {
  int v[3];
  V normal;  // unit, out of the polytope
  double distance;  // of its plane from the origin
};

// EPA's answer: the depth of the origin in the difference of the cores, the outward normal of
// the difference's face nearest the origin, and the support points that realise it.
struct Expansion {
  double depth = 0;
  V normal{0, 0, 1};
  V on_a{}, on_b{};
  bool from_polytope = true;  // false: the difference has no volume; normal is its plane's or arbitrary
};

// The polytope EPA grows inside the difference of the cores: vertices with their support points,
// triangles with outward unit normals. Tolerances are relative to the difference's extent.
class Polytope {
 public:
  Polytope(const ConvexSupport& a, const ConvexSupport& b, double scale)
      : a_(a), b_(b), eps_(1e-12 * scale), converged_(1e-10 * scale) {}

  // Blows the simplex (holding the origin) up to a tetrahedron; false when the difference has no
  // volume, with `flat_normal` set to its plane's normal when it is planar, to a direction across
  // it when it is a segment.
  bool seed(std::vector<Vertex> simplex, V& flat_normal) {
    verts_ = std::move(simplex);
    static const V kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    if (verts_.size() == 1) {
      for (const V& d : kAxes) {
        const Vertex p = support_of(a_, b_, d);
        if (length(p.w - verts_[0].w) > eps_) {
          verts_.push_back(p);
          break;
        }
      }
    }
    if (verts_.size() == 2) {
      const V u = normalize(verts_[1].w - verts_[0].w);
      V b1, b2;
      orthonormal_basis(u, b1, b2);
      flat_normal = b1;
      for (int k = 0; k < 6 && verts_.size() == 2; ++k) {
        const double angle = k * (kPi<double> / 3);
        const Vertex p = support_of(a_, b_, b1 * std::cos(angle) + b2 * std::sin(angle));
        if (length(cross(p.w - verts_[0].w, u)) > eps_) verts_.push_back(p);
      }
    }
    if (verts_.size() == 3) {
      const V n = normalize(cross(verts_[1].w - verts_[0].w, verts_[2].w - verts_[0].w));
      const Vertex up = support_of(a_, b_, n), down = support_of(a_, b_, -n);
      const double h_up = dot(n, up.w - verts_[0].w), h_down = -dot(n, down.w - verts_[0].w);
      flat_normal = n;
      if (!(std::fmax(h_up, h_down) > eps_)) return false;
      verts_.push_back(h_up >= h_down ? up : down);
    }
    if (verts_.size() < 4) return false;
    const V centre = (verts_[0].w + verts_[1].w + verts_[2].w + verts_[3].w) * 0.25;
    static constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& f : kFaces) {
      int i = f[0], j = f[1], k = f[2];
      if (dot(cross(verts_[j].w - verts_[i].w, verts_[k].w - verts_[i].w), verts_[i].w - centre) < 0) std::swap(j, k);
      if (!add_face(i, j, k)) return false;
    }
    return true;
  }

  // Expands towards the boundary of the difference until the nearest face is on it (its support
  // gains less than the tolerance) or the iterations run out.
  Expansion expand() {
    constexpr int kMaxIterations = 128;
    for (int iteration = 0;; ++iteration) {
      std::size_t best = 0;
      for (std::size_t f = 1; f < faces_.size(); ++f) {
        if (faces_[f].distance < faces_[best].distance) best = f;
      }
      const Face nearest = faces_[best];
      const Vertex p = support_of(a_, b_, nearest.normal);
      if (dot(nearest.normal, p.w) - nearest.distance <= converged_) return answer(nearest);
      if (iteration == kMaxIterations || !add_vertex(p)) {
        // Not converged (a curved surface: the polytope creeps up on it): the face's distance is
        // a lower bound on the depth, the difference's extent along its normal an upper bound that
        // the normal realises. The latter, with the support points that give it, so that moving A
        // by normal * depth separates the shapes, as contact.hpp promises.
        Expansion out;
        out.depth = std::fmax(dot(nearest.normal, p.w), 0.0);
        out.normal = nearest.normal;
        out.on_a = p.on_a, out.on_b = p.on_b;
        return out;
      }
    }
  }

 private:
  bool add_face(int i, int j, int k) {
    const V n = cross(verts_[j].w - verts_[i].w, verts_[k].w - verts_[i].w);
    const double n_length = length(n);
    if (!(n_length > 0)) return false;
    const V unit = n / n_length;
    faces_.push_back({{i, j, k}, unit, dot(unit, verts_[i].w)});
    return true;
  }

  // Removes the faces p sees and closes the hole with a cone from p to its rim.
  bool add_vertex(const Vertex& p) {
    std::vector<Face> kept;
    std::vector<std::pair<int, int>> rim;
    for (const Face& f : faces_) {
      if (dot(f.normal, p.w) - f.distance > eps_) {
        for (int e = 0; e < 3; ++e) {
          const std::pair<int, int> edge{f.v[e], f.v[(e + 1) % 3]};
          // An edge shared by two seen faces appears once each way; both leave the rim.
          bool shared = false;
          for (auto it = rim.begin(); it != rim.end(); ++it) {
            if (it->first == edge.second && it->second == edge.first) {
              rim.erase(it);
              shared = true;
              break;
            }
          }
          if (!shared) rim.push_back(edge);
        }
      } else {
        kept.push_back(f);
      }
    }
    if (rim.empty()) return false;
    const std::vector<Face> before = std::move(faces_);
    faces_ = std::move(kept);
    verts_.push_back(p);
    const int index = static_cast<int>(verts_.size()) - 1;
    for (const auto& [i, j] : rim) {
      if (!add_face(i, j, index)) {
        faces_ = before;  // a sliver of rounding: keep the polytope as it was
        verts_.pop_back();
        return false;
      }
    }
    return true;
  }

  // The origin's projection on the face, in barycentric weights, carried to A's and B's points.
  Expansion answer(const Face& f) const {
    const Vertex& a = verts_[f.v[0]];
    const Vertex& b = verts_[f.v[1]];
    const Vertex& c = verts_[f.v[2]];
    const V q = f.normal * f.distance;
    const double wa = dot(cross(b.w - q, c.w - q), f.normal), wb = dot(cross(c.w - q, a.w - q), f.normal),
                 wc = dot(cross(a.w - q, b.w - q), f.normal);
    const double sum = wa + wb + wc;
    Expansion out;
    out.depth = std::fmax(f.distance, 0.0);
    out.normal = f.normal;
    if (sum > 0) {
      out.on_a = (a.on_a * wa + b.on_a * wb + c.on_a * wc) / sum;
      out.on_b = (a.on_b * wa + b.on_b * wb + c.on_b * wc) / sum;
    } else {
      out.on_a = a.on_a, out.on_b = a.on_b;
    }
    return out;
  }

  const ConvexSupport& a_;
  const ConvexSupport& b_;
  double eps_, converged_;
  std::vector<Vertex> verts_;
  std::vector<Face> faces_;
};

// EPA from the simplex GJK ended on (which holds the origin). A difference without volume has
// the origin on its boundary: depth 0, along its plane's normal when it has one.
Expansion expand(const ConvexSupport& a, const ConvexSupport& b, const GjkDistance& g) {
  std::vector<Vertex> simplex;
  double scale = 0;
  for (int i = 0; i < g.simplex_size; ++i) {
    const Vertex v{g.simplex_on_a[i] - g.simplex_on_b[i], g.simplex_on_a[i], g.simplex_on_b[i]};
    bool repeated = false;
    for (const Vertex& s : simplex) repeated = repeated || s.w == v.w;
    if (!repeated) simplex.push_back(v);
  }
  for (const V& d : {V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}}) {
    scale = std::fmax(scale, length(support_of(a, b, d).w - support_of(a, b, -d).w));
  }
  Polytope polytope(a, b, scale);
  V flat_normal{0, 0, 1};
  if (simplex.empty() || !polytope.seed(simplex, flat_normal)) {
    Expansion out;
    out.normal = flat_normal;
    out.on_a = g.point_on_a, out.on_b = g.point_on_b;
    out.from_polytope = false;
    return out;
  }
  return polytope.expand();
}

template <Real T>
ConvexDistance<T> distance_of(const ConvexShape<T>& shape_a, const ConvexShape<T>& shape_b) {
  const ConvexCore a = convex_core(shape_a), b = convex_core(shape_b);
  ConvexDistance<T> out;
  if (!a.valid || !b.valid) {
    out.distance = std::numeric_limits<T>::quiet_NaN();
    return out;
  }
  const GjkDistance g = gjk_distance(a.support, b.support);
  const V n = g.distance > 0 ? (g.point_on_a - g.point_on_b) / g.distance : V{};
  if (g.distance > a.radius + b.radius) {
    out.distance = static_cast<T>(g.distance - a.radius - b.radius);
    out.point_a = vec3_cast<T>(g.point_on_a - n * a.radius);
    out.point_b = vec3_cast<T>(g.point_on_b + n * b.radius);
    return out;
  }
  // A point of both: on the line between the cores' points, where the two balls overlap.
  const V common = g.point_on_b + n * (0.5 * (g.distance - a.radius + b.radius));
  out.overlapping = true;
  out.point_a = out.point_b = vec3_cast<T>(common);
  return out;
}

template <Real T>
Contact<T> penetration_of(const ConvexShape<T>& shape_a, const ConvexShape<T>& shape_b, ContactTolerance<T> tol) {
  const ConvexCore a = convex_core(shape_a), b = convex_core(shape_b);
  if (!a.valid || !b.valid) return {};
  const double radii = a.radius + b.radius;
  const double limit = tol.at_size(static_cast<T>(std::fmax(a.size, b.size)));
  const GjkDistance g = gjk_distance(a.support, b.support);
  V normal, on_a = g.point_on_a, on_b = g.point_on_b;
  double depth;
  if (g.distance > 0) {
    if (g.distance - radii > limit) return {};
    normal = (g.point_on_a - g.point_on_b) / g.distance;
    depth = radii - g.distance;
  } else {
    const Expansion e = expand(a.support, b.support, g);
    normal = -e.normal;  // from B to A: moving A against the difference's face normal separates
    if (!e.from_polytope) {
      // A difference without volume has no outside to read: its plane's normal (or a fixed
      // direction), towards the side of A's interior point.
      normal = e.normal;
      if (dot(normal, a.support.inner_point() - b.support.inner_point()) < 0) normal = -normal;
    }
    depth = e.depth + radii;
    on_a = e.on_a, on_b = e.on_b;
  }
  Contact<T> c;
  c.touching = true;
  c.normal = vec3_cast<T>(normal);
  c.depth = static_cast<T>(depth);
  c.point_on_a = vec3_cast<T>(on_a - normal * a.radius);
  c.point_on_b = vec3_cast<T>(on_b + normal * b.radius);
  return c;
}

}  // namespace

template <Real T>
ConvexCore convex_core(const ConvexShape<T>& shape) {
  return std::visit(CoreOf{}, shape.shape());
}

template ConvexCore convex_core(const ConvexShape<float>&);
template ConvexCore convex_core(const ConvexShape<double>&);

ConvexDistance<float> gjk_distance(const ConvexShape<float>& a, const ConvexShape<float>& b) { return distance_of(a, b); }
ConvexDistance<double> gjk_distance(const ConvexShape<double>& a, const ConvexShape<double>& b) {
  return distance_of(a, b);
}

Contact<float> penetration(const ConvexShape<float>& a, const ConvexShape<float>& b, ContactTolerance<float> tol) {
  return penetration_of(a, b, tol);
}
Contact<double> penetration(const ConvexShape<double>& a, const ConvexShape<double>& b, ContactTolerance<double> tol) {
  return penetration_of(a, b, tol);
}

}  // namespace hitscan
