#include "hitscan/ar/occlusion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>

#include "hitscan/math/simd.hpp"

namespace hitscan {
namespace {

constexpr float kNoSurface = std::numeric_limits<float>::infinity();
/// The pixels of a tile, traced as one packet of 64 rays: square, so that its rays stay close.
constexpr std::size_t kTileSize = 8;
static_assert(kTileSize <= std::size_t(simd::Float8::width), "a tile's row of rays is made in one SIMD pass");

Status invalid(const std::string& message) { return Status{StatusCode::invalid_argument, message}; }

// rays[l] = camera.ray_through_pixel(i0 + l + 0.5, v) for l < count <= 8: its operations in the
// same order, 8 pixels of a row at a time, so the same bits (a lane whose direction would need
// normalize's rescaling takes the camera's own call).
void rays_through_row(const PinholeCamera& camera, std::size_t i0, int count, float v, QueryRay* rays) {
  using F = simd::Float8;
  const PinholeIntrinsics& k = camera.intrinsics();
  const Quatf& q = camera.rotation();
  alignas(32) float u[F::width];
  for (int l = 0; l < F::width; ++l) u[l] = float(i0 + std::size_t(l)) + 0.5f;
  // local = ((u - cx) / fx, -(v - cy) / fy, -1), rotated by q: t = cross(q, local) * 2, then
  // local + t * w + cross(q, t).
  const F lx = (F::load(u) - F(k.cx)) / F(k.fx), ly(-(v - k.cy) / k.fy), lz(-1.0f);
  const F qx(q.x), qy(q.y), qz(q.z), two(2.0f), w(q.w);
  const F tx = (qy * lz - qz * ly) * two, ty = (qz * lx - qx * lz) * two, tz = (qx * ly - qy * lx) * two;
  const F rx = (lx + tx * w) + (qy * tz - qz * ty);
  const F ry = (ly + ty * w) + (qz * tx - qx * tz);
  const F rz = (lz + tz * w) + (qx * ty - qy * tx);
  const F len2 = (rx * rx + ry * ry) + rz * rz;
  const F scale = F(1.0f) / sqrt(len2);
  alignas(32) float dx[F::width], dy[F::width], dz[F::width], l2[F::width];
  (rx * scale).store(dx), (ry * scale).store(dy), (rz * scale).store(dz), len2.store(l2);
  const Vec3f origin = camera.position();
  for (int l = 0; l < count; ++l) {
    if (!(l2[l] >= std::numeric_limits<float>::min() && std::isfinite(l2[l]))) {
      rays[l] = camera.ray_through_pixel(u[l], v);
      continue;
    }
    rays[l] = QueryRay{};
    rays[l].origin = origin;
    rays[l].direction = {dx[l], dy[l], dz[l]};
  }
}

}  // namespace

Status render_depth(const Scene& scene, const PinholeCamera& camera, DepthMap& out, const QueryOptions& options,
                    Executor* executor) {
  const PinholeIntrinsics& k = camera.intrinsics();
  const auto width = static_cast<std::size_t>(k.width), height = static_cast<std::size_t>(k.height);
  const Vec3f forward = camera.forward();
  std::vector<float> depth(width * height);
  // Bands of 8 rows over the executor, each traced on its own thread: its rays made, traced
  // tile by tile (each run of 64 consecutive rays covers an 8 x 8 block of pixels) and turned
  // into depths there, so that nothing of a frame runs on one thread alone.
  const std::size_t bands = (height + kTileSize - 1) / kTileSize;
  std::mutex failure_mutex;
  Status failure = Status::success();
  (executor ? *executor : default_executor()).parallel_for(bands, 1, [&](std::size_t first, std::size_t last) {
    thread_local std::vector<QueryRay> rays;
    thread_local std::vector<float> distances;
    thread_local std::vector<std::size_t> pixel;  // where each ray's depth goes
    rays.resize(width * kTileSize), distances.resize(width * kTileSize), pixel.resize(width * kTileSize);
    SerialExecutor serial;
    for (std::size_t band = first; band < last; ++band) {
      const std::size_t row0 = band * kTileSize, row1 = std::min(height, row0 + kTileSize);
      std::size_t n = 0;
      for (std::size_t tile_column = 0; tile_column < width; tile_column += kTileSize) {
        const std::size_t columns = std::min(width - tile_column, kTileSize);
        for (std::size_t j = row0; j < row1; ++j) {
          rays_through_row(camera, tile_column, int(columns), float(j) + 0.5f, &rays[n]);
          for (std::size_t i = tile_column; i < tile_column + columns; ++i) pixel[n++] = j * width + i;
        }
      }
      const Status s = scene.raycast_coherent_distances(std::span<const QueryRay>(rays.data(), n),
                                                        std::span<float>(distances.data(), n), options, &serial);
      if (!s.ok()) {
        const std::lock_guard lock(failure_mutex);
        if (failure.ok()) failure = s;
        return;
      }
      for (std::size_t r = 0; r < n; ++r) {
        // The ray's direction is unit: a point at distance s along it lies s cos(angle) deep.
        depth[pixel[r]] = distances[r] < kNoSurface ? distances[r] * dot(rays[r].direction, forward) : kNoSurface;
      }
    }
  });
  if (!failure.ok()) return failure;
  out.width = k.width, out.height = k.height, out.depth = std::move(depth);
  return Status::success();
}

Result<DepthMapView> DepthMapView::make(const float* data, std::size_t size, int width, int height,
                                        std::ptrdiff_t row_stride, float meters_per_unit) {
  if (data == nullptr) return invalid("DepthMapView: null data");
  if (width < 1 || height < 1) {
    return invalid("DepthMapView: image size " + std::to_string(width) + " x " + std::to_string(height));
  }
  if (row_stride < width) {
    return invalid("DepthMapView: row stride " + std::to_string(row_stride) + " is below the width " +
                   std::to_string(width));
  }
  const auto needed = static_cast<std::size_t>(row_stride) * static_cast<std::size_t>(height - 1) +
                      static_cast<std::size_t>(width);
  if (size < needed) {
    return invalid("DepthMapView: " + std::to_string(size) + " floats but the image needs " + std::to_string(needed));
  }
  if (!(meters_per_unit > 0.0f) || !std::isfinite(meters_per_unit)) {
    return invalid("DepthMapView: meters_per_unit must be positive and finite");
  }
  return DepthMapView(data, width, height, row_stride, meters_per_unit);
}

Result<DepthMapView> DepthMapView::of(const DepthMap& map) {
  if (map.width < 1 || map.height < 1 ||
      map.depth.size() != static_cast<std::size_t>(map.width) * static_cast<std::size_t>(map.height)) {
    return invalid("DepthMapView: a depth map of " + std::to_string(map.width) + " x " + std::to_string(map.height) +
                   " holds " + std::to_string(map.depth.size()) + " values");
  }
  return make(map.depth.data(), map.depth.size(), map.width, map.height, map.width);
}

float DepthMapView::depth(int i, int j) const {
  HITSCAN_ASSERT(i >= 0 && i < width_ && j >= 0 && j < height_);
  const float value = data_[static_cast<std::ptrdiff_t>(j) * stride_ + i];
  // NaN, 0 and negative values are how frameworks mark a missing measurement.
  return value > 0.0f ? value * scale_ : kNoSurface;
}

bool hidden(const DepthMapView& real, int i, int j, float depth, float bias) {
  if (i < 0 || j < 0 || i >= real.width() || j >= real.height() || !std::isfinite(depth)) return false;
  return real.depth(i, j) < depth - bias;
}

Status occlusion_mask(const DepthMapView& real, std::span<const PixelDepth> covered, std::span<std::uint8_t> hidden_out,
                      float bias) {
  if (covered.size() != hidden_out.size()) {
    return invalid("occlusion_mask: " + std::to_string(covered.size()) + " pixels but room for " +
                   std::to_string(hidden_out.size()) + " results");
  }
  for (const PixelDepth& p : covered) {
    if (p.i < 0 || p.j < 0 || p.i >= real.width() || p.j >= real.height()) {
      return Status{StatusCode::out_of_range, "occlusion_mask: pixel (" + std::to_string(p.i) + ", " +
                                                  std::to_string(p.j) + ") is outside the image"};
    }
  }
  for (std::size_t k = 0; k < covered.size(); ++k) {
    hidden_out[k] = hidden(real, covered[k].i, covered[k].j, covered[k].depth, bias) ? 1 : 0;
  }
  return Status::success();
}

Status occlusion_map(const DepthMapView& real, const DepthMapView& virtual_depth, std::span<std::uint8_t> mask,
                     float bias, Executor* executor) {
  if (real.width() != virtual_depth.width() || real.height() != virtual_depth.height()) {
    return invalid("occlusion_map: the real depth is " + std::to_string(real.width()) + " x " +
                   std::to_string(real.height()) + " but the virtual depth " + std::to_string(virtual_depth.width()) +
                   " x " + std::to_string(virtual_depth.height()));
  }
  const auto width = static_cast<std::size_t>(real.width()), height = static_cast<std::size_t>(real.height());
  if (mask.size() != width * height) {
    return invalid("occlusion_map: a mask of " + std::to_string(mask.size()) + " for " + std::to_string(width * height) +
                   " pixels");
  }
  (executor ? *executor : default_executor()).parallel_for(height, 8, [&](std::size_t begin, std::size_t end) {
    for (std::size_t j = begin; j < end; ++j) {
      for (std::size_t i = 0; i < width; ++i) {
        const int x = static_cast<int>(i), y = static_cast<int>(j);
        mask[j * width + i] = hidden(real, x, y, virtual_depth.depth(x, y), bias) ? 1 : 0;
      }
    }
  });
  return Status::success();
}

}  // namespace hitscan
