// Why a layout op refuses, in the layout algebra's own terms: which rule failed, on which dims,
// with which numbers, and what would work instead. Pure functions of layouts, each
// answering exactly when the op it explains refuses (refusal_test sweeps random layouts):
//   view_refusal       view(new_sizes): the walk of compute_view_strides (view_strides_walk) or
//                      infer_size
//   expand_refusal     expand(new_sizes) and broadcast_to: expand_geometry
//   broadcast_refusal  an op's broadcasting of two or more shapes: broadcast_shapes
//   overlap_refusal    an in-place write: has_internal_overlap says Yes
// The explorer (tools/explore) prints them after PyTorch's message; the errors chapter shows them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strided/core/shape.h"
#include "strided/layout/layout.h"

namespace strided {

// A refusal in words: the rule ("view", "expand", "broadcast", "overlap"), the dims it is about
// (of the input, or for broadcasting of the result, aligned from the right), why, and what works.
struct LayoutRefusal {
  std::string rule;
  Shape dims;
  std::string why;
  std::string instead;
};

// view(new_sizes) of a layout (new_sizes may hold one -1): nullopt when view would succeed. A
// merge refusal names the two dims that cannot merge and the stride merging needs:
//   "new dim 0 (size 12) spans dims 0 and 1, which cannot merge: merging needs stride[0] =
//    size[1] × stride[1] = 3 × 4 = 12, and stride[0] is 1"
std::optional<LayoutRefusal> view_refusal(const Layout& layout, IntList new_sizes);
// expand(new_sizes) (and broadcast_to) of a layout: nullopt when expand would succeed.
std::optional<LayoutRefusal> expand_refusal(const Layout& layout, IntList new_sizes);
// Broadcasting shapes in an op (a + b): nullopt when they broadcast. Dims are the result's.
std::optional<LayoutRefusal> broadcast_refusal(const std::vector<Shape>& shapes);
// An in-place write to a layout: nullopt unless has_internal_overlap is sure two elements share
// a memory location (a dim of stride 0 and size above 1).
std::optional<LayoutRefusal> overlap_refusal(const Layout& layout);

}  // namespace strided
