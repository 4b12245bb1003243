#ifndef HITSCAN_HITSCAN_H
#define HITSCAN_HITSCAN_H
/*
 * hitscan's C API: scenes of colliders and the queries against them (rays, sphere, capsule and
 * box casts, overlaps, closest points), for C and for any language that calls C. Every name starts with hs_ or HS_; the scene and the shared mesh are opaque
 * handles; every other type is a plain struct with an hs_..._default() initialiser.
 *
 * Errors. Every function that can fail returns an hs_status. On failure it also records a
 * message for the calling thread (hs_last_error) and calls the error callback, if one is set
 * (hs_set_error_callback); every non-null output of a single value then holds its "nothing" value
 * (HS_NO_COLLIDER, a miss, 0, a null handle), and output arrays are left as they were. No C++
 * exception and no abort crosses this boundary: null pointers, bad counts, out-of-range indices
 * and stale ids are errors, and running out of memory is HS_OUT_OF_MEMORY. The library never
 * prints.
 *
 * Data as it comes. Query data that can hit nothing is a miss, not an error, so that one bad ray
 * does not fail a batch: a NaN or infinite origin, point or direction, a zero direction, a NaN or
 * negative ray or sweep max_distance, a query shape (overlap or sweep) with a NaN or infinite
 * value, a negative size or a zero box rotation. Descriptions that are stored (shapes, transforms,
 * meshes, layers) and query options are checked, and a NaN there is HS_INVALID_ARGUMENT.
 *
 * The working range. Coordinates lie within ±1e15, in any unit: a mesh, hull or polygon vertex
 * beyond it, or a collider whose world box reaches beyond it, is HS_INVALID_ARGUMENT; a ray origin,
 * a point, or a query shape's coordinate or size beyond it is a miss. Within it every query keeps
 * its answer from sizes of 1e-9 up (float's spacing at 1e15 is 1.3e8: far past any real use).
 *
 * Threads. Queries on a scene are safe from any number of threads at once. Edits (add, remove,
 * set_...) may run beside queries and become visible all at once at hs_scene_commit, which waits
 * for the queries under way; a batch counts as one query (one in the background from its
 * submission to its end). Filter callbacks run on the querying threads (several at once in a
 * batch) while the scene is held for reading: they must not edit, commit or destroy that scene,
 * and must not unwind (C++ exceptions, longjmp) through the library.
 *
 * Conventions. Right-handed, any unit; distances are world distances along the ray's normalised
 * direction. A transform maps a collider's local frame to the world: scale, then rotate, then
 * translate. Spheres, capsules, cylinders and rotated boxes take only a uniform scale; meshes,
 * planes, polygons, convex hulls and unrotated boxes take any non-zero scale, mirrors included.
 */

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define HS_API __attribute__((visibility("default")))
#else
#define HS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------------------------------- */

/* The version of the library in use, "<major>.<minor>.<patch>" (e.g. "0.1.0"). Never fails, never
 * null; the text is static and stays valid for the life of the process. */
HS_API const char* hs_version(void);

/* ---- status and errors ------------------------------------------------------------------------ */

typedef enum hs_status {
  HS_OK = 0,
  HS_INVALID_ARGUMENT = 1, /* a null pointer, a NaN, a negative radius, an unknown enum value, ... */
  HS_DEGENERATE = 2,       /* geometry with no area where some is required (a collinear polygon) */
  HS_NOT_FOUND = 3,        /* an id that names no collider: removed, stale or never issued */
  HS_OUT_OF_RANGE = 4,     /* a count or index beyond what is given or what can be held */
  HS_OUT_OF_MEMORY = 5,
  HS_INTERNAL = 6          /* a failure inside the library that the caller could not have caused */
} hs_status;

/* Short stable name of a status, e.g. "HS_NOT_FOUND"; "HS_UNKNOWN" for a value not listed. */
HS_API const char* hs_status_name(hs_status status);

/* The message of the calling thread's most recent failure, e.g. "hs_scene_remove: collider 7 does
 * not exist (removed, or never added)"; "" when no call has failed on this thread. Successful calls
 * leave it as it is. The text stays valid until the next failure on the same thread. */
HS_API const char* hs_last_error(void);

/* Called on every failure, on the failing thread (so possibly on several threads at once), after
 * hs_last_error has been updated. */
