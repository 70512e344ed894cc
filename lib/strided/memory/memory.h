// Memory sets and overlap: which storage elements a tensor's elements occupy, whether one tensor is
// a view of another, and whether two tensors (or two elements of one tensor) share memory.
//
// Two kinds of overlap test live side by side, because the book contrasts them:
//  - the exact test, NumPy's bounded Diophantine search (numpy/core/src/common/mem_overlap.c,
//    solve_may_share_memory and solve_may_have_internal_overlap): Yes, No, or TooHard when the
//    work budget runs out;
//  - PyTorch's cheap tests (aten/src/ATen/MemoryOverlap.cpp): has_internal_overlap (layout.h) and
//    get_overlap_status, which answer TooHard for anything that is not non-overlapping and dense.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/layout/layout.h"
#include "strided/core/shape.h"
#include "strided/tensor/tensor.h"

namespace strided {

// ---- memory sets ---------------------------------------------------------------------------------

// Memory sets are enumerated element by element, so they refuse tensors with more elements than
// this (the error names the tensor's shape and the limit).
inline constexpr int64_t kMemorySetLimit = int64_t{1} << 24;

// The memory set (seed 000, "Memory topology"; claim MT-08), in elements: the sorted, duplicate-free
// storage offsets offset + sum_k i_k * strides[k] over every index of the shape. It depends on the
// sizes, strides and offset only, never on the storage. Empty for a tensor with no elements.
std::vector<int64_t> memory_set(IntList sizes, IntList strides, int64_t storage_offset,
                                int64_t limit = kMemorySetLimit);
std::vector<int64_t> memory_set(const Tensor& t, int64_t limit = kMemorySetLimit);

// The seed's own definition, in bytes from the storage's start: every byte of every element,
// {itemsize * e + k : e in memory_set(t), 0 <= k < itemsize}. A float32 2x3 tensor covers [0, 24).
std::vector<int64_t> memory_set_bytes(const Tensor& t, int64_t limit = kMemorySetLimit);

// A run of consecutive storage offsets [begin, end): the compact form pictures draw.
struct Interval {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  friend bool operator==(const Interval&, const Interval&) = default;
};
// Runs of a sorted, duplicate-free set: {0,1,2,5,6} -> [0,3) [5,7).
std::vector<Interval> to_intervals(const std::vector<int64_t>& sorted_set);
std::vector<Interval> memory_intervals(const Tensor& t, int64_t limit = kMemorySetLimit);

// How many logical elements map to each storage offset: 1 everywhere for a tensor without internal
// overlap, k for a cell a stride-0 (broadcast) dim reuses k times. Sorted by offset.
struct MemoryUse {
  int64_t offset = 0;
  int64_t uses = 0;
  friend bool operator==(const MemoryUse&, const MemoryUse&) = default;
};
std::vector<MemoryUse> memory_uses(IntList sizes, IntList strides, int64_t storage_offset,
                                   int64_t limit = kMemorySetLimit);
std::vector<MemoryUse> memory_uses(const Tensor& t, int64_t limit = kMemorySetLimit);

// The seeds' definition of a view (claim VW-01): a and b share one storage and every byte a
// occupies is one b occupies. A tensor is a view of itself; a tensor with no elements is a view of
// any tensor on the same storage. When b is non-overlapping and dense its memory set is one
// interval and no enumeration is needed; otherwise a's set is enumerated (bounded by limit).
bool is_view_of(const Tensor& a, const Tensor& b, int64_t limit = kMemorySetLimit);

// ---- the exact overlap tests (NumPy's mem_overlap.c) -----------------------------------------------

// max_work counts the candidate partial solutions the search may consider before it gives up with
// TooHard. kMaxWorkExact never gives up (the problem is NP-hard, so this may take exponential time
// in the number of dims); kMaxWorkBounds compares extents only, as np.may_share_memory does.
inline constexpr int64_t kMaxWorkExact = -1;
inline constexpr int64_t kMaxWorkBounds = 0;
inline constexpr int64_t kDefaultMaxWork = int64_t{1} << 20;

// One term a * x of a bounded Diophantine equation, 0 <= x <= ub.
struct DiophantineTerm {
  int64_t a = 0;
  int64_t ub = 0;
};

// Solves  sum_i terms[i].a * x_i == b,  0 <= x_i <= terms[i].ub,  every a > 0, by the depth-first
// extended-Euclid search NumPy uses (P. Ramachandran, "Use of Extended Euclidean Algorithm in
// Solving a System of Linear Diophantine Equations with Bounded Variables", 2006). With
// require_nontrivial, every ub must be even, b is taken as sum a * (ub / 2), and the solution
// x_i == ub_i / 2 for all i does not count: the self-overlap problem. Intermediate values use
// 128-bit arithmetic, so no int64 input overflows. On Yes, *solution (when given) holds one x.
MemOverlap solve_diophantine(std::vector<DiophantineTerm> terms, int64_t b, int64_t max_work,
                             bool require_nontrivial = false,
                             std::vector<int64_t>* solution = nullptr);

// Do two tensors share at least one byte of storage? No when their storages differ. Tensors of
// different item sizes (a float32 tensor and an int64 one over the same bytes) are compared byte
// by byte, as NumPy does; same-size ones element by element.
MemOverlap solve_may_share_memory(const Tensor& a, const Tensor& b,
                                  int64_t max_work = kDefaultMaxWork);
// Do two different indices of one tensor reach the same storage element?
MemOverlap solve_may_have_internal_overlap(IntList sizes, IntList strides,
                                           int64_t max_work = kDefaultMaxWork);
MemOverlap solve_may_have_internal_overlap(const Tensor& t, int64_t max_work = kDefaultMaxWork);

// ---- PyTorch's cheap tests (aten/src/ATen/MemoryOverlap.cpp) ----------------------------------------

// has_internal_overlap for a tensor: No when non-overlapping and dense, Yes when a dim of size > 1
// has stride 0, TooHard otherwise (the IntList form is in layout.h).
MemOverlap has_internal_overlap(const Tensor& t);

// get_overlap_status: Full when a and b are the same tensor (PyTorch compares TensorImpl pointers;
// our tensors are values, so equal storage, dtype, sizes, strides and offset count as the same
// tensor), No when either is empty, TooHard when either is not non-overlapping and dense, else
// compares the byte ranges [data_ptr, data_ptr + nbytes) on a shared storage: equal ranges are Full
// when the strides match too and Partial otherwise; intersecting ranges are Partial; else No.
enum class MemOverlapStatus : uint8_t { Full, Partial, No, TooHard };
MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);

const char* to_string(MemOverlap v);        // "No", "Yes", "TooHard"
const char* to_string(MemOverlapStatus v);  // "Full", "Partial", "No", "TooHard"

}  // namespace strided
