// Chapter 6, section "First touch": what a fresh output costs before the kernel writes a byte. The
// kernel maps a fresh allocation's pages when they are first written, one page fault per page;
// PF-21 counts them around one out-of-place add with the caching allocator off and on
// (strided/tensor/allocator.h), and PF-22 times a fresh output, a cached one and a reused one.
#include <unistd.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
#include "strided/tensor/allocator.h"
#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;
using book::fixed;
using book::OneThread;
using book::Timed;
using book::timed_ratio;
using performance::pytorch;

namespace {

// 64 MiB of float32: above glibc's largest mmap threshold (32 MiB), so that with the cache off
// every output is mapped afresh and unmapped when freed. Below it glibc may keep a freed block on
// its heap and hand it out again, faulted in, which is a cache of its own.
constexpr int64_t kElements = int64_t{1} << 24;
// glibc's DEFAULT_MMAP_THRESHOLD_MAX (malloc/malloc.c): 4 MiB times sizeof(long).
constexpr int64_t kGlibcMmapThresholdMax = int64_t{4} * 1024 * 1024 * sizeof(long);
static_assert(kElements * 4 > kGlibcMmapThresholdMax);

// The bands of PF-21, as fractions of the output's pages: the kernel maps an anonymous page at its
// first write, one fault per page and no fault-around (that reads ahead only for file-backed
// pages), so the count of a fresh output is its page count plus the few faults of everything
// else the call touches; a reused block has no page left to map.
constexpr double kFreshBand = 0.10;   // fresh: within 10% of the page count
constexpr double kCachedBand = 0.01;  // cached: under 1% of it

// Where transparent huge pages apply to every anonymous mapping ("always", at the top or for one
// of the sizes), one fault may map up to 2 MiB, and PF-21's count is no longer one per page: the
// reason the claim is not run there; empty elsewhere ("madvise" or "never": glibc asks for none).
std::string huge_pages_always() {
  const std::string root = "/sys/kernel/mm/transparent_hugepage/";
  auto mode = [](const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
  };
  const bool top = mode(root + "enabled").find("[always]") != std::string::npos;
  if (top) return "transparent huge pages are 'always' on this machine: a fault may map 2 MiB";
  for (const char* size : {"16kB", "32kB", "64kB", "128kB", "256kB", "512kB", "1024kB", "2048kB"})
    if (mode(root + "hugepages-" + size + "/enabled").find("[always]") != std::string::npos)
      return std::string("transparent huge pages of ") + size +
             " are 'always' on this machine: a fault may map more than a page";
  return {};
}

// Sets the cache on or off for a scope and puts back what was set before.
// Minor and major page faults of the whole process so far (getrusage).
int64_t page_faults() {
  const PageFaults f = process_page_faults();
  return f.minor + f.major;
}

class CacheSetting {
 public:
  explicit CacheSetting(bool on) : before_(caching_allocator_enabled()) {
    set_caching_allocator_enabled(on);
  }
  ~CacheSetting() { set_caching_allocator_enabled(before_); }
  CacheSetting(const CacheSetting&) = delete;
  CacheSetting& operator=(const CacheSetting&) = delete;

 private:
  bool before_;
};

}  // namespace