typedef void (*hs_error_callback)(hs_status status, const char* message, void* user);

/* Sets the process-wide error callback; a null callback removes it. */
HS_API void hs_set_error_callback(hs_error_callback callback, void* user);

/* ---- plain types -------------------------------------------------------------------------------- */

/* Colliders are named by 32-bit ids. A removed collider's id goes stale and is then HS_NOT_FOUND,
 * until its slot has been removed from 256 times and the id comes round again. */
#define HS_NO_COLLIDER 0xFFFFFFFFu
/* hs_hit.primitive of a hit on an analytic shape. */
#define HS_NO_PRIMITIVE 0xFFFFFFFFu
/* Layers are 0 .. HS_LAYER_COUNT - 1; a layer mask has bit i set to see layer i. */
#define HS_LAYER_COUNT 32u
#define HS_ALL_LAYERS 0xFFFFFFFFu

/* The all-zero value {0} is the zero vector. */
typedef struct hs_vec3 {
  float x, y, z;
} hs_vec3;

/* A rotation as a quaternion w + xi + yj + zk. It need not be unit length: the library normalises
 * it. A zero or non-finite quaternion is HS_INVALID_ARGUMENT. */
typedef struct hs_quat {
  float w, x, y, z;
} hs_quat;

/* The identity rotation {1, 0, 0, 0}. */
HS_API hs_quat hs_quat_default(void);

/* x_world = rotation * (scale * x_local) + translation. The scale must be finite and non-zero on
 * every axis. */
typedef struct hs_transform {
  hs_quat rotation;
  hs_vec3 translation;
  hs_vec3 scale;
} hs_transform;

/* The identity transform: no rotation, no translation, scale 1. */
HS_API hs_transform hs_transform_default(void);

/* A ray from origin along direction (any non-zero length; it is normalised), up to max_distance
 * (world units), which limits the query on top of hs_query_options.max_distance. */
typedef struct hs_ray {
  hs_vec3 origin;
  hs_vec3 direction;
  float max_distance;
} hs_ray;

/* From the origin along +z, without limit. */
HS_API hs_ray hs_ray_default(void);

/* hs_hit.flags */
#define HS_HIT_STARTED_INSIDE 0x1u /* the ray started inside a solid: distance 0 */
#define HS_HIT_BACK_FACE 0x2u      /* an open surface (triangle, plane, polygon) met from behind */
#define HS_HIT_EXIT 0x4u           /* where the ray leaves a solid (hs_raycast_all; solid = 0) */

/* Where on a primitive a hit lies: triangles report an edge or a vertex when the barycentrics put
 * the hit exactly there; analytic shapes report a face. */
typedef enum hs_feature { HS_FEATURE_FACE = 0, HS_FEATURE_EDGE = 1, HS_FEATURE_VERTEX = 2 } hs_feature;

/* One hit of a ray, a sweep or a closest-point query. A miss has hit = 0, distance = +inf,
 * collider = HS_NO_COLLIDER, primitive = HS_NO_PRIMITIVE and depth = 0. */
typedef struct hs_hit {
  int hit;            /* 1 for a hit, 0 for a miss */
  uint32_t flags;     /* HS_HIT_... bits */
  hs_feature feature;
  float distance;     /* world distance from the ray's origin, how far a sweep's shape travelled, or
                         (hs_closest_point) the distance from the query point */
  hs_vec3 point;      /* world point of the hit, on the collider */
  hs_vec3 normal;     /* unit contact normal, facing the query: against the ray or sweep direction,
                         towards the query point for hs_closest_point */
  hs_vec3 face_normal; /* unit normal of the surface: outward for solids, the front for open surfaces */
  uint32_t collider;  /* id of the collider hit */
  uint64_t user_id;   /* the collider's user id */
  uint32_t primitive; /* meshes: the triangle's index; HS_NO_PRIMITIVE for analytic shapes */
  float u, v;         /* meshes: barycentrics, point = (1 - u - v) v0 + u v1 + v v2 */
  float depth;        /* sweeps that start in contact (HS_HIT_STARTED_INSIDE): how deep the shapes
                         overlap at the start, along normal; 0 otherwise */
} hs_hit;

/* A miss. */
HS_API hs_hit hs_hit_default(void);

/* ---- shapes ------------------------------------------------------------------------------------- */

