// Overlap queries: hs_overlap_sphere, hs_overlap_box and hs_overlap_capsule, each a validated call
// of the Scene query it names, its hits copied into the caller's buffer as hs_raycast_all does.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;

namespace {

// The body of every overlap entry; `query(scene, hits, options)` runs the Scene's overlap query.
template <class CShape, class Query>
hs_status overlap(const Entry& entry, const hs_scene* scene, const CShape* shape, const char* shape_name,
                  const hs_query_options* options, hs_overlap_hit* buffer, std::size_t capacity,
                  std::size_t* out_written, std::size_t* out_total, Query query) {
  return entry.run([&] {
    if (out_total) *out_total = 0;
    if (!out_written) return entry.null("out_written");
    *out_written = 0;
    if (!scene) return entry.null("scene");
    if (!shape) return entry.null(shape_name);
    if (!buffer && capacity != 0) return entry.null("buffer");
    hitscan::capi::FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = hitscan::capi::to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    std::vector<hitscan::OverlapHit> hits;
    query(scene->scene, hits, query_options);
    const std::size_t written = std::min(hits.size(), capacity);
    std::transform(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(written), buffer,
                   hitscan::capi::to_hs_overlap_hit);
    *out_written = written;
    if (out_total) *out_total = hits.size();
    return HS_OK;
  });
}

}  // namespace

extern "C" {

hs_status hs_overlap_sphere(const hs_scene* scene, const hs_sphere* sphere, const hs_query_options* options,
                            hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total) {
  return overlap(Entry{__func__}, scene, sphere, "sphere", options, buffer, capacity, out_written, out_total,
                 [&](const hitscan::Scene& s, std::vector<hitscan::OverlapHit>& hits, const hitscan::QueryOptions& o) {
                   s.overlap_sphere(hitscan::capi::to_sphere(*sphere), hits, o);
                 });
}

hs_status hs_overlap_box(const hs_scene* scene, const hs_box* box, const hs_query_options* options,
                         hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total) {
  return overlap(Entry{__func__}, scene, box, "box", options, buffer, capacity, out_written, out_total,
                 [&](const hitscan::Scene& s, std::vector<hitscan::OverlapHit>& hits, const hitscan::QueryOptions& o) {
                   s.overlap_box(hitscan::capi::to_query_box(*box), hits, o);
                 });
}

hs_status hs_overlap_capsule(const hs_scene* scene, const hs_capsule* capsule, const hs_query_options* options,
                             hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total) {
  return overlap(Entry{__func__}, scene, capsule, "capsule", options, buffer, capacity, out_written, out_total,
                 [&](const hitscan::Scene& s, std::vector<hitscan::OverlapHit>& hits, const hitscan::QueryOptions& o) {
                   s.overlap_capsule(hitscan::capi::to_capsule(*capsule), hits, o);
                 });
}

}  // extern "C"
