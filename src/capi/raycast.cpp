// Ray queries: hs_raycast, hs_raycast_any, hs_raycast_all and the batches, each a validated call
// of the Scene query it names.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "batch.hpp"
#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;
using hitscan::capi::FilterBridge;
using hitscan::capi::to_hs_hit;
using hitscan::capi::to_options;
using hitscan::capi::to_ray;

extern "C" {

hs_status hs_raycast(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options, hs_hit* out_hit) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_hit) return entry.null("out_hit");
    *out_hit = hs_hit_default();
    if (!scene) return entry.null("scene");
    if (!ray) return entry.null("ray");
    FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    *out_hit = to_hs_hit(scene->scene.raycast(to_ray(*ray), query_options));
    return HS_OK;
  });
}

hs_status hs_raycast_any(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options, int* out_hit) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_hit) return entry.null("out_hit");
    *out_hit = 0;
    if (!scene) return entry.null("scene");
    if (!ray) return entry.null("ray");
    FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    *out_hit = scene->scene.raycast_any(to_ray(*ray), query_options) ? 1 : 0;
    return HS_OK;
  });
}

hs_status hs_raycast_all(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options, hs_hit* buffer,
                         size_t capacity, size_t* out_written, size_t* out_total) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (out_total) *out_total = 0;
    if (!out_written) return entry.null("out_written");
    *out_written = 0;
    if (!scene) return entry.null("scene");
    if (!ray) return entry.null("ray");
    if (!buffer && capacity != 0) return entry.null("buffer");
    FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    std::vector<hitscan::QueryHit> hits;
    scene->scene.raycast_all(to_ray(*ray), hits, query_options);
    const std::size_t written = std::min(hits.size(), capacity);
    std::transform(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(written), buffer, to_hs_hit);
    *out_written = written;
    if (out_total) *out_total = hits.size();
    return HS_OK;
  });
}

hs_status hs_raycast_batch(const hs_scene* scene, const hs_ray* rays, size_t count, const hs_query_options* options,
                           hs_hit* out_hits) {
  const Entry entry{__func__};
  return entry.run([&] {
    return hitscan::capi::run_hit_batch(
        entry, scene, rays, "rays", count, options, out_hits, to_ray,
        [](const hitscan::Scene& s, std::span<const hitscan::QueryRay> in, std::span<hitscan::QueryHit> out,
           const hitscan::QueryOptions& o) { return s.raycast_batch(in, out, o); });
  });
}

hs_status hs_raycast_any_batch(const hs_scene* scene, const hs_ray* rays, size_t count,
                               const hs_query_options* options, uint8_t* out_hit) {
  const Entry entry{__func__};
  return entry.run([&] {
    return hitscan::capi::run_batch(entry, scene, rays, "rays", count, options, out_hit, to_ray,
                                    [&](const hitscan::Scene& s, std::span<const hitscan::QueryRay> in,
                                        const hitscan::QueryOptions& o) {
                                      return s.raycast_any_batch(in, std::span<std::uint8_t>(out_hit, count), o);
                                    });
  });
}

}  // extern "C"