typedef enum hs_shape_type {
  HS_SHAPE_SPHERE = 0,
  HS_SHAPE_BOX = 1,
  HS_SHAPE_CAPSULE = 2,
  HS_SHAPE_CYLINDER = 3,
  HS_SHAPE_PLANE = 4,
  HS_SHAPE_CONVEX_POLYGON = 5,
  HS_SHAPE_CONVEX_HULL = 6
} hs_shape_type;

typedef struct hs_sphere {
  hs_vec3 center;
  float radius; /* >= 0 */
} hs_sphere;

/* The points center + rotation * p with |p.i| <= half_extents.i. */
typedef struct hs_box {
  hs_vec3 center;
  hs_vec3 half_extents; /* >= 0 */
  hs_quat rotation;
} hs_box;

/* The points within radius of the segment [a, b]. */
typedef struct hs_capsule {
  hs_vec3 a, b;
  float radius; /* >= 0 */
} hs_capsule;

/* The points within radius of the axis [a, b] whose projection on it falls within it. */
typedef struct hs_cylinder {
  hs_vec3 a, b;
  float radius; /* >= 0 */
} hs_cylinder;

/* The plane dot(normal, x) = offset; normal (any non-zero length) points to the front.
 * Planes are unbounded: they are tested by every ray that their layer lets through. */
typedef struct hs_plane {
  hs_vec3 normal;
  float offset;
} hs_plane;

/* A planar convex polygon of at least 3 vertices, counter-clockwise seen from the front. The
 * vertices are copied when the collider is added or changed. Fewer than 3 vertices, a null
 * `vertices`, a non-finite vertex, vertices off a common plane or a shape that is not convex are
 * HS_INVALID_ARGUMENT; repeated consecutive vertices or zero area are HS_DEGENERATE. */
typedef struct hs_convex_polygon {
  const hs_vec3* vertices;
  size_t vertex_count;
} hs_convex_polygon;

/* The convex hull of a point cloud, a solid (Quickhull; points inside it or on its faces are
 * dropped). The points are copied, and the hull built, when the collider is added or changed. A
 * null `points` with a non-zero count, fewer than 4 points, a non-finite point, or points with no
 * volume (all coincident, collinear or coplanar) are HS_INVALID_ARGUMENT; a count whose array
 * could not exist is HS_OUT_OF_RANGE. */
typedef struct hs_convex_hull {
  const hs_vec3* points;
  size_t point_count;
} hs_convex_hull;

/* A shape in its collider's local frame: `type` says which member of `data` holds it. */
typedef struct hs_shape {
  hs_shape_type type;
  union {
    hs_sphere sphere;
    hs_box box;
    hs_capsule capsule;
    hs_cylinder cylinder;
    hs_plane plane;
    hs_convex_polygon convex_polygon;
    hs_convex_hull convex_hull;
  } data;
} hs_shape;

/* A shape of the given type with the default size: a unit sphere at the origin; a box of half
 * extents 1, unrotated; a capsule and a cylinder of radius 1 from (0, 0, -1) to (0, 0, 1); the plane
 * z = 0 facing +z; a polygon or a hull with no points (set them before use). An unknown type gives
 * the unit sphere. */
HS_API hs_shape hs_shape_default(hs_shape_type type);

/* ---- query options ------------------------------------------------------------------------------ */

typedef enum hs_face_mode {
  HS_FACES_BOTH = 0,       /* open surfaces count from either side */
  HS_FACES_FRONT_ONLY = 1, /* only from the front */
  HS_FACES_BACK_ONLY = 2   /* only from behind */
} hs_face_mode;

/* Decides per collider whether a query sees it (after the layer mask): non-zero to accept. */
typedef int (*hs_filter_callback)(uint32_t collider, uint64_t user_id, uint32_t layer, void* context);

typedef struct hs_query_options {
  uint32_t layer_mask;  /* bit i set: colliders on layer i are seen */
  float max_distance;   /* world distance limit, >= 0 (+inf: none); NaN is HS_INVALID_ARGUMENT */
  hs_face_mode faces;   /* which faces of open surfaces (triangles, planes, polygons) count */
  int solid;            /* non-zero: a ray starting inside a solid hits at distance 0
                           (HS_HIT_STARTED_INSIDE); zero: solids are shells, it hits at the exit */
  int contacts;         /* overlap queries: non-zero also computes each touching collider's contact
                           (hs_overlap_hit.contact); zero decides touch alone, which is cheaper */
  hs_filter_callback filter; /* null: every collider the layer mask lets through */
  void* filter_context;      /* passed to filter */
} hs_query_options;

