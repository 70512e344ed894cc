#include "strided/engine/parallel.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "strided/tensor/allocator.h"
#include "strided/strided.h"

using namespace strided;

namespace {

using Chunks = std::vector<std::pair<int64_t, int64_t>>;

Chunks chunks_of(int64_t begin, int64_t end, int64_t grain) {
  Chunks out;
  std::mutex m;
  parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    std::lock_guard lock(m);
    out.emplace_back(b, e);
  });
  std::sort(out.begin(), out.end());
  return out;
}

// Restores the thread count a case changed.
struct Threads {
  int saved = get_num_threads();
  explicit Threads(int n) { set_num_threads(n); }
  ~Threads() { set_num_threads(saved); }
};

}  // namespace

TEST_CASE("parallel_for splits as ParallelOpenMP.h: min(threads, divup(range, grain)) chunks") {
  {
    Threads t(2);
    CHECK(chunks_of(0, 100000, kGrainSize) == Chunks{{0, 50000}, {50000, 100000}});
    CHECK(chunks_of(0, kGrainSize, kGrainSize) == Chunks{{0, kGrainSize}});  // serial
    CHECK(chunks_of(0, kGrainSize + 1, kGrainSize) ==
          Chunks{{0, 16385}, {16385, kGrainSize + 1}});
  }
  {
    Threads t(4);
    // divup(70000, 32768) = 3 chunks of divup(70000, 3) = 23334.
    CHECK(chunks_of(10, 70010, kGrainSize) == Chunks{{10, 23344}, {23344, 46678}, {46678, 70010}});
    CHECK(chunks_of(0, 1000000, kGrainSize).size() == 4);
  }
  {
    Threads t(1);
    CHECK(chunks_of(0, 1000000, kGrainSize) == Chunks{{0, 1000000}});
  }
}

TEST_CASE("set_num_threads inside a chunk changes the next parallel_for, not the running one") {
  Threads t(2);
  Chunks seen;
  std::mutex m;
  parallel_for(0, 100000, kGrainSize, [&](int64_t b, int64_t e) {
    if (b == 0) set_num_threads(3);  // would deadlock if it waited for the running job
    std::lock_guard lock(m);
    seen.emplace_back(b, e);
  });
  CHECK(seen.size() == 2);
  CHECK(get_num_threads() == 3);
  CHECK(chunks_of(0, 99999, kGrainSize).size() == 3);
}

TEST_CASE("a fresh output's pages are first touched by the threads whose chunks write them") {
  Threads t(2);
  // Off, so that the block is new pages whatever ran before; 64 MiB of float32.
  set_caching_allocator_enabled(false);
  const int64_t n = int64_t{16} << 20;
  Storage s = Storage::allocate(n * 4);
  float* out = static_cast<float*>(s.data());
  std::mutex m;
  std::vector<int64_t> chunk_faults;
  const PageFaults before = process_page_faults();
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    const PageFaults mine = thread_page_faults();
    for (int64_t i = b; i < e; ++i) out[i] = 1.0f;
    const int64_t faults = thread_page_faults().minor - mine.minor;
    std::lock_guard lock(m);
    chunk_faults.push_back(faults);
  });
  const PageFaults after = process_page_faults();
  set_caching_allocator_enabled(true);
  REQUIRE(chunk_faults.size() == 2);
  int64_t in_chunks = 0;
  for (int64_t f : chunk_faults) {
    CHECK(f > 0);  // each thread faulted its own half in
    in_chunks += f;
  }
  // Nearly every fault of the write happened inside the chunks: allocation touched nothing.
  CHECK(in_chunks * 10 >= (after.minor - before.minor) * 9);
}
