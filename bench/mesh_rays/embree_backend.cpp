// Embree 3 as a reference: one triangle geometry sharing the mesh's index array and a padded copy
// of its vertices, traced with rtcIntersect1 / rtcOccluded1, and with rtcIntersect8 for the packet
// figure. Its memory is what the device's memory monitor saw allocated, net, for the scene.

#include <embree3/rtcore.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend.hpp"
#include "statistics.hpp"

namespace hitscan::bench {
namespace {

// Net bytes Embree's device holds, summed from its memory monitor callback (allocations
// positive, frees negative).
struct MemoryMonitor {
  std::atomic<long long> bytes{0};
};

bool monitor_memory(void* user, ssize_t bytes, bool /*post*/) {
  static_cast<MemoryMonitor*>(user)->bytes += bytes;
  return true;
}

void report_error(void*, RTCError code, const char* message) {
  std::fprintf(stderr, "embree error %d: %s\n", static_cast<int>(code), message ? message : "");
}

// A device, its scene and the padded vertex copy Embree reads (Embree may load 16 bytes at the
// last vertex, so the array gets one spare float).
struct EmbreeScene {
  std::shared_ptr<const TriangleMesh> mesh;
  std::vector<float> vertices;
  MemoryMonitor monitor;
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
  std::size_t scene_bytes = 0;

  EmbreeScene(std::shared_ptr<const TriangleMesh> m, int threads) : mesh(std::move(m)) {
    const std::string config = threads > 0 ? "threads=" + std::to_string(threads) : std::string();
    device = rtcNewDevice(config.empty() ? nullptr : config.c_str());
    if (!device) throw std::runtime_error("rtcNewDevice failed");
    rtcSetDeviceErrorFunction(device, report_error, nullptr);
    rtcSetDeviceMemoryMonitorFunction(device, monitor_memory, &monitor);
    vertices.resize(mesh->vertex_count() * 3 + 1);
    for (std::size_t i = 0; i < mesh->vertex_count(); ++i) {
      const Vec3f p = mesh->positions()[i];
      vertices[3 * i] = p.x;
      vertices[3 * i + 1] = p.y;
      vertices[3 * i + 2] = p.z;
    }
  }
  EmbreeScene(const EmbreeScene&) = delete;
  EmbreeScene& operator=(const EmbreeScene&) = delete;
  ~EmbreeScene() {
    if (scene) rtcReleaseScene(scene);
    rtcReleaseDevice(device);
  }

  void build(bool high_quality) {
    if (scene) rtcReleaseScene(scene);
    const long long before = monitor.bytes;
    scene = rtcNewScene(device);
    rtcSetSceneFlags(scene, RTC_SCENE_FLAG_NONE);
    rtcSetSceneBuildQuality(scene, high_quality ? RTC_BUILD_QUALITY_HIGH : RTC_BUILD_QUALITY_MEDIUM);
    RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, vertices.data(), 0,
                               3 * sizeof(float), mesh->vertex_count());
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, mesh->triangles().data(), 0,
                               sizeof(TriangleMesh::Indices), mesh->triangle_count());
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene, geometry);
    rtcReleaseGeometry(geometry);
    rtcCommitScene(scene);
    scene_bytes = static_cast<std::size_t>(monitor.bytes - before);
  }
};

RTCRay to_embree(const Rayf& r) {
  RTCRay e;
  e.org_x = r.origin.x;
  e.org_y = r.origin.y;
  e.org_z = r.origin.z;
  e.tnear = r.tmin;
  e.dir_x = r.dir.x;
  e.dir_y = r.dir.y;
  e.dir_z = r.dir.z;
  e.time = 0;
  e.tfar = r.tmax;
  e.mask = ~0u;
  e.id = 0;
  e.flags = 0;
  return e;
}

class EmbreeBackend final : public Backend {
 public:
  EmbreeBackend(std::shared_ptr<EmbreeScene> scene, std::string name)
      : scene_(std::move(scene)), name_(std::move(name)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return scene_->scene_bytes; }
  const std::shared_ptr<EmbreeScene>& scene() const { return scene_; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    for (std::size_t i = 0; i < rays.size(); ++i) {
      RTCRayHit rayhit;
      rayhit.ray = to_embree(rays[i]);
      rayhit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
      rtcIntersect1(scene_->scene, &context, &rayhit);
      const bool hit = rayhit.hit.geomID != RTC_INVALID_GEOMETRY_ID;
      out.t[i] = hit ? rayhit.ray.tfar : kInfinity<float>;
      out.triangle[i] = hit ? rayhit.hit.primID : kNoPrimitive;
    }
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    for (std::size_t i = 0; i < rays.size(); ++i) {
      RTCRay ray = to_embree(rays[i]);
      rtcOccluded1(scene_->scene, &context, &ray);
      out.hit[i] = ray.tfar < 0 ? 1 : 0;  // Embree marks an occluded ray with tfar = -inf
    }
  }