/* Every layer, no distance limit, both faces, solid, no contacts, no filter. Queries take a null
 * options pointer to mean these. */
HS_API hs_query_options hs_query_options_default(void);

/* ---- meshes ------------------------------------------------------------------------------------- */

/* A triangle mesh and its BVH, shareable by any number of colliders in any number of scenes. */
typedef struct hs_mesh hs_mesh;

/* Builds a mesh from vertex_count xyz triples in `positions` and triangle_count index triples in
 * `indices` (counter-clockwise seen from the front), and its BVH over all cores; the arrays are
 * copied. Fails with HS_INVALID_ARGUMENT for a null pointer, no triangles, or a NaN, infinite or
 * out-of-range (beyond ±1e15) coordinate on a vertex a triangle uses; HS_OUT_OF_RANGE for an index not below vertex_count or
 * counts whose arrays could not exist. Zero-area triangles are kept (indices stay those of the
 * input) but no ray hits them. */
HS_API hs_status hs_mesh_create(const float* positions, size_t vertex_count, const uint32_t* indices,
                                size_t triangle_count, hs_mesh** out_mesh);

/* Releases the caller's hold on the mesh; colliders using it keep it alive. Null is ignored. */
HS_API void hs_mesh_destroy(hs_mesh* mesh);

/* ---- scenes ------------------------------------------------------------------------------------- */

typedef struct hs_scene hs_scene;

/* An empty scene. */
HS_API hs_status hs_scene_create(hs_scene** out_scene);

/* Destroys the scene and its colliders. No query or edit may be under way on it, and no hs_batch
 * may remain on it (see "batches in the background"). Null is ignored. */
HS_API void hs_scene_destroy(hs_scene* scene);

/* Adds an analytic collider, visible after the next commit, and writes its id. A null transform is
 * the identity. Fails with HS_INVALID_ARGUMENT for a null scene, shape or out_id, an unknown shape
 * type, a layer above 31, a NaN, infinite or negative size, a transform that is not invertible
 * (a zero, NaN or infinite value) or scales an axis by less than 1e-15 in magnitude, a collider
 * reaching beyond ±1e15 (the working range), or
 * a scale the shape cannot take (non-uniform for spheres, capsules, cylinders and rotated boxes);
 * polygons and hulls also fail as hs_convex_polygon and hs_convex_hull say; HS_OUT_OF_RANGE when
 * the scene holds 2^24 - 1 colliders. */
HS_API hs_status hs_scene_add_shape(hs_scene* scene, const hs_shape* shape, const hs_transform* transform,
                                    uint32_t layer, uint64_t user_id, uint32_t* out_id);

/* Adds a collider that is an instance of a shared mesh, as hs_scene_add_shape does. */
HS_API hs_status hs_scene_add_mesh_instance(hs_scene* scene, const hs_mesh* mesh, const hs_transform* transform,
                                            uint32_t layer, uint64_t user_id, uint32_t* out_id);

/* hs_mesh_create and hs_scene_add_mesh_instance in one call, for a mesh used by one collider. */
HS_API hs_status hs_scene_add_mesh(hs_scene* scene, const float* positions, size_t vertex_count,
                                   const uint32_t* indices, size_t triangle_count, const hs_transform* transform,
                                   uint32_t layer, uint64_t user_id, uint32_t* out_id);

/* Removes a collider at the next commit; its id goes stale at once. HS_NOT_FOUND for an id that
 * names no collider. */
HS_API hs_status hs_scene_remove(hs_scene* scene, uint32_t id);

/* Change a collider at the next commit; the failures of hs_scene_add_shape, and HS_NOT_FOUND for an
 * id that names no collider. hs_scene_set_shape makes any collider, a mesh instance too, the given
 * analytic shape. */
HS_API hs_status hs_scene_set_transform(hs_scene* scene, uint32_t id, const hs_transform* transform);
HS_API hs_status hs_scene_set_shape(hs_scene* scene, uint32_t id, const hs_shape* shape);
HS_API hs_status hs_scene_set_layer(hs_scene* scene, uint32_t id, uint32_t layer);
HS_API hs_status hs_scene_set_user_id(hs_scene* scene, uint32_t id, uint64_t user_id);

