#include "embree_depth.hpp"

#include <embree3/rtcore.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace hitscan::bench {
namespace {

constexpr std::size_t kBandRows = 8;
constexpr float kNoSurface = std::numeric_limits<float>::infinity();

void report_error(void*, RTCError code, const char* message) {
  std::fprintf(stderr, "embree error %d: %s\n", static_cast<int>(code), message ? message : "");
}

// The rows [row0, row1) in blocks of 4 x K/4 pixels, K rays to a packet.
template <class RayHitK, int K, class IntersectK>
void trace_blocks(RTCScene scene, RTCIntersectContext& context, const PinholeCamera& camera, Vec3f forward,
                  std::size_t width, std::size_t row0, std::size_t row1, std::vector<float>& depth,
                  IntersectK intersect) {
  constexpr std::size_t kRows = K / 4;
  for (std::size_t j = row0; j < row1; j += kRows) {
    for (std::size_t i = 0; i < width; i += 4) {
      alignas(64) RayHitK h;
      alignas(64) int valid[K];
      std::size_t pixel[K];
      Vec3f dir[K];
      for (int l = 0; l < K; ++l) {
        const std::size_t pi = i + std::size_t(l % 4), pj = j + std::size_t(l / 4);
        valid[l] = pi < width && pj < row1 ? -1 : 0;
        const QueryRay q = camera.ray_through_pixel(float(std::min(pi, width - 1)) + 0.5f,
                                                    float(std::min(pj, row1 - 1)) + 0.5f);
        pixel[l] = pj * width + pi;
        dir[l] = q.direction;
        h.ray.org_x[l] = q.origin.x, h.ray.org_y[l] = q.origin.y, h.ray.org_z[l] = q.origin.z;
        h.ray.dir_x[l] = q.direction.x, h.ray.dir_y[l] = q.direction.y, h.ray.dir_z[l] = q.direction.z;
        h.ray.tnear[l] = 0.0f, h.ray.tfar[l] = kNoSurface, h.ray.mask[l] = ~0u;
        h.ray.time[l] = 0.0f, h.ray.id[l] = 0, h.ray.flags[l] = 0;
        h.hit.geomID[l] = RTC_INVALID_GEOMETRY_ID;
      }
      intersect(valid, scene, &context, &h);
      for (int l = 0; l < K; ++l) {
        if (valid[l] && h.hit.geomID[l] != RTC_INVALID_GEOMETRY_ID) depth[pixel[l]] = h.ray.tfar[l] * dot(dir[l], forward);
      }
    }
  }
}

}  // namespace

struct EmbreeDepth::State {
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
  // Embree may read 16 bytes at a vertex: each chunk's copy gets one spare float.
  std::vector<std::vector<float>> vertices;
};

EmbreeDepth::EmbreeDepth(const tools::StreetScene& street) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.device = rtcNewDevice(nullptr);
  if (!s.device) throw std::runtime_error("rtcNewDevice failed");
  rtcSetDeviceErrorFunction(s.device, report_error, nullptr);
  s.scene = rtcNewScene(s.device);
  rtcSetSceneBuildQuality(s.scene, RTC_BUILD_QUALITY_HIGH);
  for (const tools::StreetChunk& chunk : street.chunks) {
    std::vector<float>& v = s.vertices.emplace_back(chunk.positions.size() * 3 + 1);
    for (std::size_t i = 0; i < chunk.positions.size(); ++i) {
      v[3 * i] = chunk.positions[i].x, v[3 * i + 1] = chunk.positions[i].y, v[3 * i + 2] = chunk.positions[i].z;
    }
    RTCGeometry geometry = rtcNewGeometry(s.device, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, v.data(), 0,
                               3 * sizeof(float), chunk.positions.size());
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, chunk.triangles.data(), 0,
                               sizeof(TriangleMesh::Indices), chunk.triangles.size());
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(s.scene, geometry);
    rtcReleaseGeometry(geometry);
  }
  rtcCommitScene(s.scene);
}

EmbreeDepth::~EmbreeDepth() {
  if (state_->scene) rtcReleaseScene(state_->scene);
  if (state_->device) rtcReleaseDevice(state_->device);
}

void EmbreeDepth::render(const PinholeCamera& camera, std::vector<float>& depth, Executor& executor,
                         int packet) const {
  const bool packets = packet > 1, packets16 = packet == 16;
  const PinholeIntrinsics& k = camera.intrinsics();
  const auto width = std::size_t(k.width), height = std::size_t(k.height);
  const Vec3f forward = camera.forward();
  depth.assign(width * height, kNoSurface);
  RTCScene scene = state_->scene;
  const std::size_t bands = (height + kBandRows - 1) / kBandRows;
  executor.parallel_for(bands, 1, [&](std::size_t first, std::size_t last) {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    for (std::size_t band = first; band < last; ++band) {
      const std::size_t row0 = band * kBandRows, row1 = std::min(height, row0 + kBandRows);
      if (!packets) {
        for (std::size_t j = row0; j < row1; ++j) {
          for (std::size_t i = 0; i < width; ++i) {
            const QueryRay q = camera.ray_through_pixel(float(i) + 0.5f, float(j) + 0.5f);
            RTCRayHit h{};
            h.ray.org_x = q.origin.x, h.ray.org_y = q.origin.y, h.ray.org_z = q.origin.z;
            h.ray.dir_x = q.direction.x, h.ray.dir_y = q.direction.y, h.ray.dir_z = q.direction.z;
            h.ray.tnear = 0.0f, h.ray.tfar = kNoSurface, h.ray.mask = ~0u;
            h.hit.geomID = RTC_INVALID_GEOMETRY_ID;
            rtcIntersect1(scene, &context, &h);
            if (h.hit.geomID != RTC_INVALID_GEOMETRY_ID) depth[j * width + i] = h.ray.tfar * dot(q.direction, forward);
          }
        }
        continue;
      }
      if (packets16) {
        trace_blocks<RTCRayHit16, 16>(scene, context, camera, forward, width, row0, row1, depth, rtcIntersect16);
      } else {
        trace_blocks<RTCRayHit8, 8>(scene, context, camera, forward, width, row0, row1, depth, rtcIntersect8);
      }
    }
  });
}

}  // namespace hitscan::bench
