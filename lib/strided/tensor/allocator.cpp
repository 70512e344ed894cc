#include "strided/tensor/allocator.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

#include "strided/core/error.h"

// Under AddressSanitizer a cached block is poisoned while no tensor holds it, so that a use after
// free is still caught though the memory was never given back.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRIDED_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STRIDED_ASAN 1
#endif
#ifdef STRIDED_ASAN
#include <sanitizer/asan_interface.h>
#define STRIDED_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define STRIDED_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define STRIDED_POISON(p, n) ((void)(p), (void)(n))
#define STRIDED_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace strided {

namespace detail {
bool caching_allocator_env_enabled(const char* value) {
  if (value == nullptr) return true;
  for (const char* off : {"0", "off", "false", "no", "OFF", "FALSE", "NO"})
    if (std::strcmp(value, off) == 0) return false;
  return true;
}
}  // namespace detail

namespace {

void* system_allocate(int64_t nbytes) {
  // aligned_alloc's size must be a multiple of the alignment; a zero-byte storage still gets a
  // unique, valid pointer.
  const int64_t rounded = (nbytes + 63) / 64 * 64;
  return std::aligned_alloc(64, static_cast<size_t>(rounded > 0 ? rounded : 64));
}

int64_t round_large(int64_t nbytes) {
  // CUDACachingAllocator's get_allocation_size for sizes of kMinLargeAlloc and up; guarded so
  // that a request near INT64_MAX is passed on unrounded (the system refuses it).
  if (nbytes > INT64_MAX - kCachingRound) return nbytes;
  return (nbytes + kCachingRound - 1) / kCachingRound * kCachingRound;
}

class Cache {
 public:
  // Never destroyed: a tensor freed by another static's destructor at exit still finds its cache,
  // and the cached blocks stay reachable from it, so LeakSanitizer does not take them for leaks.
  static Cache& get() {
    static Cache* cache = new Cache;
    return *cache;
  }

  bool enabled() {
    std::lock_guard lock(mutex_);
    return enabled_;
  }

  void set_enabled(bool on) {
    std::lock_guard lock(mutex_);
    enabled_ = on;
    if (!on) release_all();
  }

  // reused: set to whether the block came from the cache.
  void* allocate(int64_t nbytes, bool& reused) {
    reused = false;
    std::unique_lock lock(mutex_);
    if (!enabled_) {
      lock.unlock();
      return system_allocate(nbytes);
    }
    const int64_t size = round_large(nbytes);
    // The smallest cached block of at least size bytes (ordered by size, then by age).
    auto it = free_.lower_bound({size, 0, nullptr});
    if (it != free_.end() && it->size - size < kCachingMaxRoundUp && it->size <= 2 * size) {
      Block b = *it;
      free_.erase(it);
      by_age_.erase(b.seq);
      stats_.blocks_cached -= 1;
      stats_.bytes_cached -= b.size;
      stats_.hits += 1;
      STRIDED_UNPOISON(b.ptr, static_cast<size_t>(b.size));
      hand_out(b.ptr, b.size);
      reused = true;
      return b.ptr;
    }
    stats_.misses += 1;
    void* p = system_allocate(size);
    if (p == nullptr && !free_.empty()) {
      // As CUDACachingAllocator's malloc retries after release_cached_blocks.
      release_all();
      p = system_allocate(size);
    }
    if (p != nullptr) hand_out(p, size);
    return p;
  }

  void deallocate(void* p) {
    // No block of the cache's alive: p is a small block, freed without the lock. (p's allocation
    // happened before its free, and live_ rose under the mutex before p was handed out.)
    if (live_.load(std::memory_order_acquire) == 0) {
      std::free(p);
      return;
    }
    std::lock_guard lock(mutex_);
    auto it = in_use_.find(p);
    if (it == in_use_.end()) {
      std::free(p);  // a small block, or one allocated while the cache was off
      return;
    }
    const int64_t size = it->second;
    in_use_.erase(it);
    live_.fetch_sub(1, std::memory_order_release);
    stats_.bytes_in_use -= size;
    if (!enabled_ || size > limit_) {
      std::free(p);
      return;
    }
    while (stats_.bytes_cached + size > limit_) evict_oldest();
    const uint64_t seq = ++seq_;
    free_.insert({size, seq, p});
    by_age_.emplace(seq, std::make_pair(size, p));
    stats_.blocks_cached += 1;
    stats_.bytes_cached += size;
    STRIDED_POISON(p, static_cast<size_t>(size));
  }

