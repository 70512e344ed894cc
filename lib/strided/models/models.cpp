#include "strided/models/models.h"

#include <algorithm>
#include <unordered_set>

#include "strided/core/error.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"

namespace strided::models {

namespace {

// Byte offset of a tensor's first element from its storage's first byte.
int64_t base_offset(const Tensor& t) { return t.storage_offset() * t.element_size(); }

// Lines [first, last] an access of width bytes at address spans.
std::pair<int64_t, int64_t> lines_of(int64_t address, int64_t width, int64_t line_bytes) {
  // Addresses are non-negative (storage offsets and strides are), so / is floor division.
  return {address / line_bytes, (address + std::max<int64_t>(width, 1) - 1) / line_bytes};
}

}  // namespace

// ---- traces -----------------------------------------------------------------------------------------

Trace logical_trace(const Tensor& t) {
  Trace trace;
  trace.width = t.element_size();
  const int64_t n = t.numel();
  trace.bytes.reserve(static_cast<size_t>(n));
  if (n == 0) return trace;
  Shape steps = t.strides();
  for (int64_t& s : steps) s *= t.element_size();
  const int64_t base = base_offset(t);
  // The index in row-major order, the address following it by the strides in bytes.
  for_each_index(t.sizes(), {steps}, 0, n,
                 [&](const int64_t* off) { trace.bytes.push_back(base + off[0]); });
  return trace;
}

Trace plan_trace(const TensorIterator& plan, int k) {
  STRIDED_CHECK(k >= 0 && k < plan.ntensors(), "plan_trace", "operand ", k,
                " out of range for a plan of ", plan.ntensors(), " operands");
  const IterOperand& op = plan.operand(k);
  Trace trace;
  trace.width = op.element_size();
  const int64_t base = base_offset(op.tensor);
  const int64_t n = plan.numel();
  trace.bytes.reserve(static_cast<size_t>(n));
  // The plan's own walk, so the trace is the kernel's order by construction, not a re-derivation.
  plan.serial_for_each(
      [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        const int64_t first = data[k] - op.data();
        for (int64_t j = 0; j < size1; ++j)
          for (int64_t i = 0; i < size0; ++i)
            trace.bytes.push_back(base + first + j * strides[plan.ntensors() + k] + i * strides[k]);
      },
      0, n);
  return trace;
}

std::vector<Trace> apart(std::vector<Trace> traces, const std::vector<const void*>& keys,
                         int64_t line_bytes) {
  STRIDED_CHECK(line_bytes > 0, "apart", "line_bytes must be positive, got ", line_bytes);
  STRIDED_CHECK(keys.size() == traces.size(), "apart", traces.size(), " traces but ", keys.size(),
                " keys");
  // Each storage's lowest byte over all its traces, so that one shift serves all of them.
  std::vector<std::pair<const void*, int64_t>> lowest;  // in first-seen order
  for (size_t k = 0; k < traces.size(); ++k) {
    if (traces[k].bytes.empty()) continue;
    const int64_t lo = *std::min_element(traces[k].bytes.begin(), traces[k].bytes.end());
    auto it = std::find_if(lowest.begin(), lowest.end(),
                           [&](const auto& e) { return e.first == keys[k]; });
    if (it == lowest.end()) lowest.emplace_back(keys[k], lo);
    else it->second = std::min(it->second, lo);
  }
  int64_t next = 0;  // the first free line boundary past everything placed so far
  for (size_t s = 0; s < lowest.size(); ++s) {
    const int64_t shift = s == 0 ? 0 : next - lowest[s].second;
    for (size_t k = 0; k < traces.size(); ++k) {
      if (keys[k] != lowest[s].first || traces[k].bytes.empty()) continue;
      for (int64_t& b : traces[k].bytes) b += shift;
      const int64_t end = *std::max_element(traces[k].bytes.begin(), traces[k].bytes.end()) +
                          traces[k].width;  // one past the trace's last byte
      next = std::max(next, (end + line_bytes - 1) / line_bytes * line_bytes);
    }
  }
  return traces;
}

Trace stride_sorted_trace(const Tensor& t) {
  return plan_trace(unary_plan(UnaryOp::Neg, Tensor(), t), 1);
}

Trace interleave(const std::vector<Trace>& traces) {
  Trace out;
  if (traces.empty()) return out;
  const int64_t n = traces.front().size();
  int64_t width = 0;
  for (const Trace& t : traces) {
    STRIDED_CHECK(t.size() == n, "interleave", "traces of different lengths, ", n, " and ",
                  t.size());
    width = std::max(width, t.width);
  }
  // One width for the merged trace: the widest. Equal-dtype operands (the book's case) lose nothing.
  out.width = width;
  out.bytes.reserve(static_cast<size_t>(n) * traces.size());
  for (int64_t i = 0; i < n; ++i)
    for (const Trace& t : traces) out.bytes.push_back(t.bytes[static_cast<size_t>(i)]);
  return out;
}

// ---- locality ----------------------------------------------------------------------------------------

bool is_monotone(IntList sizes, IntList strides, bool strict) {
  STRIDED_CHECK(sizes.size() == strides.size(), "is_monotone", sizes.size(), " sizes but ",
                strides.size(), " strides");
  for (size_t d = 0; d < sizes.size(); ++d) {
    STRIDED_CHECK(sizes[d] >= 0 && strides[d] >= 0, "is_monotone", "negative size or stride ",
                  sizes[d], ", ", strides[d], " at dim ", d);
    if (sizes[d] == 0) return true;  // an empty walk visits nothing
  }
  int64_t inner_extent = 0;  // sum over inner dims of (size - 1) * stride: the inner block's reach
  for (size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] == 1) continue;  // never stepped: imposes nothing
    // Stepping dim d moves by strides[d] and resets the inner dims, moving back by inner_extent.
    if (strict ? strides[d] <= inner_extent : strides[d] < inner_extent) return false;
    inner_extent += (sizes[d] - 1) * strides[d];
  }
  return true;
}

