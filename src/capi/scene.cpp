// Scenes: creating, destroying, and the edits that hs_scene_commit makes visible.

#include <utility>

#include "convert.hpp"
#include "handles.hpp"

using hitscan::capi::Entry;
using hitscan::capi::to_shape;
using hitscan::capi::to_transform;

extern "C" {

hs_status hs_scene_create(hs_scene** out_scene) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_scene) return entry.null("out_scene");
    *out_scene = nullptr;
    *out_scene = new hs_scene{};
    return HS_OK;
  });
}

void hs_scene_destroy(hs_scene* scene) { delete scene; }

hs_status hs_scene_add_shape(hs_scene* scene, const hs_shape* shape, const hs_transform* transform, uint32_t layer,
                             uint64_t user_id, uint32_t* out_id) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_id) return entry.null("out_id");
    *out_id = HS_NO_COLLIDER;
    if (!scene) return entry.null("scene");
    if (!shape) return entry.null("shape");
    hitscan::ColliderDesc desc;
    if (const hs_status s = to_shape(entry, *shape, desc.shape); s != HS_OK) return s;
    if (const hs_status s = to_transform(entry, transform, desc.transform); s != HS_OK) return s;
    desc.layer = layer;
    desc.user_id = user_id;
    hitscan::Result<hitscan::ColliderId> id = scene->scene.add(std::move(desc));
    if (!id) return entry.check(id.status());
    *out_id = id.value();
    return HS_OK;
  });
}

hs_status hs_scene_remove(hs_scene* scene, uint32_t id) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    return entry.check(scene->scene.remove(id));
  });
}

hs_status hs_scene_set_transform(hs_scene* scene, uint32_t id, const hs_transform* transform) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    if (!transform) return entry.null("transform");
    hitscan::Transformf t;
    if (const hs_status s = to_transform(entry, transform, t); s != HS_OK) return s;
    return entry.check(scene->scene.set_transform(id, t));
  });
}

hs_status hs_scene_set_shape(hs_scene* scene, uint32_t id, const hs_shape* shape) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    if (!shape) return entry.null("shape");
    hitscan::ColliderShape local;
    if (const hs_status s = to_shape(entry, *shape, local); s != HS_OK) return s;
    return entry.check(scene->scene.set_shape(id, std::move(local)));
  });
}

hs_status hs_scene_set_layer(hs_scene* scene, uint32_t id, uint32_t layer) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    return entry.check(scene->scene.set_layer(id, layer));
  });
}

hs_status hs_scene_set_user_id(hs_scene* scene, uint32_t id, uint64_t user_id) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    return entry.check(scene->scene.set_user_id(id, user_id));
  });
}

hs_status hs_scene_reserve(hs_scene* scene, size_t colliders) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    return entry.check(scene->scene.reserve(colliders));
  });
}

hs_status hs_scene_commit(hs_scene* scene) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!scene) return entry.null("scene");
    scene->scene.commit();
    return HS_OK;
  });
}

}  // extern "C"
