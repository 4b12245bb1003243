#include "tools/ar_overlay.hpp"

#include <algorithm>
#include <cmath>

namespace hitscan::tools {
namespace {

// A point in the camera frame and its projection (see ar/camera.hpp for the conventions).
struct Projected {
  float u = 0, v = 0, depth = 0;
};

Vec3f to_camera(const hitscan::PinholeCamera& camera, Vec3f p) {
  return camera.rotation().inverse_rotate(p - camera.position());
}

Projected project(const PinholeIntrinsics& k, Vec3f local) {
  const float depth = -local.z;
  return {k.cx + k.fx * local.x / depth, k.cy - k.fy * local.y / depth, depth};
}

// Liang-Barsky: narrows [s0, s1] of p + s d to the part inside [lo, hi] along one axis; false when
// nothing is left.
bool clip_axis(float p, float d, float lo, float hi, float& s0, float& s1) {
  if (d == 0.0f) return p >= lo && p <= hi;
  float a = (lo - p) / d, b = (hi - p) / d;
  if (a > b) std::swap(a, b);
  s0 = std::max(s0, a);
  s1 = std::min(s1, b);
  return s0 <= s1;
}

std::uint8_t mix(std::uint8_t under, std::uint8_t over, float alpha) {
  const float value = static_cast<float>(over) * alpha + static_cast<float>(under) * (1.0f - alpha);
  return static_cast<std::uint8_t>(std::lround(std::clamp(value, 0.0f, 255.0f)));
}

}  // namespace

Overlay::Overlay(const hitscan::PinholeCamera& camera)
    : camera_(camera),
      width_(camera.intrinsics().width),
      height_(camera.intrinsics().height),
      pixels_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_)) {}

void Overlay::write(int i, int j, float depth, float occlusion_depth, int probe_i, int probe_j, io::Rgb8 colour,
                    OverlayKind kind) {
  OverlayPixel& pixel = pixels_[static_cast<std::size_t>(j) * static_cast<std::size_t>(width_) + i];
  // An arrow lies on the route: it covers the route's line, whose depth at a pixel off its
  // centre is off by a few percent (see the file comment), where they are that close in depth.
  const auto close = [](float near, float far) { return far < near * 1.1f + 0.1f; };
  if (kind == OverlayKind::route && pixel.kind == OverlayKind::arrow && close(depth, pixel.depth)) return;
  const bool arrow_over_route = kind == OverlayKind::arrow && pixel.kind == OverlayKind::route &&
                                close(pixel.depth, depth);
  if (!arrow_over_route && !(depth < pixel.depth)) return;
  pixel = {depth, occlusion_depth, probe_i, probe_j, colour, kind};
}

float LineWidth::radius(float d, float fx) const {
  const float r = half_width * fx / d;
  return std::max(0.5f, std::clamp(std::isfinite(r) ? r : max_radius, min_radius, std::max(min_radius, max_radius)));
}

void Overlay::draw_line(Vec3f a, Vec3f b, const LineWidth& width, io::Rgb8 colour, OverlayKind kind) {
  if (!is_finite(a) || !is_finite(b)) return;
  Vec3f la = to_camera(camera_, a), lb = to_camera(camera_, b);
  const float da = -la.z, db = -lb.z;
  if (da < kOverlayNearDepth && db < kOverlayNearDepth) return;
  if (da < kOverlayNearDepth) la = lerp(la, lb, (kOverlayNearDepth - da) / (db - da));
  if (db < kOverlayNearDepth) lb = lerp(lb, la, (kOverlayNearDepth - db) / (da - db));
  const Projected pa = project(camera_.intrinsics(), la), pb = project(camera_.intrinsics(), lb);

  // The part of the projected segment whose stamps can reach the image.
  float s0 = 0, s1 = 1;
  const float margin = std::max({width.min_radius, width.max_radius, 0.5f}) + 1.0f;
  if (!clip_axis(pa.u, pb.u - pa.u, -margin, static_cast<float>(width_) + margin, s0, s1) ||
      !clip_axis(pa.v, pb.v - pa.v, -margin, static_cast<float>(height_) + margin, s0, s1)) {
    return;
  }
  const float screen_length = std::hypot(pb.u - pa.u, pb.v - pa.v) * (s1 - s0);
  const int steps = static_cast<int>(std::ceil(screen_length / 0.5f)) + 1;
  for (int k = 0; k <= steps; ++k) {
    const float s = s0 + (s1 - s0) * static_cast<float>(k) / static_cast<float>(steps);
    const float u = pa.u + (pb.u - pa.u) * s, v = pa.v + (pb.v - pa.v) * s;
    // 1 / depth is linear in screen space along a projected line.
    const float depth = 1.0f / ((1.0f - s) / pa.depth + s / pb.depth);
    const float radius = width.radius(depth, camera_.intrinsics().fx);
    const int probe_i = std::clamp(static_cast<int>(std::floor(u)), 0, width_ - 1);
    const int probe_j = std::clamp(static_cast<int>(std::floor(v)), 0, height_ - 1);
    const int i0 = std::max(0, static_cast<int>(std::floor(u - radius))),
              i1 = std::min(width_ - 1, static_cast<int>(std::floor(u + radius)));
    const int j0 = std::max(0, static_cast<int>(std::floor(v - radius))),
              j1 = std::min(height_ - 1, static_cast<int>(std::floor(v + radius)));
    for (int j = j0; j <= j1; ++j) {
      for (int i = i0; i <= i1; ++i) {
        const float du = static_cast<float>(i) + 0.5f - u, dv = static_cast<float>(j) + 0.5f - v;
        if (du * du + dv * dv > radius * radius) continue;
        write(i, j, depth, depth * (1.0f - kLineDepthSlack), probe_i, probe_j, colour, kind);
      }
    }
  }
}

