// Batches in the background: hs_raycast_batch_async, hs_sphere_cast_batch_async and the hs_batch
// handle, over Scene's async batches. The hits are copied out at hs_batch_wait, so the caller's
// array never has to outlive a call.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "batch.hpp"
#include "convert.hpp"
#include "handles.hpp"
#include "hitscan/query/async_batch.hpp"

struct hs_batch {
  // Declared first, so that it goes last: the batch's threads call the C filter through it until
  // `handle` has waited for them.
  hitscan::capi::FilterBridge bridge;
  std::size_t count = 0;
  hitscan::BatchHandle handle;          // empty once the hits have been collected
  std::vector<hitscan::QueryHit> hits;  // the collected hits
  hitscan::Status failure;              // the batch's own failure, once collected
};

using hitscan::capi::Entry;

namespace {

// Checks a batch of `count` C inputs as run_batch does, converts them, and starts
// `submit(scene, converted inputs, options)`, which returns a Result<BatchHandle>.
template <class CInput, class Convert, class Submit>
hs_status start(const Entry& entry, const hs_scene* scene, const CInput* inputs, const char* inputs_name,
                std::size_t count, const hs_query_options* options, hs_batch** out_batch, Convert convert,
                Submit submit) {
  using Input = std::invoke_result_t<Convert, const CInput&>;
  return entry.run([&] {
    if (!out_batch) return entry.null("out_batch");
    *out_batch = nullptr;
    if (!scene) return entry.null("scene");
    auto batch = std::make_unique<hs_batch>();
    hitscan::QueryOptions query_options;
    if (const hs_status s = hitscan::capi::to_options(entry, options, batch->bridge, query_options); s != HS_OK) {
      return s;
    }
    if (count > hitscan::capi::max_batch<CInput, Input>()) {
      return entry.fail(HS_OUT_OF_RANGE, "count %zu is more than an array can hold", count);
    }
    if (count != 0 && !inputs) return entry.null(inputs_name);
    std::vector<Input> converted(count);
    std::transform(inputs, inputs + count, converted.begin(), convert);
    hitscan::Result<hitscan::BatchHandle> handle = submit(scene->scene, std::move(converted), query_options);
    if (!handle) return entry.check(handle.status());
    batch->count = count;
    batch->handle = std::move(handle).value();
    *out_batch = batch.release();
    return HS_OK;
  });
}

}  // namespace

extern "C" {

hs_status hs_raycast_batch_async(const hs_scene* scene, const hs_ray* rays, size_t count,
                                 const hs_query_options* options, hs_batch** out_batch) {
  return start(Entry{__func__}, scene, rays, "rays", count, options, out_batch, hitscan::capi::to_ray,
               [](const hitscan::Scene& s, std::vector<hitscan::QueryRay> in, const hitscan::QueryOptions& o) {
                 return s.raycast_batch_async(std::move(in), o);
               });
}

hs_status hs_sphere_cast_batch_async(const hs_scene* scene, const hs_sphere_sweep* sweeps, size_t count,
                                     const hs_query_options* options, hs_batch** out_batch) {
  return start(
      Entry{__func__}, scene, sweeps, "sweeps", count, options, out_batch,
      [](const hs_sphere_sweep& s) { return hitscan::capi::to_sweep(s); },
      [](const hitscan::Scene& s, std::vector<hitscan::SphereSweep> in, const hitscan::QueryOptions& o) {
        return s.sphere_cast_batch_async(std::move(in), o);
      });
}

hs_status hs_batch_poll(const hs_batch* batch, int* out_ready) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_ready) return entry.null("out_ready");
    *out_ready = 0;
    if (!batch) return entry.null("batch");
    *out_ready = batch->handle.poll() ? 1 : 0;  // a collected batch's empty handle polls ready
    return HS_OK;
  });
}

hs_status hs_batch_wait(hs_batch* batch, hs_hit* out_hits, size_t capacity) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!batch) return entry.null("batch");
    if (!out_hits && capacity != 0) return entry.null("out_hits");
    if (capacity < batch->count) {
      return entry.fail(HS_OUT_OF_RANGE, "capacity %zu is less than the batch's %zu hits", capacity, batch->count);
    }
    if (batch->handle.valid()) {
      hitscan::Result<std::vector<hitscan::QueryHit>> hits = batch->handle.wait();
      if (hits) {
        batch->hits = std::move(hits).value();
      } else {
        batch->failure = hits.status();
      }
    }
    if (!batch->failure.ok()) return entry.check(batch->failure);
    std::transform(batch->hits.begin(), batch->hits.end(), out_hits, hitscan::capi::to_hs_hit);
    return HS_OK;
  });
}

void hs_batch_destroy(hs_batch* batch) { delete batch; }

}  // extern "C"