/* Makes room for `colliders` colliders in all, so that adding up to that many and committing them
 * allocates once per array (optional; changes no answer). HS_OUT_OF_RANGE above 2^24. */
HS_API hs_status hs_scene_reserve(hs_scene* scene, size_t colliders);

/* Makes every change since the last commit visible to queries, all at once. */
HS_API hs_status hs_scene_commit(hs_scene* scene);

/* ---- ray queries ---------------------------------------------------------------------------------
 * Each takes the committed scene, a ray and options (null: hs_query_options_default()). A ray that
 * can hit nothing (see "Data as it comes") is a miss, and the call succeeds. Fails with
 * HS_INVALID_ARGUMENT for a null scene, ray or output, or options with a NaN or negative
 * max_distance or an unknown face mode. */

/* The nearest hit, or a miss, into *out_hit. */
HS_API hs_status hs_raycast(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options,
                            hs_hit* out_hit);

/* Whether anything is hit (1) or not (0), stopping at the first hit found. */
HS_API hs_status hs_raycast_any(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options,
                                int* out_hit);

/* Every surface crossing, sorted by distance: a solid's entry (or, solid and started inside, its
 * start at 0) and exit, a plane's or polygon's crossing, each mesh triangle crossed, exactly once
 * at shared edges and vertices. Writes the nearest min(total, capacity) into `buffer` (which may be
 * null when capacity is 0), their count into *out_written and, when out_total is not null, how
 * many there were into *out_total. */
HS_API hs_status hs_raycast_all(const hs_scene* scene, const hs_ray* ray, const hs_query_options* options,
                                hs_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total);

/* out_hits[i] = hs_raycast(rays[i]) for i < count, over all cores, identical to one at a time and
 * seeing one commit of the scene. The arrays may be null when count is 0. Allocates scratch space
 * for count rays and hits; HS_OUT_OF_RANGE for a count whose arrays could not exist. */
HS_API hs_status hs_raycast_batch(const hs_scene* scene, const hs_ray* rays, size_t count,
                                  const hs_query_options* options, hs_hit* out_hits);

/* out_hit[i] = hs_raycast_any(rays[i]) (0 or 1) in the same way. */
HS_API hs_status hs_raycast_any_batch(const hs_scene* scene, const hs_ray* rays, size_t count,
                                      const hs_query_options* options, uint8_t* out_hit);

/* ---- sweeps --------------------------------------------------------------------------------------
 * A sphere, capsule or box moved along a direction: the first collider it meets. The layer mask, the
 * filter and max_distance apply; faces and solid do not (solids are solid, surfaces two-sided).
 * A sweep that can hit nothing (see "Data as it comes") is a miss, and the call succeeds. Fails
 * with HS_INVALID_ARGUMENT for a null scene, sweep or output, or options with a NaN or negative
 * max_distance or an unknown face mode. */

/* A sphere moved along direction (any non-zero length; it is normalised) up to max_distance
 * (world units), which limits the sweep on top of hs_query_options.max_distance. */
typedef struct hs_sphere_sweep {
  hs_sphere sphere;
  hs_vec3 direction;
  float max_distance;
} hs_sphere_sweep;

/* A unit sphere at the origin along +z, without limit. */
HS_API hs_sphere_sweep hs_sphere_sweep_default(void);

/* A capsule moved in the same way. */
typedef struct hs_capsule_sweep {
  hs_capsule capsule;
  hs_vec3 direction;
  float max_distance;
} hs_capsule_sweep;

/* The capsule of hs_shape_default(HS_SHAPE_CAPSULE) along +z, without limit. */
HS_API hs_capsule_sweep hs_capsule_sweep_default(void);

/* An oriented box moved in the same way; its rotation, of any non-zero length, is normalised. */
typedef struct hs_box_sweep {
  hs_box box;
  hs_vec3 direction;
  float max_distance;
} hs_box_sweep;

/* The box of hs_shape_default(HS_SHAPE_BOX) along +z, without limit. */
HS_API hs_box_sweep hs_box_sweep_default(void);

