// When the element-wise loops gather a strided input: one vector of its elements at a time
// (vec::gather), with its lines asked for a page ahead (elementwise_loops.h), rather than element
// by element as ATen's loops walk any operand that is neither contiguous nor broadcast.
//
// The rule: the input's elements lie apart, but less than a cache line apart, as the seed's
// stride-5 slice does (In[13]: 20 bytes). Every line such a walk reaches then holds elements the
// loop reads, so the lines a page ahead are lines it will read. A wider stride keeps the
// element-by-element walk: each element is then a line of its own, and the lines a page ahead are
// lines the walk may never read (chapter 6's logical walk of a permuted cube is such a walk).
//
// On the 2-core machine the book is built on, a test loop of the stride-5 add (512³ float32, one
// core) took 293 ms element by element, 203 ms gathered with the prefetch and 181 ms gathered into
// streaming stores; the library's x.add(3) on the slice into a reused output (bench/, median of 3)
// went from 261 to 220 ms on one core and 138 to 111 ms on two.
//
// One home for the rule: the loops ask it, and chapter 6 (PF-08) checks its walks against it.
#pragma once

#include <cstdint>

namespace strided {

inline constexpr int64_t kGatherLineBytes = 64;

// Whether the loops gather an input that steps stride_bytes between elements of element_size.
constexpr bool gathers_stride(int64_t stride_bytes, int64_t element_size) {
  return stride_bytes > element_size && stride_bytes < kGatherLineBytes;
}

}  // namespace strided
