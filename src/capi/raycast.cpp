// Ray queries: hs_raycast, hs_raycast_any, hs_raycast_all and the batches, each a validated call
// of the Scene query it names.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;
using hitscan::capi::FilterBridge;
using hitscan::capi::to_hs_hit;
using hitscan::capi::to_options;
using hitscan::capi::to_ray;

namespace {

// A batch's rays (and hits) are converted into arrays of the C++ types; beyond this count those
// arrays, or the caller's, could not exist.
constexpr std::size_t kMaxBatch = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
                                  std::max({sizeof(hs_ray), sizeof(hs_hit), sizeof(hitscan::QueryRay),
                                            sizeof(hitscan::QueryHit)});

// The common checks of a batch, then its rays in C++ form.
hs_status batch_rays(const Entry& entry, const hs_scene* scene, const hs_ray* rays, std::size_t count, const void* out,
                     std::vector<hitscan::QueryRay>& converted) {
  if (!scene) return entry.null("scene");
  if (count > kMaxBatch) return entry.fail(HS_OUT_OF_RANGE, "count %zu is more than an array can hold", count);
  if (count != 0 && !rays) return entry.null("rays");
  if (count != 0 && !out) return entry.null("the output array");
  converted.resize(count);
  std::transform(rays, rays + count, converted.begin(), to_ray);
  return HS_OK;
}

}  // namespace

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
    FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    std::vector<hitscan::QueryRay> query_rays;
    if (const hs_status s = batch_rays(entry, scene, rays, count, out_hits, query_rays); s != HS_OK) return s;
    std::vector<hitscan::QueryHit> hits(count);
    if (const hs_status s = entry.check(scene->scene.raycast_batch(query_rays, hits, query_options)); s != HS_OK) {
      return s;
    }
    std::transform(hits.begin(), hits.end(), out_hits, to_hs_hit);
    return HS_OK;
  });
}

hs_status hs_raycast_any_batch(const hs_scene* scene, const hs_ray* rays, size_t count,
                               const hs_query_options* options, uint8_t* out_hit) {
  const Entry entry{__func__};
  return entry.run([&] {
    FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    std::vector<hitscan::QueryRay> query_rays;
    if (const hs_status s = batch_rays(entry, scene, rays, count, out_hit, query_rays); s != HS_OK) return s;
    return entry.check(scene->scene.raycast_any_batch(query_rays, std::span<std::uint8_t>(out_hit, count), query_options));
  });
}

}  // extern "C"