/* The first contact of the moving sphere, or a miss, into *out_hit: distance is how far the sphere
 * travelled, point the contact point on the collider, normal the contact normal (from the collider
 * towards the sphere), face_normal the surface's own normal there; mesh hits carry the triangle and
 * the barycentrics of the point. A sphere already touching a collider at the start hits at
 * distance 0 with HS_HIT_STARTED_INSIDE, the normal that separates them and their depth; among
 * several such, the deepest. */
HS_API hs_status hs_sphere_cast(const hs_scene* scene, const hs_sphere_sweep* sweep, const hs_query_options* options,
                                hs_hit* out_hit);

/* The same for a capsule. */
HS_API hs_status hs_capsule_cast(const hs_scene* scene, const hs_capsule_sweep* sweep,
                                 const hs_query_options* options, hs_hit* out_hit);

/* The same for an oriented box (a zero or non-finite rotation is a miss). Against planes the
 * contact is exact; against the other shapes and mesh triangles it is found by conservative
 * advancement on the GJK distance, within the contact tolerance of the first contact, never past
 * it. */
HS_API hs_status hs_box_cast(const hs_scene* scene, const hs_box_sweep* sweep, const hs_query_options* options,
                             hs_hit* out_hit);

/* out_hits[i] = hs_sphere_cast(sweeps[i]) for i < count, as hs_raycast_batch does for rays: over
 * all cores, identical to one at a time, one commit of the scene; the arrays may be null when
 * count is 0; HS_OUT_OF_RANGE for a count whose arrays could not exist. A failure leaves out_hits
 * as it was. */
HS_API hs_status hs_sphere_cast_batch(const hs_scene* scene, const hs_sphere_sweep* sweeps, size_t count,
                                      const hs_query_options* options, hs_hit* out_hits);

/* ---- batches in the background -------------------------------------------------------------------
 * hs_raycast_batch and hs_sphere_cast_batch without the wait. The call checks its arguments as the
 * synchronous batch does, copies the inputs (their array may be reused as soon as it returns),
 * starts the batch and returns with a handle; the batch runs on a thread of its own, spread over
 * all cores. hs_batch_poll tells whether it has finished; hs_batch_wait waits for it and copies its
 * hits into the caller's array, which needs to be valid only during that call. The hits are
 * bitwise those of the synchronous batch.
 *
 * Commits. A batch sees the scene as committed when its submission returned: it holds the scene
 * for reading until it has finished, so an hs_scene_commit called after the submission waits for
 * the batch and applies to later ones, never to half of one. A filter callback must not start,
 * wait for or destroy a batch. The scene and options->filter_context must outlive the batch: destroy the scene only
 * once every batch on it has been destroyed. An hs_batch is used by one thread at a time. */

typedef struct hs_batch hs_batch;

/* Starts hs_raycast_batch(scene, rays, count, options) in the background and writes its handle into
 * *out_batch. Fails as hs_raycast_batch does (a null scene, a null rays with a non-zero count, bad
 * options, HS_OUT_OF_RANGE for a count whose arrays could not exist), with HS_INVALID_ARGUMENT for
 * a null out_batch, and with HS_OUT_OF_MEMORY when the batch's memory or thread cannot be had;
 * *out_batch is then null. */
HS_API hs_status hs_raycast_batch_async(const hs_scene* scene, const hs_ray* rays, size_t count,
                                        const hs_query_options* options, hs_batch** out_batch);

/* Starts hs_sphere_cast_batch(scene, sweeps, count, options) in the background, in the same way. */
HS_API hs_status hs_sphere_cast_batch_async(const hs_scene* scene, const hs_sphere_sweep* sweeps, size_t count,
                                            const hs_query_options* options, hs_batch** out_batch);

/* *out_ready = 1 when the batch has finished (hs_batch_wait would return at once), else 0.
 * HS_INVALID_ARGUMENT for a null batch or out_ready (*out_ready is then 0). */
HS_API hs_status hs_batch_poll(const hs_batch* batch, int* out_ready);

/* Waits for the batch to finish and writes its hits, out_hits[i] for input i < count (the count it
 * was submitted with). May be called again: the hits stay with the batch until hs_batch_destroy.
 * Fails at once, writing nothing, with HS_INVALID_ARGUMENT for a null batch or a null out_hits
 * with a non-zero capacity, and HS_OUT_OF_RANGE for a capacity below the count. out_hits may be
 * null when capacity is 0. */
