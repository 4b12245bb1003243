#pragma once
/// BatchHandle: a batch query running in the background (Scene::raycast_batch_async,
/// Scene::sphere_cast_batch_async), and the ways to poll it and to wait for its hits.
///
/// A handle is a move-only owner, like std::future: one thread at a time uses it. Destroying (or
/// assigning over) a handle whose batch is unfinished waits for the batch and drops its hits;
/// a running batch is never cancelled, so whatever it reads (the scene, the executor, a filter's
/// context) must outlive the handle.

#include <chrono>
#include <memory>
#include <vector>

#include "hitscan/query/query_hit.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

class BatchHandle {
 public:
  /// A handle to no batch (valid() is false).
  BatchHandle() noexcept;
  /// Waits for the batch, if it is unfinished.
  ~BatchHandle();
  BatchHandle(BatchHandle&& other) noexcept;
  /// Waits for this handle's own batch first, then takes other's.
  BatchHandle& operator=(BatchHandle&& other) noexcept;
  BatchHandle(const BatchHandle&) = delete;
  BatchHandle& operator=(const BatchHandle&) = delete;

  /// Whether the handle holds a batch whose hits have not been taken by wait().
  bool valid() const noexcept;
  /// Whether wait() would return at once: the batch is finished (true for a handle to no batch).
  bool poll() const;
  /// Waits up to `timeout` for the batch to finish; returns poll().
  bool wait_for(std::chrono::nanoseconds timeout) const;
  /// Waits for the batch to finish and hands over its hits, hits[i] for input i; the handle is
  /// then empty. invalid_argument for a handle to no batch (never given one, moved from, or
  /// already waited on); otherwise the status of the synchronous batch it stands for.
  Result<std::vector<QueryHit>> wait();

  struct Job;  // private, defined in src/query/scene_async.cpp
  /// Takes over a started job (Scene's async batch functions make them).
  explicit BatchHandle(std::unique_ptr<Job> job) noexcept;

 private:
  std::unique_ptr<Job> job_;
};

}  // namespace hitscan
