// hs_closest_point: a validated call of Scene::closest_point.

#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;

extern "C" {

hs_status hs_closest_point(const hs_scene* scene, hs_vec3 point, const hs_query_options* options, hs_hit* out_hit) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_hit) return entry.null("out_hit");
    *out_hit = hs_hit_default();
    if (!scene) return entry.null("scene");
    hitscan::capi::FilterBridge bridge;
    hitscan::QueryOptions query_options;
    if (const hs_status s = hitscan::capi::to_options(entry, options, bridge, query_options); s != HS_OK) return s;
    *out_hit = hitscan::capi::to_hs_hit(scene->scene.closest_point(hitscan::capi::to_vec3(point), query_options));
    return HS_OK;
  });
}

}  // extern "C"