bool is_sorted(const Trace& trace, bool strict) {
  for (size_t i = 1; i < trace.bytes.size(); ++i)
    if (strict ? trace.bytes[i] <= trace.bytes[i - 1] : trace.bytes[i] < trace.bytes[i - 1])
      return false;
  return true;
}

// ---- cache lines ---------------------------------------------------------------------------------------

int64_t distinct_lines(const Trace& trace, int64_t line_bytes) {
  STRIDED_CHECK(line_bytes > 0, "distinct_lines", "line size must be positive, got ", line_bytes);
  std::unordered_set<int64_t> lines;
  for (int64_t a : trace.bytes) {
    const auto [first, last] = lines_of(a, trace.width, line_bytes);
    for (int64_t l = first; l <= last; ++l) lines.insert(l);
  }
  return static_cast<int64_t>(lines.size());
}

double lines_per_window(const Trace& trace, int64_t window, int64_t line_bytes) {
  STRIDED_CHECK(window > 0 && line_bytes > 0, "lines_per_window",
                "window and line size must be "
                "positive, got ",
                window, " and ", line_bytes);
  int64_t total = 0, windows = 0;
  std::vector<int64_t> lines;
  for (int64_t start = 0; start < trace.size(); start += window) {
    lines.clear();
    const int64_t end = std::min(trace.size(), start + window);
    for (int64_t i = start; i < end; ++i) {
      const auto [first, last] = lines_of(trace.bytes[static_cast<size_t>(i)], trace.width,
                                          line_bytes);
      for (int64_t l = first; l <= last; ++l) lines.push_back(l);
    }
    std::sort(lines.begin(), lines.end());
    total += std::unique(lines.begin(), lines.end()) - lines.begin();
    ++windows;
  }
  return windows ? double(total) / double(windows) : 0.0;
}

LruCache::LruCache(int64_t capacity_bytes, int64_t line_bytes)
    : capacity_lines_(line_bytes > 0 ? capacity_bytes / line_bytes : 0), line_bytes_(line_bytes) {
  STRIDED_CHECK(line_bytes > 0, "LruCache", "line size must be positive, got ", line_bytes);
  STRIDED_CHECK(capacity_lines_ >= 1, "LruCache", "a capacity of ", capacity_bytes,
                " bytes holds no line of ", line_bytes, " bytes");
  where_.reserve(static_cast<size_t>(std::min<int64_t>(capacity_lines_, 1 << 20)) + 1);
}

bool LruCache::touch(int64_t line) {
  auto it = where_.find(line);
  if (it != where_.end()) {
    recency_.splice(recency_.begin(), recency_, it->second);  // now the most recent
    ++hits_;
    return false;
  }
  ++misses_;
  if (static_cast<int64_t>(recency_.size()) == capacity_lines_) {
    where_.erase(recency_.back());  // evict the least recently used line
    recency_.pop_back();
  }
  recency_.push_front(line);
  where_[line] = recency_.begin();
  return true;
}

int64_t LruCache::access(int64_t address, int64_t width) {
  STRIDED_CHECK(address >= 0 && width >= 1, "LruCache::access", "address ", address, " and width ",
                width, " must be non-negative and positive");
  const auto [first, last] = lines_of(address, width, line_bytes_);
  int64_t missed = 0;
  for (int64_t l = first; l <= last; ++l) missed += touch(l);
  return missed;
}

int64_t lru_misses(const Trace& trace, int64_t capacity_bytes, int64_t line_bytes) {
  LruCache cache(capacity_bytes, line_bytes);
  for (int64_t a : trace.bytes) cache.access(a, trace.width);
  return cache.misses();
}

// ---- GPU sectors ---------------------------------------------------------------------------------------

SectorCount warp_sectors(const Trace& trace, int64_t lanes, int64_t sector_bytes) {
  STRIDED_CHECK(lanes > 0 && sector_bytes > 0, "warp_sectors",
                "lanes and sector size must be "
                "positive, got ",
                lanes, " and ", sector_bytes);
  SectorCount count;
  std::vector<int64_t> sectors;
  for (int64_t start = 0; start < trace.size(); start += lanes) {
    sectors.clear();
    const int64_t end = std::min(trace.size(), start + lanes);
    for (int64_t i = start; i < end; ++i) {
      const auto [first, last] = lines_of(trace.bytes[static_cast<size_t>(i)], trace.width,
                                          sector_bytes);
      for (int64_t s = first; s <= last; ++s) sectors.push_back(s);
    }
    std::sort(sectors.begin(), sectors.end());
    const int64_t distinct = std::unique(sectors.begin(), sectors.end()) - sectors.begin();
    count.sectors += distinct;
    count.max_per_request = std::max(count.max_per_request, distinct);
    ++count.requests;
  }
  return count;
}

}  // namespace strided::models
