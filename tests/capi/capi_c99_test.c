/* The C API from C: hitscan.h compiles as strict C99 (this file is built with -std=c99 -pedantic
 * -Werror), and a small scene answers as expected. The C++ test (capi_test.cpp) compares the C API
 * with the C++ scene in depth; this one pins that C callers get the same behaviour. */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hitscan/hitscan.h"

static int failures = 0;

#define CHECK(condition)                                                           \
  do {                                                                             \
    if (!(condition)) {                                                            \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

#define CHECK_OK(call) CHECK((call) == HS_OK)

static int near(float a, float b) { return fabsf(a - b) <= 1e-4f * (1.0f + fabsf(b)); }

static hs_vec3 vec3(float x, float y, float z) {
  hs_vec3 v;
  v.x = x;
  v.y = y;
  v.z = z;
  return v;
}

static int same_vec3(hs_vec3 a, hs_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int same_hit(const hs_hit* a, const hs_hit* b) {
  return a->hit == b->hit && a->flags == b->flags && a->feature == b->feature && a->distance == b->distance &&
         same_vec3(a->point, b->point) && same_vec3(a->normal, b->normal) &&
         same_vec3(a->face_normal, b->face_normal) && a->collider == b->collider && a->user_id == b->user_id &&
         a->primitive == b->primitive && a->u == b->u && a->v == b->v && a->depth == b->depth;
}

static hs_ray ray_along(hs_vec3 origin, hs_vec3 direction) {
  hs_ray ray = hs_ray_default();
  ray.origin = origin;
  ray.direction = direction;
  return ray;
}

/* Accepts every collider whose user id differs from *(uint64_t*)context. */
static int skip_user(uint32_t collider, uint64_t user_id, uint32_t layer, void* context) {
  (void)collider;
  (void)layer;
  return user_id != *(const uint64_t*)context;
}

static int callback_calls = 0;
static hs_status callback_status = HS_OK;

static void count_errors(hs_status status, const char* message, void* user) {
  ++*(int*)user;
  callback_status = status;
  CHECK(strcmp(message, hs_last_error()) == 0);
}

/* Defaults are those of the C++ types. */
static void test_defaults(void) {
  const hs_transform t = hs_transform_default();
  const hs_ray r = hs_ray_default();
  const hs_hit h = hs_hit_default();
  const hs_query_options o = hs_query_options_default();
  const hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  const hs_shape polygon = hs_shape_default(HS_SHAPE_CONVEX_POLYGON);
  const hs_overlap_hit nothing = hs_overlap_hit_default();
  const hs_sphere_sweep sphere_sweep = hs_sphere_sweep_default();
  const hs_capsule_sweep capsule_sweep = hs_capsule_sweep_default();
  const hs_box_sweep box_sweep = hs_box_sweep_default();
  const hs_shape hull = hs_shape_default(HS_SHAPE_CONVEX_HULL);
  CHECK(t.rotation.w == 1 && t.rotation.x == 0 && t.scale.x == 1 && t.scale.z == 1 && t.translation.y == 0);
  CHECK(r.direction.z == 1 && isinf(r.max_distance));
  CHECK(!h.hit && isinf(h.distance) && h.collider == HS_NO_COLLIDER && h.primitive == HS_NO_PRIMITIVE && h.depth == 0);
  CHECK(o.layer_mask == HS_ALL_LAYERS && isinf(o.max_distance) && o.faces == HS_FACES_BOTH && o.solid && !o.contacts &&
        !o.filter);
  CHECK(box.type == HS_SHAPE_BOX && box.data.box.half_extents.y == 1 && box.data.box.rotation.w == 1);
  CHECK(polygon.type == HS_SHAPE_CONVEX_POLYGON && polygon.data.convex_polygon.vertices == NULL);
  CHECK(nothing.collider == HS_NO_COLLIDER && nothing.primitive == HS_NO_PRIMITIVE && !nothing.has_contact);
  CHECK(sphere_sweep.sphere.radius == 1 && sphere_sweep.direction.z == 1 && isinf(sphere_sweep.max_distance));
  CHECK(capsule_sweep.capsule.b.z == 1 && capsule_sweep.direction.z == 1 && isinf(capsule_sweep.max_distance));
  CHECK(box_sweep.box.half_extents.x == 1 && box_sweep.box.rotation.w == 1 && box_sweep.direction.z == 1 &&
        isinf(box_sweep.max_distance));
  CHECK(hull.type == HS_SHAPE_CONVEX_HULL && hull.data.convex_hull.points == NULL && hull.data.convex_hull.point_count == 0);
  CHECK(hs_shape_default((hs_shape_type)99).type == HS_SHAPE_SPHERE);
  CHECK(strcmp(hs_status_name(HS_NOT_FOUND), "HS_NOT_FOUND") == 0);
  CHECK(strcmp(hs_status_name((hs_status)99), "HS_UNKNOWN") == 0);
}

/* A floor mesh at y = 0, a box, a sphere on layer 1 and a square polygon, queried every way. */
static void test_scene(void) {
  static const float floor_positions[] = {-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10};
  static const uint32_t floor_indices[] = {0, 2, 1, 0, 3, 2}; /* counter-clockwise from above */
  hs_scene* scene = NULL;
  hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  hs_shape sphere = hs_shape_default(HS_SHAPE_SPHERE);
  hs_shape square = hs_shape_default(HS_SHAPE_CONVEX_POLYGON);
  const hs_vec3 corners[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  hs_transform placed = hs_transform_default();
  uint32_t floor_id, box_id, sphere_id, square_id;
  hs_query_options options = hs_query_options_default();
  hs_hit hit, all[8];
  hs_ray rays[3];
  hs_hit batch[3];
  uint8_t any_batch[3];
  size_t written = 0, total = 0;
  int any = -1;
  uint64_t skipped = 30;

  CHECK_OK(hs_scene_create(&scene));
  CHECK_OK(hs_scene_add_mesh(scene, floor_positions, 4, floor_indices, 2, NULL, 0, 10, &floor_id));
  placed.translation = vec3(0, 1, 5); /* a unit box resting on the floor, 5 ahead */
  CHECK_OK(hs_scene_add_shape(scene, &box, &placed, 0, 20, &box_id));
  placed.translation = vec3(0, 1, -5);
  sphere.data.sphere.radius = 0.5f;
  CHECK_OK(hs_scene_add_shape(scene, &sphere, &placed, 1, 30, &sphere_id));
  square.data.convex_polygon.vertices = corners;
  square.data.convex_polygon.vertex_count = 4;
  placed.translation = vec3(5, 1, 0);
  placed.rotation.w = 0.70710678f; /* a quarter turn about y: the square faces +x */
  placed.rotation.y = 0.70710678f;
  CHECK_OK(hs_scene_add_shape(scene, &square, &placed, 2, 40, &square_id));

  /* Nothing is visible before the commit. */
  rays[0] = ray_along(vec3(0, 1, 0), vec3(0, 0, 2)); /* towards the box; the length does not matter */
  CHECK_OK(hs_raycast(scene, &rays[0], NULL, &hit));
  CHECK(!hit.hit);
  CHECK_OK(hs_scene_commit(scene));

  CHECK_OK(hs_raycast(scene, &rays[0], NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && hit.user_id == 20 && near(hit.distance, 4));
  CHECK(near(hit.point.z, 4) && near(hit.normal.z, -1) && near(hit.face_normal.z, -1));
  CHECK(hit.primitive == HS_NO_PRIMITIVE && hit.feature == HS_FEATURE_FACE && hit.flags == 0);

  /* Straight down onto the floor mesh: triangle 0 or 1, with barycentrics. */
  rays[1] = ray_along(vec3(2, 3, -3), vec3(0, -1, 0));
  CHECK_OK(hs_raycast(scene, &rays[1], NULL, &hit));
  CHECK(hit.hit && hit.collider == floor_id && near(hit.distance, 3) && hit.primitive <= 1 && near(hit.normal.y, 1));
  CHECK(hit.u >= 0 && hit.v >= 0 && hit.u + hit.v <= 1);

  /* Layer mask and filter hide the sphere; the distance limit stops short of the box. */
  rays[2] = ray_along(vec3(0, 1, 0), vec3(0, 0, -1));
  CHECK_OK(hs_raycast(scene, &rays[2], NULL, &hit));
  CHECK(hit.hit && hit.collider == sphere_id && near(hit.distance, 4.5f));
  options.layer_mask = ~(1u << 1);
  CHECK_OK(hs_raycast(scene, &rays[2], &options, &hit));
  CHECK(!hit.hit);
  options = hs_query_options_default();
  options.filter = skip_user;
  options.filter_context = &skipped;
  CHECK_OK(hs_raycast_any(scene, &rays[2], &options, &any));
  CHECK(any == 0);
  options = hs_query_options_default();
  options.max_distance = 3.5f;
  CHECK_OK(hs_raycast_any(scene, &rays[0], &options, &any));
  CHECK(any == 0);

  /* The polygon is one-sided under a face mode: from +x it is seen from the front. */
  rays[0] = ray_along(vec3(8, 1, 0), vec3(-1, 0, 0));
  options = hs_query_options_default();
  options.faces = HS_FACES_BACK_ONLY;
  CHECK_OK(hs_raycast(scene, &rays[0], &options, &hit));
  CHECK(!hit.hit);
  options.faces = HS_FACES_FRONT_ONLY;
  CHECK_OK(hs_raycast(scene, &rays[0], &options, &hit));
  CHECK(hit.hit && hit.collider == square_id && near(hit.distance, 3) && !(hit.flags & HS_HIT_BACK_FACE));

  /* Through the box: entry then exit, sorted; a buffer of one keeps the entry and counts both. */
  rays[0] = ray_along(vec3(0, 1, 0), vec3(0, 0, 1));
  CHECK_OK(hs_raycast_all(scene, &rays[0], NULL, all, 8, &written, &total));
  CHECK(written == 2 && total == 2);
  CHECK(all[0].collider == box_id && near(all[0].distance, 4) && !(all[0].flags & HS_HIT_EXIT));
  CHECK(all[1].collider == box_id && near(all[1].distance, 6) && (all[1].flags & HS_HIT_EXIT));
  CHECK_OK(hs_raycast_all(scene, &rays[0], NULL, all, 1, &written, &total));
  CHECK(written == 1 && total == 2 && near(all[0].distance, 4));
  CHECK_OK(hs_raycast_all(scene, &rays[0], NULL, NULL, 0, &written, NULL));
  CHECK(written == 0);

  /* Starting inside the box: at 0 when solid, at the exit when not. */
  rays[0] = ray_along(vec3(0, 1, 5), vec3(0, 0, 1));
  CHECK_OK(hs_raycast(scene, &rays[0], NULL, &hit));
  CHECK(hit.hit && hit.distance == 0 && (hit.flags & HS_HIT_STARTED_INSIDE));
  options = hs_query_options_default();
  options.solid = 0;
  CHECK_OK(hs_raycast(scene, &rays[0], &options, &hit));
  CHECK(hit.hit && near(hit.distance, 1) && (hit.flags & HS_HIT_EXIT));

  /* Batches equal one at a time. */
  rays[0] = ray_along(vec3(0, 1, 0), vec3(0, 0, 1));
  CHECK_OK(hs_raycast_batch(scene, rays, 3, NULL, batch));
  CHECK_OK(hs_raycast_any_batch(scene, rays, 3, NULL, any_batch));
  {
    int i;
    for (i = 0; i < 3; ++i) {
      CHECK_OK(hs_raycast(scene, &rays[i], NULL, &hit));
      CHECK(same_hit(&hit, &batch[i]));
      CHECK(any_batch[i] == hit.hit);
    }
  }

  /* Edits: move the box away, remove the sphere; the old sphere id goes stale. */
  placed = hs_transform_default();
  placed.translation = vec3(0, 1, 50);
  CHECK_OK(hs_scene_set_transform(scene, box_id, &placed));
  CHECK_OK(hs_scene_set_user_id(scene, box_id, 21));
  CHECK_OK(hs_scene_set_layer(scene, box_id, 3));
  CHECK_OK(hs_scene_remove(scene, sphere_id));
  CHECK_OK(hs_scene_commit(scene));
  CHECK_OK(hs_raycast(scene, &rays[0], NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && hit.user_id == 21 && near(hit.distance, 49));
  CHECK_OK(hs_raycast(scene, &rays[2], NULL, &hit));
  CHECK(!hit.hit);
  CHECK(hs_scene_remove(scene, sphere_id) == HS_NOT_FOUND);
  CHECK(strstr(hs_last_error(), "hs_scene_remove") != NULL);

  hs_scene_destroy(scene);
}

/* A unit box at the origin and a unit sphere at x = 5: overlaps and closest points from C. */
static void test_overlaps_and_closest_points(void) {
  hs_scene* scene = NULL;
  const hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  const hs_shape sphere = hs_shape_default(HS_SHAPE_SPHERE);
  hs_transform placed = hs_transform_default();
  hs_query_options options = hs_query_options_default();
  hs_overlap_hit touched[4];
  hs_sphere query_sphere;
  hs_box query_box;
  hs_capsule query_capsule;
  hs_hit hit;
  size_t written = 0, total = 0;
  uint32_t box_id, sphere_id;

  CHECK_OK(hs_scene_create(&scene));
  CHECK_OK(hs_scene_add_shape(scene, &box, NULL, 0, 1, &box_id));
  placed.translation = vec3(5, 0, 0);
  CHECK_OK(hs_scene_add_shape(scene, &sphere, &placed, 0, 2, &sphere_id));
  CHECK_OK(hs_scene_commit(scene));
  CHECK(options.contacts == 0);
  options.contacts = 1;

  /* A sphere of radius 1.6 at x = 2.5 reaches 0.1 into both. */
  query_sphere.center = vec3(2.5f, 0, 0);
  query_sphere.radius = 1.6f;
  CHECK_OK(hs_overlap_sphere(scene, &query_sphere, &options, touched, 4, &written, &total));
  CHECK(written == 2 && total == 2 && touched[0].collider == box_id && touched[1].collider == sphere_id);
  CHECK(touched[0].has_contact && near(touched[0].contact.depth, 0.1f) && near(touched[0].contact.normal.x, 1));
  CHECK(near(touched[1].contact.point_on_b.x, 4) && near(touched[1].contact.normal.x, -1));

  /* A half-size cube 1.25 up: a quarter into the box's top; no contact asked for. */
  query_box.center = vec3(0, 0, 1.25f);
  query_box.half_extents = vec3(0.5f, 0.5f, 0.5f);
  query_box.rotation = hs_quat_default();
  CHECK_OK(hs_overlap_box(scene, &query_box, NULL, touched, 4, &written, NULL));
  CHECK(written == 1 && touched[0].collider == box_id && !touched[0].has_contact);

  /* A capsule lying across the top, a quarter deep; a buffer of none still counts it. */
  query_capsule.a = vec3(-3, 0, 1.25f);
  query_capsule.b = vec3(3, 0, 1.25f);
  query_capsule.radius = 0.5f;
  CHECK_OK(hs_overlap_capsule(scene, &query_capsule, &options, NULL, 0, &written, &total));
  CHECK(written == 0 && total == 1);

  /* Closest points: the box's top face 2 below (0, 3, 0); nothing within 1.5. */
  CHECK_OK(hs_closest_point(scene, vec3(0, 3, 0), NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && near(hit.distance, 2) && near(hit.point.y, 1) && near(hit.normal.y, 1));
  options = hs_query_options_default();
  options.max_distance = 1.5f;
  CHECK_OK(hs_closest_point(scene, vec3(0, 3, 0), &options, &hit));
  CHECK(!hit.hit && hit.collider == HS_NO_COLLIDER);

  /* Bad input: a NaN query shape touches nothing, a null buffer with room is an error. */
  query_sphere.radius = NAN;
  CHECK_OK(hs_overlap_sphere(scene, &query_sphere, NULL, touched, 4, &written, &total));
  CHECK(written == 0 && total == 0);
  CHECK(hs_overlap_sphere(scene, &query_sphere, NULL, NULL, 4, &written, &total) == HS_INVALID_ARGUMENT);
  CHECK(hs_closest_point(NULL, vec3(0, 0, 0), NULL, &hit) == HS_INVALID_ARGUMENT && !hit.hit);

  hs_scene_destroy(scene);
}

/* Sweeps from C: a sphere and a capsule dropped onto a unit box, one at a time and batched. */
static void test_sweeps(void) {
  hs_scene* scene = NULL;
  const hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  hs_sphere_sweep sweeps[2];
  hs_capsule_sweep capsule = hs_capsule_sweep_default();
  hs_box_sweep falling_box = hs_box_sweep_default();
  hs_shape hull = hs_shape_default(HS_SHAPE_CONVEX_HULL);
  const hs_vec3 tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  hs_transform beside = hs_transform_default();
  hs_hit hit, batch[2];
  uint32_t box_id, hull_id;

  CHECK_OK(hs_scene_create(&scene));
  CHECK_OK(hs_scene_add_shape(scene, &box, NULL, 0, 1, &box_id));
  CHECK_OK(hs_scene_commit(scene));

  /* Radius 0.5 from 5 up, falling: it meets the top face after 3.5. */
  sweeps[0] = hs_sphere_sweep_default();
  sweeps[0].sphere.center = vec3(0, 0, 5);
  sweeps[0].sphere.radius = 0.5f;
  sweeps[0].direction = vec3(0, 0, -2);
  CHECK_OK(hs_sphere_cast(scene, &sweeps[0], NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && near(hit.distance, 3.5f) && near(hit.point.z, 1) && near(hit.normal.z, 1));
  CHECK(hit.depth == 0 && hit.flags == 0);

  /* Starting a quarter into the top face: distance 0, and the depth. */
  sweeps[1] = sweeps[0];
  sweeps[1].sphere.center.z = 1.25f;
  CHECK_OK(hs_sphere_cast(scene, &sweeps[1], NULL, &hit));
  CHECK(hit.hit && hit.distance == 0 && (hit.flags & HS_HIT_STARTED_INSIDE) && near(hit.depth, 0.25f));

  /* The batch equals one at a time. */
  CHECK_OK(hs_sphere_cast_batch(scene, sweeps, 2, NULL, batch));
  CHECK_OK(hs_sphere_cast(scene, &sweeps[0], NULL, &hit));
  CHECK(same_hit(&hit, &batch[0]));
  CHECK(batch[1].hit && batch[1].distance == 0);

  /* A capsule standing from 4 to 6, radius 0.5: its bottom meets the top face after 2.5. */
  capsule.capsule.a = vec3(0, 0, 4);
  capsule.capsule.b = vec3(0, 0, 6);
  capsule.capsule.radius = 0.5f;
  capsule.direction = vec3(0, 0, -1);
  CHECK_OK(hs_capsule_cast(scene, &capsule, NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && near(hit.distance, 2.5f));

  /* A box of half extent 0.5 from 5 up, falling: its bottom meets the top face after 3.5. */
  falling_box.box.center = vec3(0, 0, 5);
  falling_box.box.half_extents = vec3(0.5f, 0.5f, 0.5f);
  falling_box.direction = vec3(0, 0, -1);
  CHECK_OK(hs_box_cast(scene, &falling_box, NULL, &hit));
  CHECK(hit.hit && hit.collider == box_id && near(hit.distance, 3.5f) && near(hit.normal.z, 1) && hit.flags == 0);

  /* A tetrahedron hull 10 along +x, met by the box moving along +x from 3: its face x = 10 after
   * 6.5. */
  hull.data.convex_hull.points = tetrahedron;
  hull.data.convex_hull.point_count = 4;
  beside.translation = vec3(10, 0, 0);
  CHECK_OK(hs_scene_add_shape(scene, &hull, &beside, 0, 2, &hull_id));
  CHECK_OK(hs_scene_commit(scene));
  falling_box.box.center = vec3(3, 0.25f, 0.25f);
  falling_box.box.half_extents = vec3(0.5f, 0.1f, 0.1f);
  falling_box.direction = vec3(1, 0, 0);
  CHECK_OK(hs_box_cast(scene, &falling_box, NULL, &hit));
  CHECK(hit.hit && hit.collider == hull_id && near(hit.distance, 6.5f) && near(hit.normal.x, -1));
  hull.data.convex_hull.point_count = 3; /* too few */
  CHECK(hs_scene_add_shape(scene, &hull, NULL, 0, 2, &hull_id) == HS_INVALID_ARGUMENT && hull_id == HS_NO_COLLIDER);
  CHECK(hs_box_cast(scene, NULL, NULL, &hit) == HS_INVALID_ARGUMENT && !hit.hit);

  /* A zero direction misses; a null sweep is an error. */
  capsule.direction = vec3(0, 0, 0);
  CHECK_OK(hs_capsule_cast(scene, &capsule, NULL, &hit));
  CHECK(!hit.hit);
  CHECK(hs_sphere_cast(scene, NULL, NULL, &hit) == HS_INVALID_ARGUMENT && !hit.hit);

  hs_scene_destroy(scene);
}

/* Failures return a code, set the message and call the callback; nothing crashes. */
static void test_errors(void) {
  static const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  static const uint32_t bad_indices[] = {0, 1, 3};
  hs_scene* scene = NULL;
  hs_mesh* mesh = (hs_mesh*)&callback_calls; /* any non-null value: a failure must reset it */
  hs_shape sphere = hs_shape_default(HS_SHAPE_SPHERE);
  hs_ray ray = hs_ray_default();
  hs_hit hit;
  uint32_t id = 0;
  hs_query_options options = hs_query_options_default();

  hs_set_error_callback(count_errors, &callback_calls);
  CHECK(hs_scene_create(NULL) == HS_INVALID_ARGUMENT);
  CHECK(callback_calls == 1 && callback_status == HS_INVALID_ARGUMENT);
  CHECK(strcmp(hs_last_error(), "hs_scene_create: out_scene is null") == 0);
  CHECK(hs_raycast(NULL, &ray, NULL, &hit) == HS_INVALID_ARGUMENT && !hit.hit);
  CHECK(hs_mesh_create(positions, 3, bad_indices, 1, &mesh) == HS_OUT_OF_RANGE && mesh == NULL);
  CHECK(hs_mesh_create(positions, 3, bad_indices, 0, &mesh) == HS_INVALID_ARGUMENT);
  CHECK(callback_calls == 4);
  hs_set_error_callback(NULL, NULL);

  CHECK_OK(hs_scene_create(&scene));
  sphere.data.sphere.radius = -1;
  CHECK(hs_scene_add_shape(scene, &sphere, NULL, 0, 0, &id) == HS_INVALID_ARGUMENT && id == HS_NO_COLLIDER);
  sphere.data.sphere.radius = NAN;
  CHECK(hs_scene_add_shape(scene, &sphere, NULL, 0, 0, &id) == HS_INVALID_ARGUMENT);
  sphere.type = (hs_shape_type)42;
  CHECK(hs_scene_add_shape(scene, &sphere, NULL, 0, 0, &id) == HS_INVALID_ARGUMENT);
  sphere = hs_shape_default(HS_SHAPE_SPHERE);
  CHECK(hs_scene_add_shape(scene, &sphere, NULL, HS_LAYER_COUNT, 0, &id) == HS_INVALID_ARGUMENT);
  CHECK_OK(hs_scene_add_shape(scene, &sphere, NULL, 0, 0, &id));
  CHECK(hs_scene_set_layer(scene, id + 1, 0) == HS_NOT_FOUND);
  CHECK_OK(hs_scene_commit(scene));

  /* A NaN ray is a miss, not an error; NaN options are an error. */
  ray.origin.x = NAN;
  CHECK_OK(hs_raycast(scene, &ray, NULL, &hit));
  CHECK(!hit.hit);
  ray = hs_ray_default();
  ray.origin.z = -5;
  options.max_distance = NAN;
  CHECK(hs_raycast(scene, &ray, &options, &hit) == HS_INVALID_ARGUMENT);
  CHECK_OK(hs_raycast(scene, &ray, NULL, &hit));
  CHECK(hit.hit && near(hit.distance, 4));
  CHECK(strstr(hs_last_error(), "max_distance") != NULL); /* success leaves the last message */
  hs_scene_destroy(scene);
  hs_scene_destroy(NULL);
  hs_mesh_destroy(NULL);
}

/* A batch in the background gives the synchronous batch's hits; a commit after its submission
 * waits for it, so it sees the box where it was, and the next batch sees the box moved. */
static void test_async_batches(void) {
  hs_scene* scene = NULL;
  const hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  hs_transform placed = hs_transform_default();
  hs_ray rays[3];
  hs_sphere_sweep sweeps[2];
  hs_hit sync_hits[3], async_hits[3];
  hs_batch* batch = NULL;
  int ready = -1, i;
  uint32_t box_id;

  CHECK_OK(hs_scene_create(&scene));
  CHECK_OK(hs_scene_add_shape(scene, &box, NULL, 0, 1, &box_id));
  CHECK_OK(hs_scene_commit(scene));
  rays[0] = ray_along(vec3(0, 0, -5), vec3(0, 0, 1));
  rays[1] = ray_along(vec3(3, 0, -5), vec3(0, 0, 1));
  rays[2] = ray_along(vec3(0, 0, -5), vec3(0, 0, -1));
  CHECK_OK(hs_raycast_batch(scene, rays, 3, NULL, sync_hits));
  CHECK_OK(hs_raycast_batch_async(scene, rays, 3, NULL, &batch));
  placed.translation = vec3(3, 0, 0);
  CHECK_OK(hs_scene_set_transform(scene, box_id, &placed));
  CHECK_OK(hs_scene_commit(scene));
  CHECK_OK(hs_batch_poll(batch, &ready));
  CHECK(ready == 0 || ready == 1);
  CHECK(hs_batch_wait(batch, async_hits, 2) == HS_OUT_OF_RANGE);
  CHECK_OK(hs_batch_wait(batch, async_hits, 3));
  for (i = 0; i < 3; ++i) CHECK(same_hit(&sync_hits[i], &async_hits[i]));
  CHECK(async_hits[0].hit && near(async_hits[0].distance, 4) && !async_hits[1].hit && !async_hits[2].hit);
  CHECK_OK(hs_batch_poll(batch, &ready));
  CHECK(ready == 1);
  hs_batch_destroy(batch);

  sweeps[0] = hs_sphere_sweep_default();
  sweeps[0].sphere.center = vec3(3, 0, -5);
  sweeps[0].sphere.radius = 0.5f;
  sweeps[1] = sweeps[0];
  sweeps[1].sphere.center = vec3(0, 0, -5);
  CHECK_OK(hs_sphere_cast_batch_async(scene, sweeps, 2, NULL, &batch));
  CHECK_OK(hs_batch_wait(batch, async_hits, 3));
  CHECK(async_hits[0].hit && async_hits[0].collider == box_id && near(async_hits[0].distance, 3.5f));
  CHECK(!async_hits[1].hit);
  hs_batch_destroy(batch);
  hs_batch_destroy(NULL);
  CHECK(hs_raycast_batch_async(scene, rays, 3, NULL, NULL) == HS_INVALID_ARGUMENT);
  hs_scene_destroy(scene);
}

/* HITSCAN_PROJECT_VERSION comes from CMake's project(), not from the library's headers. */
static void test_version(void) {
  const char* version = hs_version();
  CHECK(version != NULL && strcmp(version, HITSCAN_PROJECT_VERSION) == 0);
}

int main(void) {
  test_version();
  test_defaults();
  test_scene();
  test_overlaps_and_closest_points();
  test_sweeps();
  test_errors();
  test_async_batches();
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  return 0;
}
