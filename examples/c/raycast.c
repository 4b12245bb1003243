/* The C API in one page: a level with a mesh floor, a crate and two players, and a shot from one
 * player's muzzle that ignores its own hitbox ("what did I hit?"), a rocket swept along the same
 * aim, then every surface the shot passes through. Built and run by the tests; it exits non-zero if an answer is not the expected one. */

#include <stdio.h>

#include "hitscan/hitscan.h"

enum { LAYER_WORLD = 0, LAYER_PLAYERS = 1 };

/* The filter skips the shooter's own collider, whose user id the context points to. */
static int not_the_shooter(uint32_t collider, uint64_t user_id, uint32_t layer, void* context) {
  (void)collider;
  (void)layer;
  return user_id != *(const uint64_t*)context;
}

static int report(hs_status status) {
  if (status != HS_OK) fprintf(stderr, "%s: %s\n", hs_status_name(status), hs_last_error());
  return status == HS_OK;
}

int main(void) {
  /* A 40 m square floor at y = 0, two triangles wound counter-clockwise seen from above. */
  static const float floor_positions[] = {-20, 0, -20, 20, 0, -20, 20, 0, 20, -20, 0, 20};
  static const uint32_t floor_indices[] = {0, 2, 1, 0, 3, 2};
  const uint64_t shooter = 1, target = 2;
  hs_scene* scene = NULL;
  hs_transform at = hs_transform_default();
  hs_shape crate = hs_shape_default(HS_SHAPE_BOX);
  hs_shape player = hs_shape_default(HS_SHAPE_CAPSULE);
  hs_ray shot = hs_ray_default();
  hs_sphere_sweep rocket;
  hs_query_options options = hs_query_options_default();
  hs_hit hit, crossings[8];
  size_t written = 0, total = 0, i;
  uint32_t floor_id, crate_id, shooter_id, target_id;
  int ok = 1;

  if (!report(hs_scene_create(&scene))) return 1;
  ok &= report(hs_scene_add_mesh(scene, floor_positions, 4, floor_indices, 2, NULL, LAYER_WORLD, 100, &floor_id));
  crate.data.box.half_extents.x = crate.data.box.half_extents.y = crate.data.box.half_extents.z = 0.5f;
  at.translation.y = 0.5f;
  at.translation.z = 6;
  ok &= report(hs_scene_add_shape(scene, &crate, &at, LAYER_WORLD, 101, &crate_id));
  /* Players: capsules 1.8 m tall standing on the floor. */
  player.data.capsule.a.z = player.data.capsule.b.z = 0;
  player.data.capsule.a.y = 0.3f;
  player.data.capsule.b.y = 1.5f;
  player.data.capsule.radius = 0.3f;
  at.translation.z = 0;
  at.translation.y = 0;
  ok &= report(hs_scene_add_shape(scene, &player, &at, LAYER_PLAYERS, shooter, &shooter_id));
  at.translation.z = 10;
  ok &= report(hs_scene_add_shape(scene, &player, &at, LAYER_PLAYERS, target, &target_id));
  ok &= report(hs_scene_commit(scene));
  if (!ok) return 1;

  /* From the shooter's eyes (inside its own capsule) towards the target's chest, 100 m range. */
  shot.origin.y = 1.6f;
  shot.direction.y = -0.03f;
  shot.direction.z = 1;
  shot.max_distance = 100;
  options.filter = not_the_shooter;
  options.filter_context = (void*)&shooter;

  /* Aimed high enough to clear the crate (its top is at 1 m, 6 m ahead): the target is hit. */
  if (!report(hs_raycast(scene, &shot, &options, &hit))) return 1;
  printf("shot: %s, user %llu at %.2f m, normal (%.2f, %.2f, %.2f)\n", hit.hit ? "hit" : "miss",
         (unsigned long long)hit.user_id, hit.distance, hit.normal.x, hit.normal.y, hit.normal.z);
  ok &= hit.hit && hit.collider == target_id;

  /* Lower the aim: the crate is in the way. */
  shot.direction.y = -0.1f;
  if (!report(hs_raycast(scene, &shot, &options, &hit))) return 1;
  printf("low shot: stopped by %s at %.2f m\n", hit.collider == crate_id ? "the crate" : "something else", hit.distance);
  ok &= hit.hit && hit.collider == crate_id;

  /* A rocket of radius 0.5 along the high aim: the thin shot cleared the crate, the rocket clips
   * its front top edge. */
  rocket = hs_sphere_sweep_default();
  rocket.sphere.center = shot.origin;
  rocket.sphere.radius = 0.5f;
  rocket.direction = shot.direction;
  rocket.direction.y = -0.03f;
  rocket.max_distance = shot.max_distance;
  if (!report(hs_sphere_cast(scene, &rocket, &options, &hit))) return 1;
  printf("rocket: %s after %.2f m\n", hit.collider == crate_id ? "hits the crate" : "hits something else", hit.distance);
  ok &= hit.hit && hit.collider == crate_id;

  /* A penetrating shot: every surface it crosses, nearest first. */
  if (!report(hs_raycast_all(scene, &shot, &options, crossings, 8, &written, &total))) return 1;
  for (i = 0; i < written; ++i) {
    printf("  %s user %llu at %.2f m\n", crossings[i].flags & HS_HIT_EXIT ? "leaves" : "enters",
           (unsigned long long)crossings[i].user_id, crossings[i].distance);
  }
  /* Into the crate's top and out of its back, through the target, then into the floor. */
  ok &= total == 5 && crossings[0].collider == crate_id && crossings[1].collider == crate_id &&
        crossings[2].collider == target_id && crossings[3].collider == target_id && crossings[4].collider == floor_id;

  /* Errors are codes with a message, never crashes: the target is removed, its id goes stale. */
  ok &= report(hs_scene_remove(scene, target_id));
  if (hs_scene_remove(scene, target_id) == HS_NOT_FOUND) printf("as expected: %s\n", hs_last_error());
  else ok = 0;

  hs_scene_destroy(scene);
  return ok ? 0 : 1;
}
