// Sweeps: hs_sphere_cast, hs_capsule_cast, hs_box_cast and hs_sphere_cast_batch, each a validated
// call of the Scene query it names.

#include <span>

#include "batch.hpp"
#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;

namespace {

// The body of a single sweep; `query(scene, sweep, options)` runs the Scene's cast.
template <class CSweep, class Query>
hs_status cast(const Entry& entry, const hs_scene* scene, const CSweep* sweep, const hs_query_options* options,
               hs_hit* out_hit, Query query) {
  return entry.run([&] {
    if (!out_hit) return entry.null("out_hit");
    *out_hit = hs_hit_default();
    if (!scene) return entry.null("scene");
    if (!sweep) return entry.null("sweep");
    hitscan::capi::FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = hitscan::capi::to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    *out_hit = hitscan::capi::to_hs_hit(query(scene->scene, hitscan::capi::to_sweep(*sweep), query_options));
    return HS_OK;
  });
}

}  // namespace

extern "C" {

hs_status hs_sphere_cast(const hs_scene* scene, const hs_sphere_sweep* sweep, const hs_query_options* options,
                         hs_hit* out_hit) {
  return cast(Entry{__func__}, scene, sweep, options, out_hit,
              [](const hitscan::Scene& s, const hitscan::SphereSweep& w, const hitscan::QueryOptions& o) {
                return s.sphere_cast(w, o);
              });
}

hs_status hs_capsule_cast(const hs_scene* scene, const hs_capsule_sweep* sweep, const hs_query_options* options,
                          hs_hit* out_hit) {
  return cast(Entry{__func__}, scene, sweep, options, out_hit,
              [](const hitscan::Scene& s, const hitscan::CapsuleSweep& w, const hitscan::QueryOptions& o) {
                return s.capsule_cast(w, o);
              });
}

hs_status hs_box_cast(const hs_scene* scene, const hs_box_sweep* sweep, const hs_query_options* options,
                      hs_hit* out_hit) {
  return cast(Entry{__func__}, scene, sweep, options, out_hit,
              [](const hitscan::Scene& s, const hitscan::BoxSweep& w, const hitscan::QueryOptions& o) {
                return s.box_cast(w, o);
              });
}

hs_status hs_sphere_cast_batch(const hs_scene* scene, const hs_sphere_sweep* sweeps, size_t count,
                               const hs_query_options* options, hs_hit* out_hits) {
  const Entry entry{__func__};
  return entry.run([&] {
    return hitscan::capi::run_hit_batch(
        entry, scene, sweeps, "sweeps", count, options, out_hits,
        [](const hs_sphere_sweep& s) { return hitscan::capi::to_sweep(s); },
        [](const hitscan::Scene& s, std::span<const hitscan::SphereSweep> in, std::span<hitscan::QueryHit> out,
           const hitscan::QueryOptions& o) { return s.sphere_cast_batch(in, out, o); });
  });
}

}  // extern "C"