HS_API hs_status hs_batch_wait(hs_batch* batch, hs_hit* out_hits, size_t capacity);

/* Waits for the batch if it is unfinished (a running batch is never cancelled), then frees it and
 * its hits. Null is ignored. */
HS_API void hs_batch_destroy(hs_batch* batch);

/* ---- overlaps ------------------------------------------------------------------------------------
 * Every collider a query shape touches: overlaps, or lies within a contact tolerance of (a few
 * float ulps relative to the shapes' size). The layer mask and the filter apply; max_distance,
 * faces and solid do not: solids are solid, and planes, polygons and meshes are two-sided surfaces
 * (a shape wholly inside a closed mesh touches none of its triangles). options->contacts asks for
 * each hit's contact. Colliders come in increasing id order; the first min(total, capacity) are
 * written into `buffer` (which may be null when capacity is 0), their count into *out_written and,
 * when out_total is not null, how many colliders were touched into *out_total. A query shape that
 * can touch nothing (see "Data as it comes") touches nothing: total 0, and the call succeeds.
 * Fails with HS_INVALID_ARGUMENT for a null scene, shape or out_written, a null buffer with a
 * non-zero capacity, or options with a NaN or negative max_distance or an unknown face mode; the
 * counts are then 0 and the buffer is left as it was. */

/* Where a query shape A and a collider B touch: normal is unit and points from B towards A, depth
 * is > 0 when they overlap (how far A must move along normal to clear B) and <= 0 when they only
 * touch within the tolerance; point_on_a is A's deepest point, point_on_b B's surface point
 * nearest to it. Open surfaces are cleared by leaving them on the side of A's centre. */
typedef struct hs_contact {
  hs_vec3 point_on_a;
  hs_vec3 point_on_b;
  hs_vec3 normal;
  float depth;
} hs_contact;

/* One collider the query shape touches. */
typedef struct hs_overlap_hit {
  uint32_t collider;  /* id of the collider touched */
  uint32_t primitive; /* meshes with a contact: the deepest touching triangle (the lowest index on
                         a tie); HS_NO_PRIMITIVE otherwise */
  uint64_t user_id;   /* the collider's user id */
  int has_contact;    /* 1 when `contact` holds the contact: options->contacts was set and the pair
                         computes one (a box or a capsule whose core overlaps a cylinder does not
                         yet); the hit itself is exact either way */
  hs_contact contact; /* all zero when has_contact is 0 */
} hs_overlap_hit;

/* Nothing touched: collider HS_NO_COLLIDER, primitive HS_NO_PRIMITIVE, no contact. */
HS_API hs_overlap_hit hs_overlap_hit_default(void);

/* The colliders a sphere touches. */
HS_API hs_status hs_overlap_sphere(const hs_scene* scene, const hs_sphere* sphere, const hs_query_options* options,
                                   hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total);

/* The colliders an oriented box touches; its rotation, of any non-zero length, is normalised. */
HS_API hs_status hs_overlap_box(const hs_scene* scene, const hs_box* box, const hs_query_options* options,
                                hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total);

/* The colliders a capsule touches. */
HS_API hs_status hs_overlap_capsule(const hs_scene* scene, const hs_capsule* capsule, const hs_query_options* options,
                                    hs_overlap_hit* buffer, size_t capacity, size_t* out_written, size_t* out_total);

/* ---- closest point ------------------------------------------------------------------------------ */

/* The nearest surface point of the scene to `point` within options->max_distance (inclusive; the
 * search radius), or a miss, into *out_hit. The layer mask and the filter apply, faces does not.
 * With options->solid (the default) a point inside a solid is its own closest point: distance 0,
 * HS_HIT_STARTED_INSIDE; without, it finds the nearest point of the solid's surface. distance is
 * the distance from `point`, normal points from the surface towards `point` (the face normal when
 * `point` lies on it), and mesh hits carry the triangle, the barycentrics and the feature. A NaN
 * or infinite point is a miss and the call succeeds. Fails with HS_INVALID_ARGUMENT for a null
 * scene or out_hit, or options with a NaN or negative max_distance or an unknown face mode. */
HS_API hs_status hs_closest_point(const hs_scene* scene, hs_vec3 point, const hs_query_options* options,
                                  hs_hit* out_hit);

#ifdef __cplusplus
}
#endif

#endif /* HITSCAN_HITSCAN_H */
