// Scene: raycast_batch_async and sphere_cast_batch_async, and the BatchHandle they return. Each
// batch is the synchronous batch, run on a thread of its own, so its hits are those of the
// synchronous batch by construction. The submitter waits only until that thread holds the
// scene's query lock, which fixes the commit the batch sees (scene.hpp's thread rules).

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <new>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "hitscan/query/scene.hpp"

namespace hitscan {

struct BatchHandle::Job {
  std::mutex mutex;
  std::condition_variable changed;
  bool begun = false;     // the batch holds the scene's query lock (or has finished)
  bool finished = false;  // hits and status are final
  Status status;
  std::vector<QueryHit> hits;  // written by the batch's thread only, read after join
  std::thread thread;

  void begin() {
    std::lock_guard lock(mutex);
    begun = true;
    changed.notify_all();
  }
  void finish(Status result) {
    std::lock_guard lock(mutex);
    status = std::move(result);
    begun = finished = true;
    changed.notify_all();
  }
  void wait_begun() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return begun; });
  }
  // Joining, rather than waiting on `finished`, also orders the thread's last writes before ours.
  void join() {
    if (thread.joinable()) thread.join();
  }
};

namespace {

// Passes the batch's work on to its executor, telling the submitter first that the batch has
// begun: the Scene's batch functions take the query lock before they call parallel_for, and
// hold it until parallel_for has returned.
class BeginSignal final : public Executor {
 public:
  BeginSignal(Executor& target, BatchHandle::Job& job) : target_(target), job_(job) {}

  void parallel_for(std::size_t count, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    job_.begin();
    target_.parallel_for(count, grain, body);
  }
  unsigned concurrency() const override { return target_.concurrency(); }

 private:
  Executor& target_;
  BatchHandle::Job& job_;
};

// Starts `run(inputs, hits, executor)`, a synchronous batch, on a thread of its own and returns
// once it has begun. A batch that never calls parallel_for is waited for to the end.
template <class Input, class Run>
Result<BatchHandle> start(const char* name, std::vector<Input> inputs, Executor* executor, Run run) {
  try {
    auto job = std::make_unique<BatchHandle::Job>();
    job->hits.resize(inputs.size());
    Executor& target = executor ? *executor : default_executor();
    BatchHandle::Job* j = job.get();
    job->thread = std::thread([j, &target, inputs = std::move(inputs), run] {
      BeginSignal signal(target, *j);
      j->finish(run(std::span<const Input>(inputs), std::span<QueryHit>(j->hits), signal));
    });
    job->wait_begun();
    return BatchHandle(std::move(job));
  } catch (const std::bad_alloc&) {
    return Status{StatusCode::out_of_memory, std::string(name) + ": out of memory"};
  } catch (const std::system_error& e) {
    return Status{StatusCode::out_of_memory, std::string(name) + ": could not start the batch's thread: " + e.what()};
  }
}

}  // namespace

Result<BatchHandle> Scene::raycast_batch_async(std::vector<QueryRay> rays, const QueryOptions& options,
                                               Executor* executor) const {
  return start("Scene::raycast_batch_async", std::move(rays), executor,
               [this, options](std::span<const QueryRay> in, std::span<QueryHit> out, Executor& e) {
                 return raycast_batch(in, out, options, &e);
               });
}

Result<BatchHandle> Scene::sphere_cast_batch_async(std::vector<SphereSweep> sweeps, const QueryOptions& options,
                                                   Executor* executor) const {
  return start("Scene::sphere_cast_batch_async", std::move(sweeps), executor,
               [this, options](std::span<const SphereSweep> in, std::span<QueryHit> out, Executor& e) {
                 return sphere_cast_batch(in, out, options, &e);
               });
}

BatchHandle::BatchHandle() noexcept = default;
BatchHandle::BatchHandle(std::unique_ptr<Job> job) noexcept : job_(std::move(job)) {}
BatchHandle::BatchHandle(BatchHandle&& other) noexcept = default;

BatchHandle::~BatchHandle() {
  if (job_) job_->join();
}

BatchHandle& BatchHandle::operator=(BatchHandle&& other) noexcept {
  if (this != &other) {
    if (job_) job_->join();
    job_ = std::move(other.job_);
  }
  return *this;
}

bool BatchHandle::valid() const noexcept { return job_ != nullptr; }

bool BatchHandle::poll() const {
  if (!job_) return true;
  std::lock_guard lock(job_->mutex);
  return job_->finished;
}

bool BatchHandle::wait_for(std::chrono::nanoseconds timeout) const {
  if (!job_) return true;
  // Far enough to be forever, near enough that the clock's now + timeout cannot overflow.
  timeout = std::min(timeout, std::chrono::nanoseconds(std::chrono::hours(24 * 365 * 100)));
  std::unique_lock lock(job_->mutex);
  return job_->changed.wait_for(lock, timeout, [&] { return job_->finished; });
}

Result<std::vector<QueryHit>> BatchHandle::wait() {
  if (!job_) {
    return Status{StatusCode::invalid_argument,
                  "BatchHandle::wait: the handle holds no batch (never given one, moved from, or already waited on)"};
  }
  const std::unique_ptr<Job> job = std::move(job_);
  job->join();
  if (!job->status.ok()) return job->status;
  return std::move(job->hits);
}

}  // namespace hitscan
