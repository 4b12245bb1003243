#pragma once
/// Cache-line prefetches for the tree walks.

#include <cstddef>

namespace hitscan::bvh {

/// Asks for the cache line holding `address`; never faults, whatever the address. On x86 an
/// asm statement rather than __builtin_prefetch: GCC 12 deleted every __builtin_prefetch of the
/// single-ray walk once the node-or-leaf choice around them moved into a helper (both arms a
/// prefetch, which it may treat as free of effects), and the walk lost 17% on a 1.3M-triangle mesh
/// whose tree does not fit the cache, silently.
inline void prefetch_line(const void* address) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

/// Asks for the cache lines of `bytes` bytes from `address` (64-byte lines).
inline void prefetch_bytes(const void* address, std::size_t bytes) {
  const auto* line = static_cast<const char*>(address);
  for (std::size_t offset = 0; offset < bytes; offset += 64) prefetch_line(line + offset);
}

}  // namespace hitscan::bvh
