#include "strided/engine/streaming.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "strided/memory/memory.h"

namespace strided {

namespace {

std::atomic<bool>& enabled() {
  static std::atomic<bool> on{detail::streaming_env_enabled(std::getenv("STRIDED_STREAMING_STORES"))};
  return on;
}

int64_t last_level_cache_bytes() {
#if defined(_SC_LEVEL3_CACHE_SIZE)
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) return l3;
#endif
#if defined(_SC_LEVEL2_CACHE_SIZE)
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) return l2;
#endif
  return 0;
}

}  // namespace

bool streaming_stores_enabled() { return enabled().load(std::memory_order_relaxed); }
void set_streaming_stores(bool on) { enabled().store(on, std::memory_order_relaxed); }

static int64_t default_threshold_bytes() {
  static const int64_t bytes = [] {
    const int64_t llc = last_level_cache_bytes();
    return llc > 0 ? llc / 2 : int64_t{16} << 20;
  }();
  return bytes;
}

static std::atomic<int64_t>& threshold() {
  static std::atomic<int64_t> bytes{default_threshold_bytes()};
  return bytes;
}

int64_t streaming_threshold_bytes() { return threshold().load(std::memory_order_relaxed); }
void set_streaming_threshold_bytes(int64_t bytes) {
  threshold().store(bytes < 0 ? default_threshold_bytes() : bytes, std::memory_order_relaxed);
}

namespace detail {

bool streaming_env_enabled(const char* value) { return !(value && std::strcmp(value, "0") == 0); }

bool streams_output(const TensorIterator& it) {
  if (!streaming_stores_enabled() || it.noutputs() != 1) return false;
  const IterOperand& out = it.operand(0);
  if (out.is_read_write || out.fresh_pages ||
      it.numel() * out.element_size() < streaming_threshold_bytes())
    return false;
  for (int k = 1; k < it.ntensors(); ++k) {
    const IterOperand& in = it.operand(k);
    if (in.wrapped_number || !in.tensor.storage().is_same(out.tensor.storage())) continue;
    if (get_overlap_status(out.tensor, in.tensor) != MemOverlapStatus::No) return false;
  }
  return true;
}

}  // namespace detail

}  // namespace strided