 private:
  std::shared_ptr<EmbreeScene> scene_;
  std::string name_;
};

class EmbreePacket8Backend final : public Backend {
 public:
  EmbreePacket8Backend(std::shared_ptr<EmbreeScene> scene, std::string name)
      : scene_(std::move(scene)), name_(std::move(name)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return scene_->scene_bytes; }
  bool has_any() const override { return false; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    for (std::size_t first = 0; first < rays.size(); first += 8) {
      const std::size_t lanes = std::min<std::size_t>(8, rays.size() - first);
      RTCRayHit8 packet;
      int valid[8];
      for (std::size_t k = 0; k < 8; ++k) {
        const Rayf& r = rays[first + (k < lanes ? k : 0)];
        valid[k] = k < lanes ? -1 : 0;
        packet.ray.org_x[k] = r.origin.x;
        packet.ray.org_y[k] = r.origin.y;
        packet.ray.org_z[k] = r.origin.z;
        packet.ray.tnear[k] = r.tmin;
        packet.ray.dir_x[k] = r.dir.x;
        packet.ray.dir_y[k] = r.dir.y;
        packet.ray.dir_z[k] = r.dir.z;
        packet.ray.time[k] = 0;
        packet.ray.tfar[k] = r.tmax;
        packet.ray.mask[k] = ~0u;
        packet.ray.id[k] = 0;
        packet.ray.flags[k] = 0;
        packet.hit.geomID[k] = RTC_INVALID_GEOMETRY_ID;
      }
      rtcIntersect8(valid, scene_->scene, &context, &packet);
      for (std::size_t k = 0; k < lanes; ++k) {
        const bool hit = packet.hit.geomID[k] != RTC_INVALID_GEOMETRY_ID;
        out.t[first + k] = hit ? packet.ray.tfar[k] : kInfinity<float>;
        out.triangle[first + k] = hit ? packet.hit.primID[k] : kNoPrimitive;
      }
    }
  }

  void any(std::span<const Rayf>, ResultSpan) const override {}

 private:
  std::shared_ptr<EmbreeScene> scene_;
  std::string name_;
};

// The same scene answering a whole set per call with Embree's stream API; the ray records go
// through buffers kept between calls.
class EmbreeStreamBackend final : public Backend {
 public:
  EmbreeStreamBackend(std::shared_ptr<EmbreeScene> scene, std::string name)
      : scene_(std::move(scene)), name_(std::move(name)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return scene_->scene_bytes; }
  bool streams() const override { return true; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    std::vector<RTCRayHit> records = hit_pool_.take(rays.size());
    for (std::size_t i = 0; i < rays.size(); ++i) {
      records[i].ray = to_embree(rays[i]);
      records[i].hit.geomID = RTC_INVALID_GEOMETRY_ID;
    }
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    rtcIntersect1M(scene_->scene, &context, records.data(), static_cast<unsigned>(rays.size()), sizeof(RTCRayHit));
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const bool hit = records[i].hit.geomID != RTC_INVALID_GEOMETRY_ID;
      out.t[i] = hit ? records[i].ray.tfar : kInfinity<float>;
      out.triangle[i] = hit ? records[i].hit.primID : kNoPrimitive;
    }
    hit_pool_.give_back(std::move(records));
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    std::vector<RTCRay> records = ray_pool_.take(rays.size());
    for (std::size_t i = 0; i < rays.size(); ++i) records[i] = to_embree(rays[i]);
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    rtcOccluded1M(scene_->scene, &context, records.data(), static_cast<unsigned>(rays.size()), sizeof(RTCRay));
    for (std::size_t i = 0; i < rays.size(); ++i) out.hit[i] = records[i].tfar < 0 ? 1 : 0;
    ray_pool_.give_back(std::move(records));
  }

 private:
  std::shared_ptr<EmbreeScene> scene_;
  std::string name_;
  mutable BufferPool<RTCRayHit> hit_pool_;
  mutable BufferPool<RTCRay> ray_pool_;
};

}  // namespace

BuildTiming build_embree(std::shared_ptr<const TriangleMesh> mesh, bool high_quality, int threads, int builds) {
  auto scene = std::make_shared<EmbreeScene>(std::move(mesh), threads);
  const double ms = median_ms(builds, [] {}, [&] { scene->build(high_quality); });
  return {std::make_unique<EmbreeBackend>(std::move(scene), high_quality ? "embree_high" : "embree_medium"), ms};
}

std::unique_ptr<Backend> embree_packet8(const Backend& embree, std::string name) {
  return std::make_unique<EmbreePacket8Backend>(dynamic_cast<const EmbreeBackend&>(embree).scene(), std::move(name));
}

std::unique_ptr<Backend> embree_stream(const Backend& embree, std::string name) {
  return std::make_unique<EmbreeStreamBackend>(dynamic_cast<const EmbreeBackend&>(embree).scene(), std::move(name));
}

}  // namespace hitscan::bench
