#pragma once
/// An allocator for large arrays: blocks of 2 MiB or more are aligned to 2 MiB and offered to the
/// kernel for transparent huge pages (madvise MADV_HUGEPAGE, Linux). Where the kernel says no (THP
/// disabled, another OS) the memory is ordinary memory. Smaller blocks come from operator new.
///
/// Two uses. A ray walking tens of megabytes of nodes and leaf packs at random then misses the TLB
/// once per 2 MiB rather than once per 4 KiB page (the 1.3M-triangle noisy sphere of the mesh
/// benchmark: about 15% more incoherent rays a second). And a build's fresh arrays are faulted in
/// once per 2 MiB rather than once per 4 KiB, which on a virtual machine that hands freed memory
/// back to its host is a large part of a big build (see BinaryBvh).

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hitscan {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: rebinding, as allocators do

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePageBytes) {
      ::operator delete(p, std::align_val_t{alignof(T)});
    } else {
      std::free(p);
    }
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

/// A vector on HugePageAllocator.
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace hitscan
