/* The same sphere and ray as main.cpp through the C API, as a C program outside hitscan's tree
 * links it: through CMake's hitscan::c, or through `pkg-config --cflags --libs hitscan_c`.
 * Exits 0 when the hit is the one worked out by hand. */

#include <math.h>
#include <stdio.h>

#include "hitscan/hitscan.h"

int main(void) {
  hs_scene* scene = NULL;
  hs_shape sphere = hs_shape_default(HS_SHAPE_SPHERE);
  hs_transform placed = hs_transform_default();
  hs_ray ray = hs_ray_default();
  hs_hit hit = hs_hit_default();
  uint32_t id = 0;
  int right;

  /* Radius 1.5 at (1, 2, 3), moved 7 along z: centre (1, 2, 10). */
  sphere.data.sphere.center.x = 1;
  sphere.data.sphere.center.y = 2;
  sphere.data.sphere.center.z = 3;
  sphere.data.sphere.radius = 1.5f;
  placed.translation.z = 7;
  if (hs_scene_create(&scene) != HS_OK || hs_scene_add_shape(scene, &sphere, &placed, 0, 42, &id) != HS_OK ||
      hs_scene_commit(scene) != HS_OK) {
    fprintf(stderr, "setup failed: %s\n", hs_last_error());
    return 1;
  }
  /* 0.9 off the centre line along +z: (z - 10)^2 = 1.5^2 - 0.9^2 = 1.44, so z = 8.8, normal (0, 0.6, -0.8). */
  ray.origin.x = 1;
  ray.origin.y = 2.9f;
  ray.direction.z = 2;
  if (hs_raycast(scene, &ray, NULL, &hit) != HS_OK) {
    fprintf(stderr, "hs_raycast failed: %s\n", hs_last_error());
    return 1;
  }
  printf("hit %d, user %llu, distance %.6f, normal (%.6f, %.6f, %.6f)\n", hit.hit, (unsigned long long)hit.user_id,
         hit.distance, hit.normal.x, hit.normal.y, hit.normal.z);
  right = hit.hit && hit.collider == id && hit.user_id == 42 && fabsf(hit.distance - 8.8f) < 1e-5f &&
          fabsf(hit.normal.x) < 1e-5f && fabsf(hit.normal.y - 0.6f) < 1e-5f && fabsf(hit.normal.z + 0.8f) < 1e-5f;
  hs_scene_destroy(scene);
  return right ? 0 : 1;
}
