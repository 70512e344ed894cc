#include "strided/tensor/allocator.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "strided/core/error_of.h"
#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;

namespace {

constexpr int64_t MiB = int64_t{1} << 20;

// AddressSanitizer's allocator writes the shadow of every block it hands out (an eighth of its
// size), so there allocating does fault pages in.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

// Each case starts from an empty cache, on, with the default limit and zeroed counts.
struct Fresh {
  Fresh() {
    set_caching_allocator_enabled(true);
    set_caching_allocator_limit(kDefaultCacheLimit);
    empty_cache();
    reset_caching_allocator_stats();
  }
  ~Fresh() {
    set_caching_allocator_enabled(true);
    set_caching_allocator_limit(kDefaultCacheLimit);
    empty_cache();
  }
};

}  // namespace

// First in the file, before any case switches the cache: the ctest strided.allocator.off runs
// this program with STRIDED_CACHING_ALLOCATOR=0 and this case checks the cache started off.
TEST_CASE("the cache starts on or off as STRIDED_CACHING_ALLOCATOR says") {
  const char* value = std::getenv("STRIDED_CACHING_ALLOCATOR");
  CHECK(caching_allocator_enabled() == detail::caching_allocator_env_enabled(value));
  CHECK(detail::caching_allocator_env_enabled(nullptr));
  CHECK(detail::caching_allocator_env_enabled("1"));
  CHECK(detail::caching_allocator_env_enabled(""));
  CHECK_FALSE(detail::caching_allocator_env_enabled("0"));
  CHECK_FALSE(detail::caching_allocator_env_enabled("off"));
  CHECK_FALSE(detail::caching_allocator_env_enabled("false"));
}

TEST_CASE("a freed large block serves the next request it fits, without new pages") {
  Fresh fresh;
  void* first = nullptr;
  {
    Storage s = Storage::allocate(4 * MiB);
    first = s.data();
    std::memset(first, 1, 4 * MiB);  // fault its pages in
  }
  CHECK(caching_allocator_stats().bytes_cached == 4 * MiB);
  CHECK(caching_allocator_stats().blocks_cached == 1);
  const PageFaults before = process_page_faults();
  Storage again = Storage::allocate(4 * MiB - 100);
  std::memset(again.data(), 2, 4 * MiB - 100);
  const PageFaults after = process_page_faults();
  CHECK(again.data() == first);
  CHECK(caching_allocator_stats().hits == 1);
  CHECK(caching_allocator_stats().misses == 1);
  CHECK(caching_allocator_stats().bytes_cached == 0);
  // 1024 pages written, none of them new (a few faults of the test itself are allowed).
  CHECK(after.minor - before.minor < 64);
}

TEST_CASE("a block still in use is never handed out again") {
  Fresh fresh;
  Storage a = Storage::allocate(4 * MiB);
  Storage b = Storage::allocate(4 * MiB);
  CHECK(a.data() != b.data());
  CHECK(caching_allocator_stats().misses == 2);
  CHECK(caching_allocator_stats().hits == 0);
  Storage view = a;  // a second holder keeps the block in use
  a = Storage();
  Storage c = Storage::allocate(4 * MiB);
  CHECK(c.data() != view.data());
  CHECK(c.data() != b.data());
}

TEST_CASE("sizes round up to 2 MiB, and a cached block serves only requests close to its size") {
  Fresh fresh;
  {
    Storage s = Storage::allocate(5 * MiB);
    CHECK(caching_allocator_stats().bytes_in_use == 6 * MiB);
  }
  CHECK(caching_allocator_stats().bytes_in_use == 0);
  CHECK(caching_allocator_stats().bytes_cached == 6 * MiB);
  // 6 MiB serves 3.5 MiB (rounded to 4 MiB) but not 1.5 MiB (rounded to 2 MiB: three times as
  // small).
  { Storage s = Storage::allocate(MiB + MiB / 2); }
  CHECK(caching_allocator_stats().hits == 0);
  { Storage s = Storage::allocate(3 * MiB + MiB / 2); }
  CHECK(caching_allocator_stats().hits == 1);
  empty_cache();
  // 64 MiB serves 50 MiB (14 MiB more) but not 40 MiB (24 MiB more: past kCachingMaxRoundUp).
  { Storage s = Storage::allocate(64 * MiB); }
  reset_caching_allocator_stats();
  { Storage s = Storage::allocate(40 * MiB); }
  CHECK(caching_allocator_stats().hits == 0);
  { Storage s = Storage::allocate(50 * MiB); }
  CHECK(caching_allocator_stats().hits == 1);
}

