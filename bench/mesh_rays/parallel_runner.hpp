#pragma once
// Timing a batch of rays on one thread or many, the same way for every backend: the rays are cut
// into chunks that the threads take in turn from a shared counter.

#include <cstddef>
#include <functional>

namespace hitscan::bench {

/// Runs work(begin, end) over [0, count) in chunks handed out to `threads` threads (the calling
/// thread alone when threads is 1), chunks a multiple of 8 long so that packets stay whole.
/// Returns the wall time in seconds, thread start and join included. With `whole_shares`, each
/// thread takes one even share (all of [0, count) on one thread), for stream backends.
double run_chunked(std::size_t count, int threads, const std::function<void(std::size_t, std::size_t)>& work,
                   bool whole_shares = false);

}  // namespace hitscan::bench