void Overlay::draw_triangle(Vec3f a, Vec3f b, Vec3f c, io::Rgb8 colour, OverlayKind kind) {
  if (!is_finite(a) || !is_finite(b) || !is_finite(c)) return;
  Projected p[3];
  const Vec3f corners[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    const Vec3f local = to_camera(camera_, corners[k]);
    if (!(-local.z >= kOverlayNearDepth)) return;
    p[k] = project(camera_.intrinsics(), local);
  }
  const auto edge = [](const Projected& from, const Projected& to, float u, float v) {
    return (to.u - from.u) * (v - from.v) - (to.v - from.v) * (u - from.u);
  };
  const float area = edge(p[0], p[1], p[2].u, p[2].v);
  if (!(std::abs(area) > 0.0f) || !std::isfinite(area)) return;

  const float lo_u = std::min({p[0].u, p[1].u, p[2].u}), hi_u = std::max({p[0].u, p[1].u, p[2].u});
  const float lo_v = std::min({p[0].v, p[1].v, p[2].v}), hi_v = std::max({p[0].v, p[1].v, p[2].v});
  if (hi_u < 0.0f || hi_v < 0.0f || lo_u > static_cast<float>(width_) || lo_v > static_cast<float>(height_)) return;
  // Clamped as floats first: a corner far outside the image does not fit an int.
  const int i0 = static_cast<int>(std::max(0.0f, lo_u));
  const int i1 = static_cast<int>(std::min(static_cast<float>(width_ - 1), hi_u));
  const int j0 = static_cast<int>(std::max(0.0f, lo_v));
  const int j1 = static_cast<int>(std::min(static_cast<float>(height_ - 1), hi_v));
  for (int j = j0; j <= j1; ++j) {
    for (int i = i0; i <= i1; ++i) {
      const float u = static_cast<float>(i) + 0.5f, v = static_cast<float>(j) + 0.5f;
      const float b0 = edge(p[1], p[2], u, v) / area, b1 = edge(p[2], p[0], u, v) / area,
                  b2 = edge(p[0], p[1], u, v) / area;
      if (b0 < 0.0f || b1 < 0.0f || b2 < 0.0f) continue;
      // 1 / depth is linear in screen space over a projected triangle.
      const float depth = 1.0f / (b0 / p[0].depth + b1 / p[1].depth + b2 / p[2].depth);
      write(i, j, depth, depth, i, j, colour, kind);
    }
  }
}

std::vector<std::size_t> Overlay::covered() const {
  std::vector<std::size_t> indices;
  for (std::size_t k = 0; k < pixels_.size(); ++k) {
    if (pixels_[k].kind != OverlayKind::none) indices.push_back(k);
  }
  return indices;
}

std::vector<PixelDepth> Overlay::occlusion_probes(std::span<const std::size_t> covered) const {
  std::vector<PixelDepth> probes;
  probes.reserve(covered.size());
  for (const std::size_t k : covered) {
    const OverlayPixel& pixel = pixels_[k];
    probes.push_back({pixel.probe_i, pixel.probe_j, pixel.occlusion_depth});
  }
  return probes;
}

io::Rgb8 blend(io::Rgb8 under, io::Rgb8 colour, float alpha) {
  return {mix(under.r, colour.r, alpha), mix(under.g, colour.g, alpha), mix(under.b, colour.b, alpha)};
}

void composite(io::Image& image, const Overlay& overlay, std::span<const std::size_t> covered,
               std::span<const std::uint8_t> hidden, float visible_alpha, float hidden_alpha) {
  std::span<io::Rgb8> pixels = image.pixels();
  for (std::size_t k = 0; k < covered.size() && k < hidden.size(); ++k) {
    const std::size_t index = covered[k];
    if (index >= pixels.size()) continue;
    const float alpha = hidden[k] ? hidden_alpha : visible_alpha;
    pixels[index] = blend(pixels[index], overlay.pixels()[index].colour, alpha);
  }
}

}  // namespace hitscan::tools