TEST_CASE("small blocks bypass the cache") {
  Fresh fresh;
  { Storage s = Storage::allocate(kCachingThreshold - 1); }
  const CachingAllocatorStats st = caching_allocator_stats();
  CHECK(st.hits + st.misses == 0);
  CHECK(st.bytes_cached == 0);
  CHECK(st.bytes_in_use == 0);
}

TEST_CASE("the statistics count bytes in use, cached and their peaks") {
  Fresh fresh;
  {
    Storage a = Storage::allocate(8 * MiB);
    Storage b = Storage::allocate(2 * MiB);
    CHECK(caching_allocator_stats().bytes_in_use == 10 * MiB);
    CHECK(caching_allocator_stats().peak_bytes_in_use == 10 * MiB);
  }
  CachingAllocatorStats st = caching_allocator_stats();
  CHECK(st.bytes_in_use == 0);
  CHECK(st.bytes_cached == 10 * MiB);
  CHECK(st.blocks_cached == 2);
  CHECK(st.peak_bytes_in_use == 10 * MiB);
  CHECK(st.peak_bytes_reserved == 10 * MiB);
  reset_caching_allocator_stats();
  st = caching_allocator_stats();
  CHECK(st.peak_bytes_in_use == 0);
  CHECK(st.peak_bytes_reserved == 10 * MiB);
  CHECK(st.misses == 0);
  empty_cache();
  CHECK(caching_allocator_stats().bytes_cached == 0);
  CHECK(caching_allocator_stats().blocks_cached == 0);
}

TEST_CASE("off, every block comes from the system and goes back to it") {
  Fresh fresh;
  Storage held = Storage::allocate(4 * MiB);  // allocated on, freed off
  { Storage s = Storage::allocate(4 * MiB); }
  CHECK(caching_allocator_stats().bytes_cached == 4 * MiB);
  set_caching_allocator_enabled(false);
  CHECK_FALSE(caching_allocator_enabled());
  CHECK(caching_allocator_stats().bytes_cached == 0);  // turning it off empties the cache
  reset_caching_allocator_stats();
  for (int i = 0; i < 3; ++i) {
    Storage s = Storage::allocate(4 * MiB);
  }
  held = Storage();
  const CachingAllocatorStats st = caching_allocator_stats();
  CHECK(st.hits + st.misses == 0);
  CHECK(st.bytes_cached == 0);
  CHECK(st.bytes_in_use == 0);
}

TEST_CASE("the cache stays under its limit, evicting the least recently freed blocks") {
  Fresh fresh;
  set_caching_allocator_limit(8 * MiB);
  CHECK(caching_allocator_limit() == 8 * MiB);
  void* p[3];
  {
    Storage a = Storage::allocate(4 * MiB), b = Storage::allocate(4 * MiB),
            c = Storage::allocate(4 * MiB);
    p[0] = a.data();
    p[1] = b.data();
    p[2] = c.data();
    a = Storage();  // freed first: the one evicted
    b = Storage();
  }
  CachingAllocatorStats st = caching_allocator_stats();
  CHECK(st.bytes_cached == 8 * MiB);
  CHECK(st.evictions == 1);
  Storage x = Storage::allocate(4 * MiB), y = Storage::allocate(4 * MiB);
  CHECK(std::set<void*>{x.data(), y.data()} == std::set<void*>{p[1], p[2]});
  CHECK(caching_allocator_stats().hits == 2);
  x = Storage();
  y = Storage();
  // A block larger than the limit is not kept; a lower limit evicts at once.
  { Storage big = Storage::allocate(16 * MiB); }
  CHECK(caching_allocator_stats().bytes_cached == 8 * MiB);
  set_caching_allocator_limit(4 * MiB);
  CHECK(caching_allocator_stats().bytes_cached == 4 * MiB);
  set_caching_allocator_limit(0);
  CHECK(caching_allocator_stats().bytes_cached == 0);
  CHECK(error_of([] { set_caching_allocator_limit(-1); }) ==
        "set_caching_allocator_limit: expected a limit of at least 0 bytes, got -1");
}

