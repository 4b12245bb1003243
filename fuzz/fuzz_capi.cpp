// fuzz_capi: the input is a program of C API calls on one scene (see ProgramReader for how bytes
// become arguments): meshes created from fuzzed vertices and indices, shapes added with fuzzed
// sizes, transforms, layers and user ids, removed and changed, commits, and every query with
// fuzzed rays, query shapes and options, including null and impossible arguments.
// Every call must return a status, never crash, and keep what hitscan.h promises: the status the
// arguments call for where it is decidable, a message and one error callback per failure, the
// "nothing" values in single outputs and untouched arrays on failure, hits within [0, limit] on
// colliders the query may see, raycast/raycast_any/raycast_all agreeing, raycast_all and overlap
// results in order, and batches identical to one query at a time.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "capi_model.hpp"
#include "capi_program.hpp"
#include "capi_trace.hpp"
#include "hitscan/hitscan.h"

namespace {

using namespace hitscan::fuzz;

// Runs a program: each step reads an operation and its arguments, makes the calls, and checks
// them against the model.
class Program : CallChecker {
 public:
  explicit Program(ProgramReader& in) : in_(in) { expect("hs_scene_create", hs_scene_create(&scene_), HS_OK); }
  ~Program() {
    hs_scene_destroy(scene_);
    for (hs_mesh* mesh : meshes_) hs_mesh_destroy(mesh);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  void step();

 private:
  uint32_t pick_id() {
    const uint8_t selector = in_.byte();
    if (selector == 255) return in_.u32();
    if (selector == 254 || issued_.empty()) return HS_NO_COLLIDER;
    return issued_[selector % issued_.size()];
  }
  const hs_mesh* pick_mesh() {
    const uint8_t selector = in_.byte();
    return meshes_.empty() || selector == 255 ? nullptr : meshes_[selector % meshes_.size()];
  }
  void added(hs_status status, uint32_t id, const char* function, Collider collider) {
    if (status != HS_OK) {
      if (id != HS_NO_COLLIDER) fail("%s failed but wrote id %u", function, id);
      return;
    }
    if (collider.layer >= HS_LAYER_COUNT) fail("%s accepted layer %u", function, collider.layer);
    if (id == HS_NO_COLLIDER || model_.pending.count(id) != 0) fail("%s gave id %u, which is in use", function, id);
    model_.pending[id] = collider;
    if (issued_.size() < 64) issued_.push_back(id);
  }

  void create_mesh();
  void add_shape();
  void add_mesh(bool shared);
  void edit();
  void set_options();
  void raycast();
  void raycast_batch();
  void overlap();
  void closest_point();
  void bad_arguments();
  void sweep();
  void sweep_batch();
  void async_batch();

  ProgramReader& in_;
  SceneModel model_;
  hs_scene* scene_ = nullptr;
  std::vector<hs_mesh*> meshes_;
  std::map<hs_mesh*, Collider> mesh_colliders_;  // what a collider of each mesh is
  std::vector<uint32_t> issued_;                 // ids handed out, live or stale
};

void Program::step() {
  const uint8_t op = in_.byte();
  switch (op % 20) {
    case 0: create_mesh(); break;
    case 1: {
      if (meshes_.empty()) break;
      const std::size_t i = in_.byte() % meshes_.size();
      hs_mesh_destroy(meshes_[i]);  // colliders using it keep it alive
      mesh_colliders_.erase(meshes_[i]);
      meshes_.erase(meshes_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
    case 2:
    case 3: add_shape(); break;
    case 4: add_mesh(true); break;
    case 5: add_mesh(false); break;
    case 6:
    case 7:
    case 8: edit(); break;
    case 9:
      expect("hs_scene_commit", hs_scene_commit(scene_), HS_OK);
      model_.committed = model_.pending;
      break;
    case 10: set_options(); break;
    case 11:
    case 12: raycast(); break;
    case 13: raycast_batch(); break;
    case 14:
    case 15: overlap(); break;
    case 16: closest_point(); break;
    case 17: bad_arguments(); break;
    case 18: {  // a fresh scene; the meshes stay
      hs_scene_destroy(scene_);
      scene_ = nullptr;
      expect("hs_scene_create", hs_scene_create(&scene_), HS_OK);
      model_.pending.clear();
      model_.committed.clear();
      issued_.clear();
      break;
    }
    default:
      // Operation bytes 19, 39, ..., 239: the later operations, spread over the bytes that the
      // first seed programs left to the null destroys, so that those programs keep their meaning.
      switch (op / 20) {
        case 1:
        case 2:
        case 3: sweep(); break;
        case 4:
        case 5: sweep_batch(); break;
        case 6:
        case 7: async_batch(); break;
        default:
          hs_scene_destroy(nullptr);
          hs_mesh_destroy(nullptr);
          break;
      }
      break;
  }
}

void Program::create_mesh() {
  std::vector<float> positions;
  std::vector<uint32_t> indices;
  in_.mesh(positions, indices);
  trace_mesh(positions, indices);
  hs_mesh* mesh = reinterpret_cast<hs_mesh*>(&in_);  // overwritten by the call, whatever it answers
  const hs_status status =
      checked("hs_mesh_create", hs_mesh_create(positions.empty() ? nullptr : positions.data(), positions.size() / 3,
                                               indices.data(), indices.size() / 3, &mesh));
  require_one_of("hs_mesh_create", status, mesh_statuses(positions, indices));
  if (status != HS_OK) {
    if (mesh != nullptr) fail("hs_mesh_create failed but wrote a mesh");
    return;
  }
  if (mesh == nullptr) fail("hs_mesh_create succeeded without a mesh");
  if (meshes_.size() >= 4) {
    hs_mesh_destroy(mesh);
    return;
  }
  meshes_.push_back(mesh);
  Collider of_mesh;
  of_mesh.triangles = indices.size() / 3;
  mesh_colliders_[mesh] = of_mesh;
}

void Program::add_shape() {
  std::vector<hs_vec3> polygon;
  const hs_shape shape = in_.shape(polygon);
  const bool with_transform = in_.byte() % 2;
  const hs_transform transform = in_.transform();
  Collider collider{static_cast<uint32_t>(in_.byte() % 40), in_.u64() % 4};
  trace_shape(shape);
  trace_transform(with_transform ? &transform : nullptr);
  trace("  layer %u, user id %llu", collider.layer, (unsigned long long)collider.user_id);
  uint32_t id = 0;
  const hs_status status = checked(
      "hs_scene_add_shape",
      hs_scene_add_shape(scene_, &shape, with_transform ? &transform : nullptr, collider.layer, collider.user_id, &id));
  added(status, id, "hs_scene_add_shape", collider);
}

void Program::add_mesh(bool shared) {
  const hs_transform transform = in_.transform();
  Collider collider{static_cast<uint32_t>(in_.byte() % 40), in_.u64() % 4};
  trace_transform(&transform);
  trace("  layer %u, user id %llu", collider.layer, (unsigned long long)collider.user_id);
  uint32_t id = 0;
  hs_status status;
  if (shared) {
    const hs_mesh* mesh = pick_mesh();
    trace("  mesh %p", static_cast<const void*>(mesh));
    status = checked("hs_scene_add_mesh_instance",
                     hs_scene_add_mesh_instance(scene_, mesh, &transform, collider.layer, collider.user_id, &id));
    if (mesh == nullptr && status != HS_INVALID_ARGUMENT) fail("hs_scene_add_mesh_instance took a null mesh");
    if (mesh != nullptr) {
      const Collider& of_mesh = mesh_colliders_.at(const_cast<hs_mesh*>(mesh));
      collider.triangles = of_mesh.triangles;
    }
    added(status, id, "hs_scene_add_mesh_instance", collider);
  } else {
    std::vector<float> positions;
    std::vector<uint32_t> indices;
    in_.mesh(positions, indices);
    trace_mesh(positions, indices);
    status = checked("hs_scene_add_mesh", hs_scene_add_mesh(scene_, positions.empty() ? nullptr : positions.data(),
                                                            positions.size() / 3, indices.data(), indices.size() / 3,
                                                            &transform, collider.layer, collider.user_id, &id));
    if (status == HS_OK && mesh_statuses(positions, indices).front() != HS_OK)
      fail("hs_scene_add_mesh took a bad mesh");
    collider.triangles = indices.size() / 3;
    added(status, id, "hs_scene_add_mesh", collider);
  }
}

// remove, set_transform, set_shape, set_layer and set_user_id on a live, stale or made-up id.
void Program::edit() {
  const uint32_t id = pick_id();
  const auto live = model_.pending.find(id);
  const bool found = live != model_.pending.end();
  trace("  collider %u (%s)", id, found ? "live" : "not live");
  switch (in_.byte() % 5) {
    case 0:
      expect("hs_scene_remove", hs_scene_remove(scene_, id), found ? HS_OK : HS_NOT_FOUND);
      if (found) model_.pending.erase(live);
      break;
    case 1: {
      const hs_transform transform = in_.transform();
      trace_transform(&transform);
      const hs_status status = checked("hs_scene_set_transform", hs_scene_set_transform(scene_, id, &transform));
      if (status == HS_OK && !found) fail("hs_scene_set_transform changed collider %u, which does not exist", id);
      break;
    }
    case 2: {
      std::vector<hs_vec3> polygon;
      const hs_shape shape = in_.shape(polygon);
      trace_shape(shape);
      const hs_status status = checked("hs_scene_set_shape", hs_scene_set_shape(scene_, id, &shape));
      if (status == HS_OK && !found) fail("hs_scene_set_shape changed collider %u, which does not exist", id);
      if (status == HS_OK) live->second.triangles = 0;
      break;
    }
    case 3: {
      const uint32_t layer = in_.byte() % 40;
      const hs_status status = checked("hs_scene_set_layer", hs_scene_set_layer(scene_, id, layer));
      if (layer < HS_LAYER_COUNT) {
        require("hs_scene_set_layer", status, found ? HS_OK : HS_NOT_FOUND);
      } else if (status == HS_OK) {
        fail("hs_scene_set_layer accepted layer %u", layer);
      }
      if (status == HS_OK) live->second.layer = layer;
      break;
    }
    default: {
      const uint64_t user_id = in_.u64();
      expect("hs_scene_set_user_id", hs_scene_set_user_id(scene_, id, user_id), found ? HS_OK : HS_NOT_FOUND);
      if (found) live->second.user_id = user_id;
      break;
    }
  }
}

void Program::set_options() {
  model_.use_default_options = in_.byte() % 4 == 0;
  model_.options = hs_query_options_default();
  if (in_.byte() % 2) model_.options.layer_mask = in_.u32();
  if (in_.byte() % 2) model_.options.max_distance = in_.real();
  model_.options.faces = static_cast<hs_face_mode>(in_.byte() % 4);  // 3 is no hs_face_mode
  model_.options.solid = in_.byte() % 2;
  model_.options.contacts = in_.byte() % 2;
  if (in_.byte() % 2) {
    model_.filter_mask = in_.u32();
    model_.options.filter = hide_masked_ids;
    model_.options.filter_context = &model_.filter_mask;
  }
  trace("options: %s, layer mask %#x, max_distance %a, faces %d, solid %d, contacts %d, filter mask %#x",
        model_.use_default_options ? "default (null)" : "these", model_.options.layer_mask,
        double(model_.options.max_distance), int(model_.options.faces), model_.options.solid, model_.options.contacts,
        model_.options.filter ? model_.filter_mask : 0u);
}

void Program::raycast() {
  const hs_ray ray = in_.ray();
  trace_ray(ray);
  const float limit = std::min(ray.max_distance, model_.option_limit());
  const hs_status due = model_.options_status();
  hs_hit hit = garbage_hit();
  expect("hs_raycast", hs_raycast(scene_, &ray, model_.query_options(), &hit), due);
  int any = 7;
  expect("hs_raycast_any", hs_raycast_any(scene_, &ray, model_.query_options(), &any), due);
  const std::size_t capacity = in_.count(6);
  std::vector<hs_hit> all(capacity + 1, garbage_hit());  // one past the capacity must stay untouched
  std::size_t written = 99, total = 99;
  expect("hs_raycast_all", hs_raycast_all(scene_, &ray, model_.query_options(), all.data(), capacity, &written, &total),
         due);
  if (!same_hit(all[capacity], garbage_hit())) fail("hs_raycast_all wrote past its capacity");
  if (due != HS_OK) {
    if (!is_miss(hit) || any != 0 || written != 0 || total != 0) fail("a failed ray query left an output set");
    if (capacity > 0 && !same_hit(all[0], garbage_hit())) fail("a failed hs_raycast_all wrote into its buffer");
    return;
  }
  // A ray from beyond the working range is a miss (hitscan.h).
  if (!(reach(ray.origin) <= kWorkingRange) && (hit.hit != 0 || total != 0)) fail("a ray from beyond ±1e15 hit");
  model_.check_hit(hit, limit, "hs_raycast", true);
  if (any != hit.hit) fail("hs_raycast_any says %d, hs_raycast %d", any, hit.hit);
  if ((total > 0) != (hit.hit == 1)) fail("hs_raycast_all found %zu hits, hs_raycast %d", total, hit.hit);
  if (written != std::min(total, capacity)) fail("hs_raycast_all wrote %zu of %zu into %zu", written, total, capacity);
  for (std::size_t i = 0; i < written; ++i) {
    model_.check_hit(all[i], limit, "hs_raycast_all", true);
    if (all[i].hit != 1) fail("hs_raycast_all wrote a miss");
    if (i > 0 && !(all[i - 1].distance <= all[i].distance)) fail("hs_raycast_all hits are not sorted by distance");
  }
  if (written > 0 && all[0].distance != hit.distance) {
    fail("hs_raycast_all's nearest hit is at %.9g, hs_raycast's at %.9g", double(all[0].distance),
         double(hit.distance));
  }
}

void Program::raycast_batch() {
  const std::size_t count = in_.count(5);
  std::vector<hs_ray> rays(count);
  for (hs_ray& ray : rays) {
    ray = in_.ray();
    trace_ray(ray);
  }
  const hs_status due = model_.options_status();
  std::vector<hs_hit> hits(count, garbage_hit());
  std::vector<uint8_t> any(count, 7);
  expect("hs_raycast_batch",
         hs_raycast_batch(scene_, count ? rays.data() : nullptr, count, model_.query_options(),
                          count ? hits.data() : nullptr),
         due);
  expect("hs_raycast_any_batch",
         hs_raycast_any_batch(scene_, count ? rays.data() : nullptr, count, model_.query_options(),
                              count ? any.data() : nullptr),
         due);
  for (std::size_t i = 0; i < count; ++i) {
    if (due != HS_OK) {
      if (!same_hit(hits[i], garbage_hit()) || any[i] != 7) fail("a failed batch wrote its output array");
      continue;
    }
    hs_hit single = garbage_hit();
    expect("hs_raycast", hs_raycast(scene_, &rays[i], model_.query_options(), &single), HS_OK);
    if (!same_hit(single, hits[i])) fail("hs_raycast_batch's hit %zu differs from hs_raycast's", i);
    if (any[i] != single.hit) fail("hs_raycast_any_batch's answer %zu is %d, hs_raycast's %d", i, any[i], single.hit);
  }
}

void Program::overlap() {
  const std::size_t capacity = in_.count(6);
  hs_overlap_hit sentinel;
  std::memset(&sentinel, 0xA5, sizeof sentinel);
  std::vector<hs_overlap_hit> hits(capacity + 1, sentinel);
  std::size_t written = 99, total = 99;
  const int kind = in_.byte() % 3;
  const hs_sphere sphere = kind == 0 ? hs_sphere{in_.vec3(), in_.real()} : hs_sphere{};
  const hs_box box = kind == 1 ? hs_box{in_.vec3(), in_.vec3(), in_.quat()} : hs_box{};
  const hs_capsule capsule = kind == 2 ? hs_capsule{in_.vec3(), in_.vec3(), in_.real()} : hs_capsule{};
  const float query_reach = kind == 0   ? std::max(reach(sphere.center), reach({sphere.radius, 0, 0}))
                            : kind == 1 ? std::max(reach(box.center), reach(box.half_extents))
                                        : std::max({reach(capsule.a), reach(capsule.b), reach({capsule.radius, 0, 0})});
  const char* function;
  hs_status status;
  if (kind == 0) {
    function = "hs_overlap_sphere";
    trace_vec3("sphere centre", sphere.center);
    trace("  sphere radius %a", double(sphere.radius));
    status = hs_overlap_sphere(scene_, &sphere, model_.query_options(), hits.data(), capacity, &written, &total);
  } else if (kind == 1) {
    function = "hs_overlap_box";
    trace_vec3("box centre", box.center);
    trace_vec3("box half extents", box.half_extents);
    trace("  box rotation {%a, %a, %a, %a}", double(box.rotation.w), double(box.rotation.x), double(box.rotation.y),
          double(box.rotation.z));
    status = hs_overlap_box(scene_, &box, model_.query_options(), hits.data(), capacity, &written, &total);
  } else {
    function = "hs_overlap_capsule";
    trace_vec3("capsule a", capsule.a);
    trace_vec3("capsule b", capsule.b);
    trace("  capsule radius %a", double(capsule.radius));
    status = hs_overlap_capsule(scene_, &capsule, model_.query_options(), hits.data(), capacity, &written, &total);
  }
  expect(function, status, model_.options_status());
  if (std::memcmp(&hits[capacity], &sentinel, sizeof sentinel) != 0) fail("%s wrote past its capacity", function);
  if (status != HS_OK) {
    if (written != 0 || total != 0) fail("%s failed with counts %zu, %zu", function, written, total);
    if (capacity > 0 && std::memcmp(&hits[0], &sentinel, sizeof sentinel) != 0)
      fail("%s failed but wrote hits", function);
    return;
  }
  if (written != std::min(total, capacity)) fail("%s wrote %zu of %zu into %zu", function, written, total, capacity);
  if (!(query_reach <= kWorkingRange) && total != 0) fail("%s: a shape beyond ±1e15 overlaps something", function);
  const bool contacts_asked = !model_.use_default_options && model_.options.contacts != 0;
  for (std::size_t i = 0; i < written; ++i) {
    const hs_overlap_hit& hit = hits[i];
    const Collider& collider = model_.visible(hit.collider, function);
    if (i > 0 && !(hits[i - 1].collider < hit.collider)) fail("%s: colliders not in increasing id order", function);
    if (hit.user_id != collider.user_id) fail("%s: a hit with another collider's user id", function);
    if (hit.has_contact != 0 && hit.has_contact != 1) fail("%s: has_contact = %d", function, hit.has_contact);
    if (hit.has_contact && !contacts_asked) fail("%s: a contact nobody asked for", function);
    const bool primitive_ok = hit.primitive == HS_NO_PRIMITIVE ||
                              (hit.has_contact && collider.triangles > 0 && hit.primitive < collider.triangles);
    if (!primitive_ok)
      fail("%s: primitive %u on a collider of %zu triangles", function, hit.primitive, collider.triangles);
    const hs_contact& c = hit.contact;
    trace("  collider %u, primitive %u, has_contact %d, depth %a", hit.collider, hit.primitive, hit.has_contact,
          double(c.depth));
    trace_vec3("point on a", c.point_on_a);
    trace_vec3("point on b", c.point_on_b);
    trace_vec3("normal", c.normal);
    const bool bad_contact = hit.has_contact && (!finite(c.point_on_a) || !finite(c.point_on_b) || !unit(c.normal) ||
                                                 !std::isfinite(c.depth));
    if (bad_contact) fail("%s: a contact with a non-finite value or a normal that is not unit", function);
  }
}

// A sweep's limit: its own max_distance (a NaN or negative one allows no travel) within the options'.
static float sweep_limit(float max_distance, float option_limit) {
  return max_distance >= 0 ? std::min(max_distance, option_limit) : 0.0f;
}

void Program::sweep() {
  const int kind = in_.byte() % 3;
  const char* function;
  hs_status status;
  float max_distance, query_reach;
  hs_hit hit = garbage_hit();
  if (kind == 0) {
    hs_sphere_sweep s = hs_sphere_sweep_default();
    s.sphere = {in_.vec3(), in_.real()};
    s.direction = in_.vec3();
    if (in_.byte() % 2) s.max_distance = in_.real();
    function = "hs_sphere_cast";
    trace_vec3("sphere centre", s.sphere.center);
    trace("  sphere radius %a, max distance %a", double(s.sphere.radius), double(s.max_distance));
    trace_vec3("direction", s.direction);
    max_distance = s.max_distance;
    query_reach = std::max(reach(s.sphere.center), reach({s.sphere.radius, 0, 0}));
    status = hs_sphere_cast(scene_, &s, model_.query_options(), &hit);
  } else if (kind == 1) {
    hs_capsule_sweep s = hs_capsule_sweep_default();
    s.capsule = {in_.vec3(), in_.vec3(), in_.real()};
    s.direction = in_.vec3();
    if (in_.byte() % 2) s.max_distance = in_.real();
    function = "hs_capsule_cast";
    trace_vec3("capsule a", s.capsule.a);
    trace_vec3("capsule b", s.capsule.b);
    trace("  capsule radius %a, max distance %a", double(s.capsule.radius), double(s.max_distance));
    trace_vec3("direction", s.direction);
    max_distance = s.max_distance;
    query_reach = std::max({reach(s.capsule.a), reach(s.capsule.b), reach({s.capsule.radius, 0, 0})});
    status = hs_capsule_cast(scene_, &s, model_.query_options(), &hit);
  } else {
    hs_box_sweep s = hs_box_sweep_default();
    s.box = {in_.vec3(), in_.vec3(), in_.quat()};
    s.direction = in_.vec3();
    if (in_.byte() % 2) s.max_distance = in_.real();
    function = "hs_box_cast";
    trace_vec3("box centre", s.box.center);
    trace_vec3("box half extents", s.box.half_extents);
    trace("  box rotation {%a, %a, %a, %a}, max distance %a", double(s.box.rotation.w), double(s.box.rotation.x),
          double(s.box.rotation.y), double(s.box.rotation.z), double(s.max_distance));
    trace_vec3("direction", s.direction);
    max_distance = s.max_distance;
    query_reach = std::max(reach(s.box.center), reach(s.box.half_extents));
    status = hs_box_cast(scene_, &s, model_.query_options(), &hit);
  }
  expect(function, status, model_.options_status());
  if (status != HS_OK) {
    if (!is_miss(hit)) fail("a failed %s left a hit", function);
    return;
  }
  if (!(query_reach <= kWorkingRange) && hit.hit != 0) fail("%s: a shape beyond ±1e15 hit", function);
  model_.check_hit(hit, sweep_limit(max_distance, model_.option_limit()), function, true);
}

// hs_sphere_cast_batch against one hs_sphere_cast at a time.
void Program::sweep_batch() {
  const std::size_t count = in_.count(5);
  std::vector<hs_sphere_sweep> sweeps(count, hs_sphere_sweep_default());
  for (hs_sphere_sweep& s : sweeps) {
    s.sphere = {in_.vec3(), in_.real()};
    s.direction = in_.vec3();
    trace_vec3("sweep centre", s.sphere.center);
    trace("  radius %a", double(s.sphere.radius));
    trace_vec3("direction", s.direction);
  }
  const hs_status due = model_.options_status();
  std::vector<hs_hit> hits(count, garbage_hit());
  expect("hs_sphere_cast_batch",
         hs_sphere_cast_batch(scene_, count ? sweeps.data() : nullptr, count, model_.query_options(),
                              count ? hits.data() : nullptr),
         due);
  for (std::size_t i = 0; i < count; ++i) {
    if (due != HS_OK) {
      if (!same_hit(hits[i], garbage_hit())) fail("a failed hs_sphere_cast_batch wrote its output array");
      continue;
    }
    hs_hit single = garbage_hit();
    expect("hs_sphere_cast", hs_sphere_cast(scene_, &sweeps[i], model_.query_options(), &single), HS_OK);
    if (!same_hit(single, hits[i])) fail("hs_sphere_cast_batch's hit %zu differs from hs_sphere_cast's", i);
  }
}

// A batch in the background (rays or sphere sweeps) against the synchronous batch: submitted,
// polled, waited for into too small and then large enough arrays, destroyed.
void Program::async_batch() {
  const bool spheres = in_.byte() % 2;
  const std::size_t count = in_.count(5);
  std::vector<hs_ray> rays(spheres ? 0 : count);
  std::vector<hs_sphere_sweep> sweeps(spheres ? count : 0, hs_sphere_sweep_default());
  for (hs_ray& ray : rays) {
    ray = in_.ray();
    trace_ray(ray);
  }
  for (hs_sphere_sweep& s : sweeps) {
    s.sphere = {in_.vec3(), in_.real()};
    s.direction = in_.vec3();
    trace_vec3("sweep centre", s.sphere.center);
    trace_vec3("direction", s.direction);
  }
  const hs_status due = model_.options_status();
  const char* function = spheres ? "hs_sphere_cast_batch_async" : "hs_raycast_batch_async";
  hs_batch* batch = reinterpret_cast<hs_batch*>(&in_);  // overwritten by the call, whatever it answers
  const hs_status status =
      spheres ? hs_sphere_cast_batch_async(scene_, count ? sweeps.data() : nullptr, count, model_.query_options(), &batch)
              : hs_raycast_batch_async(scene_, count ? rays.data() : nullptr, count, model_.query_options(), &batch);
  // Out of memory (no thread to be had) is allowed; anything else must be what the arguments call for.
  if (status == HS_OUT_OF_MEMORY) {
    if (batch != nullptr) fail("%s failed but left a handle", function);
    return;
  }
  expect(function, status, due);
  if (status != HS_OK) {
    if (batch != nullptr) fail("%s failed but left a handle", function);
    return;
  }
  int ready = 7;
  expect("hs_batch_poll", hs_batch_poll(batch, &ready), HS_OK);
  if (ready != 0 && ready != 1) fail("hs_batch_poll says %d", ready);
  std::vector<hs_hit> hits(count + 1, garbage_hit());
  if (count > 0) {
    expect("hs_batch_wait", hs_batch_wait(batch, hits.data(), count - 1), HS_OUT_OF_RANGE);
    if (!same_hit(hits[0], garbage_hit())) fail("hs_batch_wait wrote into an array too small");
  }
  expect("hs_batch_wait", hs_batch_wait(batch, count ? hits.data() : nullptr, count), HS_OK);
  if (!same_hit(hits[count], garbage_hit())) fail("hs_batch_wait wrote past the batch's count");
  expect("hs_batch_poll", hs_batch_poll(batch, &ready), HS_OK);
  if (ready != 1) fail("hs_batch_poll says %d after hs_batch_wait", ready);
  std::vector<hs_hit> sync(count, garbage_hit());
  expect(spheres ? "hs_sphere_cast_batch" : "hs_raycast_batch",
         spheres ? hs_sphere_cast_batch(scene_, count ? sweeps.data() : nullptr, count, model_.query_options(),
                                        count ? sync.data() : nullptr)
                 : hs_raycast_batch(scene_, count ? rays.data() : nullptr, count, model_.query_options(),
                                    count ? sync.data() : nullptr),
         HS_OK);
  for (std::size_t i = 0; i < count; ++i) {
    if (!same_hit(hits[i], sync[i])) fail("%s's hit %zu differs from the synchronous batch's", function, i);
  }
  hs_batch_destroy(batch);
}

void Program::closest_point() {
  const hs_vec3 point = in_.vec3();
  trace_vec3("point", point);
  hs_hit hit = garbage_hit();
  expect("hs_closest_point", hs_closest_point(scene_, point, model_.query_options(), &hit), model_.options_status());
  if (model_.options_status() != HS_OK) {
    if (!is_miss(hit)) fail("a failed hs_closest_point left a hit");
    return;
  }
  if (!(reach(point) <= kWorkingRange) && hit.hit != 0) fail("hs_closest_point: a point beyond ±1e15 found one");
  model_.check_hit(hit, model_.option_limit(), "hs_closest_point", false);
}

// Null pointers and counts whose arrays could not exist: each a documented failure, never a read.
void Program::bad_arguments() {
  hs_hit hit = garbage_hit();
  const hs_ray ray = hs_ray_default();
  const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const uint32_t indices[3] = {0, 1, 2};
  hs_mesh* mesh = reinterpret_cast<hs_mesh*>(&hit);
  uint32_t id = 0;
  std::size_t written = 99;
  switch (in_.byte() % 10) {
    case 0: expect("hs_raycast", hs_raycast(nullptr, &ray, nullptr, &hit), HS_INVALID_ARGUMENT); break;
    case 1: expect("hs_raycast", hs_raycast(scene_, nullptr, nullptr, &hit), HS_INVALID_ARGUMENT); break;
    case 2:
      expect("hs_scene_add_shape", hs_scene_add_shape(scene_, nullptr, nullptr, 0, 0, &id), HS_INVALID_ARGUMENT);
      if (id != HS_NO_COLLIDER) fail("a failed hs_scene_add_shape wrote id %u", id);
      break;
    case 3:
      expect("hs_mesh_create", hs_mesh_create(nullptr, 3, indices, 1, &mesh), HS_INVALID_ARGUMENT);
      if (mesh != nullptr) fail("a failed hs_mesh_create wrote a mesh");
      break;
    case 4:
      expect("hs_mesh_create", hs_mesh_create(positions, SIZE_MAX / 2, indices, SIZE_MAX / 2, &mesh), HS_OUT_OF_RANGE);
      if (mesh != nullptr) fail("a failed hs_mesh_create wrote a mesh");
      break;
    case 5: {
      hs_hit hits[1] = {garbage_hit()};
      expect("hs_raycast_batch", hs_raycast_batch(scene_, &ray, SIZE_MAX / sizeof(hs_ray) + 1, nullptr, hits),
             HS_OUT_OF_RANGE);
      if (!same_hit(hits[0], garbage_hit())) fail("a failed hs_raycast_batch wrote its output");
      break;
    }
    case 6: expect("hs_scene_commit", hs_scene_commit(nullptr), HS_INVALID_ARGUMENT); break;
    case 7: {
      const hs_sphere sphere{{0, 0, 0}, 1};
      expect("hs_overlap_sphere", hs_overlap_sphere(scene_, &sphere, nullptr, nullptr, 3, &written, nullptr),
             HS_INVALID_ARGUMENT);
      if (written != 0) fail("a failed hs_overlap_sphere wrote a count");
      break;
    }
    case 8: {
      std::size_t total = 99;
      expect("hs_raycast_all", hs_raycast_all(scene_, &ray, nullptr, nullptr, 0, &written, &total), HS_OK);
      if (written != 0) fail("hs_raycast_all wrote %zu hits into no buffer", written);
      break;
    }
    default: expect("hs_scene_remove", hs_scene_remove(nullptr, pick_id()), HS_INVALID_ARGUMENT); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  CallChecker::install_error_callback();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ProgramReader in(data, size);
  Program program(in);
  for (int steps = 0; steps < 256 && !in.done(); ++steps) program.step();
  return 0;
}
