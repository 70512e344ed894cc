// Access-pattern models: what a traversal asks of memory, computed without timing anything.
//
// A timing says how long a walk took on one machine; these models say why, in numbers every
// machine agrees on. They all start from a *trace*: the byte addresses one operand is accessed at,
// in the order of a traversal, each access `width` bytes wide. Addresses are counted from the
// first byte of the operand's storage, so alignment questions (PF-06) are answered under the
// assumption that a storage starts on a line boundary: cudaMalloc returns 256-byte aligned memory
// (CUDA C++ Programming Guide, "Device Memory Accesses") and our CPU storage 64-byte aligned memory
// (storage.cpp), and only the position within a 32-byte sector or a 64-byte line matters here.
//
// Two orders (claims PF-01, ER-04):
//   - logical: the tensor's own index order, last dim fastest, as a Python loop over t[i][j][k];
//   - plan:    the order the engine walks, taken from the TensorIterator an op builds
//              (iterator.h: plan dim 0 innermost, operand(k).stride_bytes), so a model and a
//              timing speak about the same traversal.
// And three measures of a trace:
//   - distinct cache lines (64 bytes by default): the data a CPU must bring in at least once;
//   - an LRU cache of a given capacity: fully associative, so it counts capacity misses only, never
//     conflict misses — a lower bound for a real set-associative cache of that size;
//   - 32-byte sectors per warp request: a CUDA warp is 32 threads issuing one load each; the memory
//     system serves the request in 32-byte sectors (CUDA C++ Best Practices Guide, "Coalesced
//     Access to Global Memory"), so 32 consecutive floats cost 4 sectors and scattered ones 32.
#pragma once

#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/core/shape.h"
#include "strided/tensor/tensor.h"

namespace strided::models {

// The addresses of one operand's accesses, in traversal order, each `width` bytes wide.
struct Trace {
  std::vector<int64_t> bytes;  // byte offsets from the first byte of the storage
  int64_t width = 4;           // bytes per access: the element size
  int64_t size() const { return static_cast<int64_t>(bytes.size()); }
};

// ---- traces ---------------------------------------------------------------------------------------
// t's elements in logical (row-major index) order: for t[i][j][k], k fastest.
Trace logical_trace(const Tensor& t);
// Operand k of a plan, in the order the plan walks it (serial_for_each: plan dim 0 fastest).
Trace plan_trace(const TensorIterator& plan, int k);
// The order a unary element-wise op walks t: the plan of neg(t) (ops.h unary_plan), its input.
Trace stride_sorted_trace(const Tensor& t);
// Several operands' traces merged access by access — a[0], b[0], out[0], a[1], ... — the stream a
// cache sees when one loop reads and writes them together. All traces must have one length.
Trace interleave(const std::vector<Trace>& traces);
// Operands' traces moved into one address space, as their storages lie in memory: traces with
// equal keys[k] (one storage, as x and x.t() in x * x.t()) move together, and each new storage
// starts at the first line boundary past every byte placed so far; the first stays where it is.
// plan_trace counts each operand from its own storage's first byte, so the traces of x, y and
// x * y's output all start at 0; merged as they are, a cache model would see the three tensors in
// the same lines. Distinct allocations share no line, and after apart() distinct keys do not.
std::vector<Trace> apart(std::vector<Trace> traces, const std::vector<const void*>& keys,
                         int64_t line_bytes = 64);

// ---- locality --------------------------------------------------------------------------------------
// Does a loop nest visit non-decreasing addresses? sizes and strides are given outermost loop first
// (any units). It does iff, for every dim k of size > 1, stride_k >= sum over the dims m inside it
// of (size_m - 1) * stride_m: stepping dim k and resetting the inner ones never goes back. With
// strict, addresses must strictly increase (stride_k > that sum, and the innermost stride > 0).
// Claim PF-03; the condition is the correction of ER-06.
bool is_monotone(IntList sizes, IntList strides, bool strict = false);
// Is a trace non-decreasing (strictly increasing with strict)?
bool is_sorted(const Trace& trace, bool strict = false);

// ---- cache lines -----------------------------------------------------------------------------------
// Distinct lines of line_bytes touched by the trace (an access spanning two lines touches both).
int64_t distinct_lines(const Trace& trace, int64_t line_bytes = 64);
// The trace cut into consecutive windows of `window` accesses: the total of each window's distinct
// lines, divided by the number of windows (the last window may be shorter). For window = 16 and a
// float32 trace, 1 means every 16 accesses stay in one line.
double lines_per_window(const Trace& trace, int64_t window, int64_t line_bytes = 64);

// A fully associative cache of capacity_bytes / line_bytes lines that evicts the least recently
// used line. Each access touches every line its bytes span.
class LruCache {
 public:
  // capacity_bytes must hold at least one line; line_bytes must be positive.
  LruCache(int64_t capacity_bytes, int64_t line_bytes = 64);
  // Accesses [address, address + width); returns the number of lines that missed.
  int64_t access(int64_t address, int64_t width = 1);
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }
  int64_t capacity_lines() const { return capacity_lines_; }
  int64_t line_bytes() const { return line_bytes_; }

 private:
  bool touch(int64_t line);
  int64_t capacity_lines_, line_bytes_;
  int64_t hits_ = 0, misses_ = 0;
  std::list<int64_t> recency_;  // most recently used first
  std::unordered_map<int64_t, std::list<int64_t>::iterator> where_;
};

// Misses of a cold LruCache that sees the whole trace.
int64_t lru_misses(const Trace& trace, int64_t capacity_bytes, int64_t line_bytes = 64);

// ---- GPU sectors -----------------------------------------------------------------------------------
struct SectorCount {
  int64_t requests = 0;        // warp requests: the trace cut into groups of `lanes` accesses
  int64_t sectors = 0;         // sum over requests of the distinct sectors each touches
  int64_t max_per_request = 0;
  double per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
};
// The trace read as warp requests: accesses 0..lanes-1 are one request (lane l issues access l),
// the next lanes accesses the next request, and so on; each request costs the distinct sectors of
// sector_bytes its accesses span. For a warp whose lanes walk a tensor's dim, pass the logical
// trace of a view whose last dim is the lane (see chapter 6, PF-13).
SectorCount warp_sectors(const Trace& trace, int64_t lanes = 32, int64_t sector_bytes = 32);

}  // namespace strided::models