TEST_CASE("a reused block is never assumed zero: zeros() fills it, empty() keeps what was there") {
  Fresh fresh;
  const int64_t n = 2 * MiB / 4;
  void* first = nullptr;
  {
    Tensor t = empty({n});
    first = t.data_ptr();
    t.fill_(Scalar(7.0));
  }
  Tensor z = zeros({n});
  CHECK(z.data_ptr() == first);
  const float* zp = z.data<float>();
  bool all_zero = true;
  for (int64_t i = 0; i < n; ++i) all_zero = all_zero && zp[i] == 0.0f;
  CHECK(all_zero);
  z.fill_(Scalar(7.0));
  z = Tensor();
  Tensor e = empty({n});
  CHECK(e.data_ptr() == first);
  CHECK(e.data<float>()[n / 2] == 7.0f);  // uninitialised: the last user's values
}

TEST_CASE("a loop of x.add(3) faults its output's pages in once") {
  Fresh fresh;
  Tensor x = ones({4 * MiB});  // 16 MiB of float32
  { Tensor warm = add(x, Scalar(int64_t{3})); }
  const PageFaults before = process_page_faults();
  for (int i = 0; i < 4; ++i) {
    Tensor y = add(x, Scalar(int64_t{3}));
    CHECK(y.data<float>()[123] == 4.0f);
  }
  const PageFaults after = process_page_faults();
  // Without the cache each call would fault 4096 pages in.
  CHECK(after.minor - before.minor < 256);
  CHECK(caching_allocator_stats().hits == 4);
}

TEST_CASE("threads allocating and freeing at once leave the counts consistent") {
  Fresh fresh;
  constexpr int kThreads = 4, kRounds = 100;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < kRounds; ++i) {
        Storage s = Storage::allocate((2 + (i + t) % 3) * MiB);
        static_cast<char*>(s.data())[0] = static_cast<char>(i);
      }
    });
  for (std::thread& th : threads) th.join();
  const CachingAllocatorStats st = caching_allocator_stats();
  CHECK(st.hits + st.misses == kThreads * kRounds);
  CHECK(st.bytes_in_use == 0);
  CHECK(st.blocks_cached <= kThreads * 3);
}

TEST_CASE("page-fault counts rise when fresh pages are touched") {
  set_caching_allocator_enabled(false);
  const int64_t bytes = 32 * MiB;
  const PageFaults before = process_page_faults(), thread_before = thread_page_faults();
  char* p = static_cast<char*>(cpu_allocate(bytes));
  const PageFaults allocated = process_page_faults();
  for (int64_t i = 0; i < bytes; i += 4096) p[i] = 1;
  const PageFaults after = process_page_faults(), thread_after = thread_page_faults();
  cpu_deallocate(p);
  set_caching_allocator_enabled(true);
  if (!kAsan) CHECK(allocated.minor - before.minor < 64);  // allocating touches no page (no memset)
  CHECK(after.minor - allocated.minor >= 8);   // 8192 pages, or 16 transparent huge pages
  CHECK(thread_after.minor - thread_before.minor >= 8);
  CHECK(after.major >= before.major);
}
