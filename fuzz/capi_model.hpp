#pragma once
// What fuzz_capi checks every call against. CallChecker: the status of each call, its message
// and its one error callback. SceneModel: what the program has added, changed and committed, and
// the query options in force, from which it judges every hit a query reports.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "capi_trace.hpp"
#include "hitscan/hitscan.h"

namespace hitscan::fuzz {

inline bool finite(const hs_vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

inline bool unit(const hs_vec3& v) {
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  return std::abs(length - 1.0f) <= 1e-3f;
}

// Field by field, bit for bit (the struct's padding is not compared).
inline bool same_hit(const hs_hit& a, const hs_hit& b) {
  const auto same = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return same(a.hit, b.hit) && same(a.flags, b.flags) && same(a.feature, b.feature) && same(a.distance, b.distance) &&
         same(a.point, b.point) && same(a.normal, b.normal) && same(a.face_normal, b.face_normal) &&
         same(a.collider, b.collider) && same(a.user_id, b.user_id) && same(a.primitive, b.primitive) &&
         same(a.u, b.u) && same(a.v, b.v) && same(a.depth, b.depth);
}

inline bool is_miss(const hs_hit& h) {
  return h.hit == 0 && h.distance == INFINITY && h.collider == HS_NO_COLLIDER && h.primitive == HS_NO_PRIMITIVE &&
         h.depth == 0;
}

// A value no call writes, to see whether an output was written.
inline hs_hit garbage_hit() {
  hs_hit h;
  std::memset(&h, 0xA5, sizeof h);
  return h;
}

// The filter the program may install: it hides the colliders whose id shares a bit with the mask.
inline int hide_masked_ids(uint32_t collider, uint64_t, uint32_t, void* context) {
  return (collider & *static_cast<const uint32_t*>(context)) == 0;
}

// hitscan.h's working range: mesh vertices and shapes beyond it are refused, queries beyond it miss.
inline constexpr float kWorkingRange = 1e15f;

// The largest magnitude of a vector's coordinates; NaN counts as infinite.
inline float reach(const hs_vec3& v) {
  const float largest = std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
  return std::isnan(largest) ? INFINITY : largest;
}

// What the program knows of a collider: enough to check the hits that name it.
struct Collider {
  uint32_t layer = 0;
  uint64_t user_id = 0;
  std::size_t triangles = 0;  // 0 for an analytic shape
};

inline std::vector<hs_status> mesh_statuses(const std::vector<float>& positions, const std::vector<uint32_t>& indices) {
  std::vector<hs_status> due;
  const std::size_t vertex_count = positions.size() / 3;
  if (indices.empty() || positions.empty()) due.push_back(HS_INVALID_ARGUMENT);  // no triangles, or a null array
  for (const uint32_t index : indices) {
    if (index >= vertex_count) {
      due.push_back(HS_OUT_OF_RANGE);
    } else if (!(std::abs(positions[3 * index]) <= kWorkingRange) || !(std::abs(positions[3 * index + 1]) <= kWorkingRange) ||
               !(std::abs(positions[3 * index + 2]) <= kWorkingRange)) {
      due.push_back(HS_INVALID_ARGUMENT);  // NaN, infinite, or beyond the working range
    }
  }
  if (due.empty()) due.push_back(HS_OK);
  return due;
}

// Counts the error callbacks, which must come one per failure, with a message.
class CallChecker {
 public:
  static void install_error_callback() { hs_set_error_callback(on_error, nullptr); }

  // A status in range, never HS_INTERNAL; on failure a message naming the function and exactly
  // one error callback.
  hs_status checked(const char* function, hs_status status) {
    trace("%s -> %s", function, hs_status_name(status));
    if (status < HS_OK || status > HS_INTERNAL) fail("%s returned %d, which is not an hs_status", function, status);
    if (status == HS_INTERNAL) fail("%s: HS_INTERNAL: %s", function, hs_last_error());
    const unsigned callbacks = error_callbacks().load();
    const unsigned expected = callbacks_seen_ + (status != HS_OK ? 1 : 0);
    if (callbacks != expected) fail("%s: %u error callbacks for one call", function, callbacks - callbacks_seen_);
    callbacks_seen_ = callbacks;
    if (status != HS_OK && std::strncmp(hs_last_error(), function, std::strlen(function)) != 0) {
      fail("%s failed (%s) with the message '%s'", function, hs_status_name(status), hs_last_error());
    }
    return status;
  }

  // The status of a call, which must be `wanted`.
  void expect(const char* function, hs_status status, hs_status wanted) {
    require(function, checked(function, status), wanted);
  }

  static void require(const char* function, hs_status status, hs_status wanted) {
    if (status != wanted) {
      fail("%s: %s where %s was due (%s)", function, hs_status_name(status), hs_status_name(wanted), hs_last_error());
    }
  }

  static void require_one_of(const char* function, hs_status status, const std::vector<hs_status>& due) {
    if (std::find(due.begin(), due.end(), status) == due.end()) {
      fail("%s: %s where %s was due (%s)", function, hs_status_name(status), hs_status_name(due.front()),
           hs_last_error());
    }
  }

 private:
  static std::atomic<unsigned>& error_callbacks() {
    static std::atomic<unsigned> count{0};
    return count;
  }
  static void on_error(hs_status status, const char* message, void*) {
    if (status == HS_OK || message == nullptr || message[0] == '\0') fail("an error callback without a failure");
    error_callbacks().fetch_add(1, std::memory_order_relaxed);
  }

  unsigned callbacks_seen_ = error_callbacks().load();
};

struct SceneModel {
  std::map<uint32_t, Collider> pending, committed;
  hs_query_options options = hs_query_options_default();
  bool use_default_options = true;
  uint32_t filter_mask = 0;

  const hs_query_options* query_options() const { return use_default_options ? nullptr : &options; }
  hs_status options_status() const {
    const bool valid = use_default_options || (!std::isnan(options.max_distance) && options.max_distance >= 0 &&
                                               options.faces >= HS_FACES_BOTH && options.faces <= HS_FACES_BACK_ONLY);
    return valid ? HS_OK : HS_INVALID_ARGUMENT;
  }
  float option_limit() const { return use_default_options ? INFINITY : options.max_distance; }

  // A collider a query may report: committed, on a layer the mask lets through, and accepted by
  // the filter.
  const Collider& visible(uint32_t id, const char* what) const {
    const auto found = committed.find(id);
    if (found == committed.end()) fail("%s reports collider %u, which is not in the committed scene", what, id);
    if (!use_default_options) {
      if ((options.layer_mask >> found->second.layer & 1u) == 0)
        fail("%s reports collider %u of a masked layer", what, id);
      if (options.filter != nullptr && !hide_masked_ids(id, 0, 0, options.filter_context)) {
        fail("%s reports collider %u, which the filter rejects", what, id);
      }
    }
    return found->second;
  }

  // A query's hit or miss.
  void check_hit(const hs_hit& h, float limit, const char* what, bool unit_normal) const {
    trace("  hit %d, flags %#x, feature %d, distance %a, collider %u, primitive %u, depth %a", h.hit, h.flags,
          int(h.feature), double(h.distance), h.collider, h.primitive, double(h.depth));
    trace_vec3("point", h.point);
    trace_vec3("normal", h.normal);
    trace_vec3("face normal", h.face_normal);
    if (h.hit == 0) {
      if (!is_miss(h)) fail("%s: a miss that is not hs_hit_default()", what);
      return;
    }
    if (h.hit != 1) fail("%s: hit = %d", what, h.hit);
    const Collider& collider = visible(h.collider, what);
    const bool distance_ok = h.distance >= 0 && h.distance <= limit && std::isfinite(h.distance);
    const bool normals_ok =
        finite(h.normal) && finite(h.face_normal) && (!unit_normal || (unit(h.normal) && unit(h.face_normal)));
    if (!distance_ok) {
      fail("%s: a hit at distance %.9g outside [0, %.9g]", what, double(h.distance), double(limit));
    }
    if (!finite(h.point)) fail("%s: a hit with a non-finite point", what);
    if (!normals_ok) {
      fail("%s: a hit normal (%g, %g, %g) or face normal (%g, %g, %g) that is not %s", what, double(h.normal.x),
           double(h.normal.y), double(h.normal.z), double(h.face_normal.x), double(h.face_normal.y),
           double(h.face_normal.z), unit_normal ? "unit" : "finite");
    }
    if (h.user_id != collider.user_id)
      fail("%s: user id %llu, not the collider's", what, (unsigned long long)h.user_id);
    const bool primitive_ok =
        collider.triangles == 0 ? h.primitive == HS_NO_PRIMITIVE : h.primitive < collider.triangles;
    if (!primitive_ok) fail("%s: primitive %u on a collider of %zu triangles", what, h.primitive, collider.triangles);
  }
};

}  // namespace hitscan::fuzz
