#pragma once
// The one shape of every batch entry (hs_raycast_batch, hs_raycast_any_batch,
// hs_sphere_cast_batch): check the arguments, convert the C inputs into an array of the C++ type,
// run the Scene's batch query on it, and write the outputs only once it has succeeded.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "convert.hpp"
#include "handles.hpp"

namespace hitscan::capi {

/// Beyond this count the caller's arrays or the converted ones could not exist.
template <class CInput, class Input>
constexpr std::size_t max_batch() {
  return static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
         std::max({sizeof(CInput), sizeof(Input), sizeof(hs_hit), sizeof(QueryHit)});
}

/// Checks a batch of `count` C inputs (named `inputs_name` in messages) and its output array,
/// converts the inputs with `convert` and returns `query(scene, converted inputs, options)`, a
/// Status.
template <class CInput, class Convert, class Query>
hs_status run_batch(const Entry& entry, const hs_scene* scene, const CInput* inputs, const char* inputs_name,
                    std::size_t count, const hs_query_options* options, const void* out, Convert convert,
                    Query query) {
  using Input = std::invoke_result_t<Convert, const CInput&>;
  if (!scene) return entry.null("scene");
  FilterBridge bridge;
  QueryOptions query_options;
  if (const hs_status s = to_options(entry, options, bridge, query_options); s != HS_OK) return s;
  if (count > max_batch<CInput, Input>()) {
    return entry.fail(HS_OUT_OF_RANGE, "count %zu is more than an array can hold", count);
  }
  if (count != 0 && !inputs) return entry.null(inputs_name);
  if (count != 0 && !out) return entry.null("the output array");
  std::vector<Input> converted(count);
  std::transform(inputs, inputs + count, converted.begin(), convert);
  return entry.check(query(scene->scene, std::span<const Input>(converted), query_options));
}

/// run_batch for the queries that produce one QueryHit per input: `query(scene, inputs, hits,
/// options)` fills a scratch array, which is written to out_hits as hs_hit once it succeeded.
template <class CInput, class Convert, class Query>
hs_status run_hit_batch(const Entry& entry, const hs_scene* scene, const CInput* inputs, const char* inputs_name,
                        std::size_t count, const hs_query_options* options, hs_hit* out_hits, Convert convert,
                        Query query) {
  std::vector<QueryHit> hits;
  const hs_status status = run_batch(entry, scene, inputs, inputs_name, count, options, out_hits, convert,
                                     [&](const Scene& s, auto converted, const QueryOptions& o) {
                                       hits.resize(converted.size());
                                       return query(s, converted, std::span<QueryHit>(hits), o);
                                     });
  if (status == HS_OK) std::transform(hits.begin(), hits.end(), out_hits, to_hs_hit);
  return status;
}

}  // namespace hitscan::capi
