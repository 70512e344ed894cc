// When the engine's copy walks a 2-D block in square tiles: one home for the rule, which the copy
// loop (elementwise_loops.h, copy_loops) applies and copy_in_tiles (ops.h) reports.
#pragma once

#include <cstdint>

namespace strided {

// A 2-D block of a copy plan is a transpose when the destination steps one element along the
// block's inner dim and the source one element along its outer dim (and not along the inner one).
// Walked row by row, each source read would then fall on a new cache line; walked in square
// tiles, both sides read and write whole lines. ATen has the same fast path for 2-D tensors only
// (aten/src/ATen/native/Copy.cpp, copy_transpose_valid: src.dim() == 2); the engine applies it to
// the two innermost dims of any plan. `st` holds the byte strides in the loop's order: destination
// inner, source inner, destination outer, source outer. Converting copies are never tiled.
inline bool copies_block_in_tiles(const int64_t* st, int64_t n1, int64_t item, bool same_dtype) {
  return same_dtype && n1 > 1 && st[0] == item && st[3] == item && st[1] != item;
}

}  // namespace strided