  void empty() {
    std::lock_guard lock(mutex_);
    release_all();
  }

  CachingAllocatorStats stats() {
    std::lock_guard lock(mutex_);
    return stats_;
  }

  void reset_stats() {
    std::lock_guard lock(mutex_);
    stats_.hits = stats_.misses = stats_.evictions = 0;
    stats_.peak_bytes_in_use = stats_.bytes_in_use;
    stats_.peak_bytes_reserved = stats_.bytes_in_use + stats_.bytes_cached;
  }

  int64_t limit() {
    std::lock_guard lock(mutex_);
    return limit_;
  }

  void set_limit(int64_t bytes) {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
    while (stats_.bytes_cached > limit_) evict_oldest();
  }

 private:
  struct Block {
    int64_t size;
    uint64_t seq;  // when it was freed: ties in size go to the oldest, eviction takes the oldest
    void* ptr;
    bool operator<(const Block& o) const {
      return size != o.size ? size < o.size : seq < o.seq;
    }
  };

  Cache() : enabled_(detail::caching_allocator_env_enabled(std::getenv("STRIDED_CACHING_ALLOCATOR"))) {}

  void hand_out(void* p, int64_t size) {
    in_use_.emplace(p, size);
    live_.fetch_add(1, std::memory_order_release);
    stats_.bytes_in_use += size;
    stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
    stats_.peak_bytes_reserved =
        std::max(stats_.peak_bytes_reserved, stats_.bytes_in_use + stats_.bytes_cached);
  }

  void give_back(const Block& b) {
    STRIDED_UNPOISON(b.ptr, static_cast<size_t>(b.size));
    std::free(b.ptr);
    stats_.blocks_cached -= 1;
    stats_.bytes_cached -= b.size;
  }

  void evict_oldest() {
    auto oldest = by_age_.begin();
    const Block b{oldest->second.first, oldest->first, oldest->second.second};
    by_age_.erase(oldest);
    free_.erase(b);
    give_back(b);
    stats_.evictions += 1;
  }

  void release_all() {
    for (const Block& b : free_) give_back(b);
    free_.clear();
    by_age_.clear();
  }

  std::mutex mutex_;
  bool enabled_;
  int64_t limit_ = kDefaultCacheLimit;
  uint64_t seq_ = 0;
  std::set<Block> free_;                                       // by size: best fit
  std::map<uint64_t, std::pair<int64_t, void*>> by_age_;       // by seq: eviction order
  std::unordered_map<void*, int64_t> in_use_;                  // the cache's blocks tensors hold
  std::atomic<int64_t> live_{0};                               // in_use_.size()
  CachingAllocatorStats stats_;
};

}  // namespace

namespace {
thread_local bool last_reused = false;
}  // namespace

void* cpu_allocate(int64_t nbytes) {
  last_reused = false;
  if (nbytes < kCachingThreshold) return system_allocate(nbytes);
  return Cache::get().allocate(nbytes, last_reused);
}

bool detail::last_allocation_reused() { return last_reused; }

void cpu_deallocate(void* p) { Cache::get().deallocate(p); }

bool caching_allocator_enabled() { return Cache::get().enabled(); }
void set_caching_allocator_enabled(bool enabled) { Cache::get().set_enabled(enabled); }
void empty_cache() { Cache::get().empty(); }
CachingAllocatorStats caching_allocator_stats() { return Cache::get().stats(); }
void reset_caching_allocator_stats() { Cache::get().reset_stats(); }
int64_t caching_allocator_limit() { return Cache::get().limit(); }

void set_caching_allocator_limit(int64_t bytes) {
  STRIDED_CHECK(bytes >= 0, "set_caching_allocator_limit",
                "expected a limit of at least 0 bytes, got ", bytes);
  Cache::get().set_limit(bytes);
}

namespace {
PageFaults faults_of(int who) {
  rusage u{};
  if (getrusage(who, &u) != 0) return {};
  return {static_cast<int64_t>(u.ru_minflt), static_cast<int64_t>(u.ru_majflt)};
}
}  // namespace

PageFaults process_page_faults() { return faults_of(RUSAGE_SELF); }
PageFaults thread_page_faults() { return faults_of(RUSAGE_THREAD); }

}  // namespace strided
