#include "picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "hitscan/io/image.hpp"

namespace bouncing {
namespace {

struct Color {
  double r = 0, g = 0, b = 0;
};

/// Fully saturated hues at a fixed brightness, spread by the golden ratio so neighbours differ.
Color sphere_color(std::uint32_t i) {
  const double hue = i * 0.6180339887498949;
  const double h = (hue - std::floor(hue)) * 6;
  const double f = h - std::floor(h);
  const double v = 0.85, p = v * 0.25, q = v * (1 - 0.75 * f), t = v * (1 - 0.75 * (1 - f));
  switch (int(h)) {
    case 0: return {v, t, p};
    case 1: return {q, v, p};
    case 2: return {p, v, t};
    case 3: return {p, q, v};
    case 4: return {t, p, v};
    default: return {v, p, q};
  }
}

/// An orthographic view onto a rectangle of the image: world x to the right, and `vertical` (y,
/// up the image, for the side view; z, down the image, for the top view) across.
struct Panel {
  int left = 0, top = 0, width = 0, height = 0;
  double scale = 1;  // pixels per metre
  double world_left = 0, world_top = 0;
  int vertical = 1;

  double px(const Vec3d& p) const { return left + (p.x - world_left) * scale; }
  double py(const Vec3d& p) const {
    return top + (vertical == 1 ? world_top - p.y : p[vertical] - world_top) * scale;
  }
};

class Canvas {
 public:
  explicit Canvas(io::Image& image) : image_(image) {}

  void blend(const Panel& panel, int x, int y, Color c, double alpha) {
    if (x < panel.left || y < panel.top || x >= panel.left + panel.width || y >= panel.top + panel.height) return;
    io::Rgb8& p = image_.at(x, y);
    const auto mix = [alpha](std::uint8_t old, double value) {
      return std::uint8_t(std::lround(old * (1 - alpha) + std::clamp(value, 0.0, 1.0) * 255 * alpha));
    };
    p = {mix(p.r, c.r), mix(p.g, c.g), mix(p.b, c.b)};
  }

  void fill(const Panel& panel, Color c) {
    for (int y = panel.top; y < panel.top + panel.height; ++y) {
      for (int x = panel.left; x < panel.left + panel.width; ++x) blend(panel, x, y, c, 1.0);
    }
  }

  /// A one-pixel line, stepping along its longer axis (DDA).
  void line(const Panel& panel, const Vec3d& a, const Vec3d& b, Color c, double alpha) {
    const double x0 = panel.px(a), y0 = panel.py(a), x1 = panel.px(b), y1 = panel.py(b);
    const double span = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    if (!(span < 1e5)) return;  // far outside, or not finite
    const int steps = std::max(1, int(std::ceil(span)));
    for (int k = 0; k <= steps; ++k) {
      const double s = double(k) / steps;
      blend(panel, int(std::floor(x0 + (x1 - x0) * s)), int(std::floor(y0 + (y1 - y0) * s)), c, alpha);
    }
  }

  /// A filled disc with a dark rim, by testing the pixel centres of its bounding square.
  void disc(const Panel& panel, const Vec3d& center, double radius, Color c) {
    const double cx = panel.px(center), cy = panel.py(center), r = radius * panel.scale;
    for (int y = int(std::floor(cy - r)); y <= int(std::ceil(cy + r)); ++y) {
      for (int x = int(std::floor(cx - r)); x <= int(std::ceil(cx + r)); ++x) {
        const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d <= r) blend(panel, x, y, d > r - 1.2 ? Color{0.1, 0.1, 0.1} : c, 1.0);
      }
    }
  }

 private:
  io::Image& image_;
};

void draw_box(Canvas& canvas, const Panel& panel, const Vec3d& center, const Mat3d& rotation, const Vec3d& half) {
  const auto corner = [&](int k) {
    return center + rotation * Vec3d{k & 1 ? half.x : -half.x, k & 2 ? half.y : -half.y, k & 4 ? half.z : -half.z};
  };
  for (int k = 0; k < 8; ++k) {
    for (int bit = 1; bit < 8; bit <<= 1) {
      if (!(k & bit)) canvas.line(panel, corner(k), corner(k | bit), {0.2, 0.2, 0.25}, 1.0);
    }
  }
}

}  // namespace

Status draw(const World& world, const RunResult& result, const std::string& path) {
  Aabbd seen;
  for (const std::vector<Vec3d>& trace : result.traces) seen.grow(trace.front());
  const std::span<const Obbd> obstacles(world.boxes.data(), world.obstacle_count);
  for (const Obbd& box : obstacles) {
    const Vec3d half = obb_half_size(box);
    seen.grow(Aabbd{box.center - half, box.center + half});
  }
  const double pad = 3, scale = 1200 / (seen.extent().x + 2 * pad);
  const int width = int((seen.extent().x + 2 * pad) * scale);
  const Panel side{16, 16, width, int((seen.max.y - world.floor.max.y + 1.5) * scale),
                   scale, seen.min.x - pad, seen.max.y + 0.75, 1};
  const Panel top{16, side.top + side.height + 16, width, int((seen.extent().z + 2 * pad) * scale),
                  scale, seen.min.x - pad, seen.min.z - pad, 2};
  io::Image image(side.width + 32, top.top + top.height + 16, {255, 255, 255});
  Canvas canvas(image);
  for (const Panel& panel : {side, top}) {
    canvas.fill(panel, {0.965, 0.965, 0.95});
    draw_box(canvas, panel, world.floor.center(), Mat3d::identity(), world.floor.half_extents());
    for (const Obbd& box : obstacles) draw_box(canvas, panel, box.center, box.rotation, box.half_extents);
    for (std::uint32_t i = 0; i < result.traces.size(); ++i) {
      const std::vector<Vec3d>& trace = result.traces[i];
      for (std::size_t k = 1; k < trace.size(); ++k) canvas.line(panel, trace[k - 1], trace[k], sphere_color(i), 0.45);
    }
    for (std::uint32_t i = 0; i < result.traces.size(); ++i) {
      canvas.disc(panel, result.final_bodies[i].position, result.final_bodies[i].radius, sphere_color(i));
    }
  }
  return io::write_png(image, path);
}

}  // namespace bouncing
