// The CPU allocator: a cache of large blocks in front of the system's allocator, in the manner of
// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp), so that a loop of
// x.add(3) pays a fresh output's first-touch page faults once rather than on every call.
//
// - Blocks of at least kCachingThreshold bytes (1 MiB, CUDACachingAllocator's kSmallSize) are
//   rounded up to a multiple of 2 MiB (its kRoundLarge) and, when freed, kept in a pool ordered by
//   size instead of going back to the system. Below 1 MiB glibc's own free lists reuse blocks;
//   above its mmap threshold (128 KiB at start, rising with each freed mmap'd block up to 32 MiB)
//   glibc maps every block afresh and unmaps it on free, so each use pays one page fault per 4 KiB
//   page, the kernel zeroing the page, and that costs more than a memory-bound op's arithmetic.
// - A request takes the smallest cached block that fits (get_free_block's lower_bound). Blocks are
//   never split, so, as CUDACachingAllocator does for its unsplittable "oversize" blocks, a cached
//   block serves a request only if it is less than kLargeBuffer (20 MiB) larger; here also at most
//   twice the request, so a 1 MiB tensor cannot pin a 20 MiB block.
// - A reused block holds whatever its last user wrote: empty() is uninitialised here as in
//   PyTorch (zeros() fills).
// - The cache is bounded: free blocks are kept up to a limit (default kDefaultCacheLimit, 1 GiB,
//   twice the largest output the book times); freeing a block past it evicts the least recently
//   freed blocks first, and a block larger than the limit goes straight back to the system.
// - On by default; set_caching_allocator_enabled(false), or STRIDED_CACHING_ALLOCATOR=0 in the
//   environment at start-up, turns it off (every block then comes from and goes back to the
//   system, as PyTorch's CPU allocator does). Thread-safe: one mutex guards the pool.
#pragma once

#include <cstdint>

namespace strided {

inline constexpr int64_t kCachingThreshold = int64_t{1} << 20;
inline constexpr int64_t kCachingRound = int64_t{2} << 20;
inline constexpr int64_t kCachingMaxRoundUp = int64_t{20} << 20;
inline constexpr int64_t kDefaultCacheLimit = int64_t{1} << 30;

// What the cache did since the program started (or since reset_caching_allocator_stats): the
// counts are of requests of at least kCachingThreshold bytes made while the cache was on.
struct CachingAllocatorStats {
  int64_t hits = 0;               // served from a cached block: no new pages
  int64_t misses = 0;             // served by the system: fresh pages
  int64_t evictions = 0;          // cached blocks given back to keep under the limit
  int64_t blocks_cached = 0;      // free blocks kept now
  int64_t bytes_cached = 0;       // their bytes
  int64_t bytes_in_use = 0;       // bytes of the cache's blocks that tensors hold now
  int64_t peak_bytes_in_use = 0;  // the most bytes_in_use has been
  int64_t peak_bytes_reserved = 0;  // the most in use + cached has been
};

// The CPU device's allocate and deallocate (storage.cpp registers them).
void* cpu_allocate(int64_t nbytes);
void cpu_deallocate(void* p);

bool caching_allocator_enabled();
// Off also empties the cache; blocks tensors still hold go back to the system when freed.
void set_caching_allocator_enabled(bool enabled);
// Gives every cached block back to the system (torch.cuda.empty_cache); blocks in use stay.
void empty_cache();
CachingAllocatorStats caching_allocator_stats();
// Zeroes hits, misses and evictions and sets the peaks to the current values
// (torch.cuda.reset_peak_memory_stats and reset_accumulated_memory_stats).
void reset_caching_allocator_stats();
int64_t caching_allocator_limit();
// bytes >= 0; evicts at once what is over the new limit.
void set_caching_allocator_limit(int64_t bytes);

// Page faults so far (getrusage's ru_minflt and ru_majflt): a minor fault maps a page that needs
// no disk, the first touch of a fresh page among them. A chapter reads them before and after a
// call to count the pages the call faulted in; thread_page_faults counts the calling thread's only
// (RUSAGE_THREAD), so a parallel kernel's chunk can count its own.
struct PageFaults {
  int64_t minor = 0;
  int64_t major = 0;
};
PageFaults process_page_faults();
PageFaults thread_page_faults();

namespace detail {
// Whether the calling thread's last cpu_allocate handed out a cached block, whose pages a previous
// user has already faulted in; false for a block fresh from the system. The element-wise loops
// stream only into mapped pages (engine/streaming.h).
bool last_allocation_reused();
// How STRIDED_CACHING_ALLOCATOR's value reads: unset, empty or anything else is on; "0", "off",
// "false" or "no" is off.
bool caching_allocator_env_enabled(const char* value);
}  // namespace detail

}  // namespace strided