void performance::first_touch(book::Chapter& ch) {
  // ---- First touch ------------------------------------------------------------------------------------------
  ch.section("first_touch", "First touch: what a fresh output costs");

  ch.claim("PF-21",
           "One out-of-place x.add(3) over a 64 MiB float32 output takes one page fault per "
           "4 KiB page of it, within 10%, when its output comes fresh from the system (caching "
           "allocator off), and fewer than 1% of that count when the output is a cached block "
           "that an earlier add already wrote.",
           [](book::Check& c) {
             const std::string huge = huge_pages_always();
             if (!huge.empty()) return c.not_run(huge);
             if (book::sanitizer_build())
               return c.not_run("a sanitizer build: AddressSanitizer maps shadow memory for every "
                                "allocation, page faults that are not the add's");
             Generator gen(21);
             Tensor x = rand({kElements}, gen);
             const int64_t page = sysconf(_SC_PAGESIZE);
             const int64_t pages = x.numel() * x.element_size() / page;
             int64_t fresh = 0, cached = 0, hits = 0;
             {
               CacheSetting restore(caching_allocator_enabled());
               //! [first_touch]
               // Cache off: every output from the system, given back when freed.
               set_caching_allocator_enabled(false);
               int64_t before = page_faults();
               { Tensor y = x + 3; }  // x.add(3); y's storage is freed here
               fresh = page_faults() - before;

               // Cache on: the first add's block is kept when y is freed...
               set_caching_allocator_enabled(true);
               { Tensor y = x + 3; }
               // ...and the second add gets it back, its pages already mapped.
               before = page_faults();
               const int64_t hits_before = caching_allocator_stats().hits;
               { Tensor y = x + 3; }
               cached = page_faults() - before;
               //! [first_touch]
               hits = caching_allocator_stats().hits - hits_before;
             }
             c.judge("page faults, fresh output", std::to_string(fresh),
                     "within " + fixed(100 * kFreshBand, 0) + "% of " + std::to_string(pages),
                     fresh >= (1 - kFreshBand) * pages && fresh <= (1 + kFreshBand) * pages);
             c.judge("page faults, cached output", std::to_string(cached),
                     "fewer than " + fixed(kCachedBand * pages, 0),
                     cached < kCachedBand * pages);
             c.equal("blocks the cache served to the second add", hits, int64_t{1});
             // PyTorch 1.13's CPU allocator has no cache: each fresh output faults its pages in,
             // as the library's does with the cache off.
             pytorch().compare_value(c, "first_touch", "0.9 * pages <= fresh <= 1.1 * pages",
                                     fresh >= 0.9 * pages && fresh <= 1.1 * pages);
             pytorch().compare_value(c, "first_touch", "pages", pages);
             c.value("ft_mib", x.numel() * x.element_size() >> 20);
             c.value("ft_page_kib", page / 1024);
             c.value("ft_pages", pages);
             c.value("ft_fresh", fresh);
             c.value("ft_cached", cached);
             c.value("ft_fresh_band", fixed(100 * kFreshBand, 0));
             // The allocator's constants and glibc's, for the page to name.
             c.value("ft_threshold_mib", kCachingThreshold >> 20);
             c.value("ft_round_mib", kCachingRound >> 20);
             c.value("ft_limit_gib", kDefaultCacheLimit >> 30);
             c.value("ft_glibc_mib", kGlibcMmapThresholdMax >> 20);
             c.value("ft_cached_band", fixed(100 * kCachedBand, 0));
           }).model();

  ch.claim("PF-22",
           "With the caching allocator off, x.add(3) into a fresh 64 MiB output is measurably "
           "slower than the same add into an output it reuses; with the cache on, a loop of "
           "x.add(3) takes about as long as the reused output.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             OneThread one;
             Generator gen(22);
             Tensor x = rand({kElements}, gen);
             //! [first_touch_timing]
             Tensor out = x + 3;  // allocated once, written by every call
             auto reused = [&] {  // torch.add(x, 3, out=out)
               run_binary(BinaryOp::Add, binary_plan(BinaryOp::Add, out, x, Scalar(int64_t{3})));
             };
             auto fresh = [&] { Tensor y = x + 3; };  // x.add(3): a new output, freed at once
             //! [first_touch_timing]
             const void* before = out.data_ptr();
             reused();
             pytorch().compare_value(c, "first_touch_timing",
                                     "torch.add(x, 3, out=out).data_ptr() == out.data_ptr()",
                                     out.data_ptr() == before);
             auto faults_of = [](const std::function<void()>& f) {
               f();  // once to settle the cache and the plan
               const int64_t before = page_faults();
               f();
               return page_faults() - before;
             };
             std::vector<Timed> rows;
             int64_t fresh_faults = 0, cached_faults = 0;
             {
               CacheSetting off(false);
               fresh_faults = faults_of(fresh);
               rows.push_back(timed_ratio(c, "fresh output, cache off / reused output",
                                          "ft_fresh", reused, fresh, book::slower()));
             }
             {
               CacheSetting on(true);
               cached_faults = faults_of(fresh);
               rows.push_back(timed_ratio(c, "x.add(3), cache on / reused output", "ft_cached",
                                          reused, fresh, book::about_as_fast()));
             }
             const int64_t reused_faults = faults_of(reused);
             c.record("page faults per call, fresh output (cache off)", fresh_faults);
             c.record("page faults per call, x.add(3) with the cache on", cached_faults);
             c.record("page faults per call, reused output", reused_faults);
             c.value("ft_t_fresh_faults", fresh_faults);
             c.value("ft_t_cached_faults", cached_faults);
             c.value("ft_t_reused_faults", reused_faults);
             c.value("ft_t_mib", x.numel() * x.element_size() >> 20);
             // As the table's ms column reads: the fresh call's time over the cached call's.
             c.value("ft_fresh_vs_cached", fixed(rows[0].b_ms / rows[1].b_ms, 1));
             c.value("ft_fault_us", fixed(1e3 * (rows[0].b_ms - rows[0].a_ms) / fresh_faults, 2));
             // Each ratio is against the reused output timed beside it, in the same repeats, and
             // is the median of the repeats' ratios: the table gives that reused time too, since
             // the ratio of two medians need not be the median of the ratios.
             auto ratio_cell = [](const Timed& t) {
               return fixed(t.ratio) + " ± " + fixed(100 * t.spread, 1) + "%";
             };
             c.table("ft_table", {"output", "ms per call", "reused output timed beside it, ms",
                                  "÷ reused (median of repeats)", "page faults per call"},
                     {{"fresh, cache off", fixed(rows[0].b_ms), fixed(rows[0].a_ms),
                       ratio_cell(rows[0]), std::to_string(fresh_faults)},
                      {"x.add(3), cache on", fixed(rows[1].b_ms), fixed(rows[1].a_ms),
                       ratio_cell(rows[1]), std::to_string(cached_faults)},
                      {"reused (out=)", "(beside each)", "—", "1", std::to_string(reused_faults)}});
             rows[0].label = "fresh, cache off";
             rows[1].label = "cached, cache on";
             ratio_figure(c, "ft_ratios", rows,
                          "x.add(3) over 64 MiB: time relative to writing into a reused output, "
                          "with the caching allocator off and on, in this run.");
           }).timing();
}
