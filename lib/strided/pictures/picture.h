// Pictures of tensors over their storage: the figures the chapters and strided-explore share.
//
// One picture has two parts, drawn from the same model:
//  - the storage, a row of cells (wrapped into lines when long), each labelled with its offset and
//    the value stored there; cells a tensor touches take that tensor's colour, and a cell that a
//    stride-0 dim reuses k times carries a "×k" badge;
//  - the logical grid of each tensor (1-d: a row; 2-d: a grid; 3-d and more: 2-d slices side by
//    side, each titled with its leading index), each cell labelled with the storage offset it maps
//    to, in the tensor's colour, and linked to its storage cell by a line when the figure is small
//    enough for lines to help.
// The SVG is self-contained (no fonts, CSS or scripts from outside), has a white background so it
// reads the same in light and dark pages, carries <title> and <desc> for screen readers, escapes
// every text it draws, and is byte-for-byte deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strided/tensor/tensor.h"

namespace strided {

// One tensor drawn over a storage, under the name the figure gives it ("x", "x.t()", "x[:, 1]").
struct PictureLayer {
  Tensor tensor;
  std::string name;
};

struct PictureOptions {
  std::string title;        // <title> and the caption; generated from the layers when empty
  std::string description;  // <desc>; generated from the layouts when empty
  bool show_values = true;  // storage cells show their value under the offset (CPU tensors only)
  bool links = true;        // lines from logical cells to storage cells, when max_links allows
  int64_t max_links = 64;   // no lines when the layers have more logical cells than this in all
  int64_t cells_per_row = 24;  // the storage row wraps after this many cells
  // Pictures of more than this many logical cells (all layers together) or storage cells are
  // refused with a strided::Error: nobody reads such a figure; slice the tensor first.
  int64_t max_cells = 512;
};

// The picture of several tensors over one storage: a base and its views, each in its own colour.
// Every layer must be defined, on the same storage, and of the same dtype. When the storage holds
// more than max_cells elements, only the window of storage offsets the layers reach is drawn.
std::string views_svg(const std::vector<PictureLayer>& layers, const PictureOptions& options = {});

// One tensor over its storage (views_svg with one layer).
std::string tensor_svg(const Tensor& t, const std::string& name = "t",
                       const PictureOptions& options = {});

// The storage row alone, with the cells t touches highlighted and reuse counts shown.
std::string storage_svg(const Tensor& t, const std::string& name = "t",
                        const PictureOptions& options = {});

// The same model as text, for terminals: the grid of storage offsets (nested as PyTorch prints a
// tensor), then the storage row with a mark under each cell: '*' used once, k used k times, '.'
// unused. Storage lines wrap to stay within 80 columns. For x = arange(6).reshape(2, 3).t():
//   storage offset of each element:
//     [[0, 3],
//      [1, 4],
//      [2, 5]]
//   storage: 6 x int64 (* used once, k used k times, . unused)
//     offset 0 1 2 3 4 5
//     used   * * * * * *
std::string text_picture(const Tensor& t, const PictureOptions& options = {});

// ---- strides as steps ----------------------------------------------------------------------------
//
// The other pictures say where each element lives. This one says how a layout walks its storage:
// the storage as one row of cells, and for each dim, in its own colour, arcs that jump from the
// tensor's first element by that dim's stride, once per step along the dim (the elements
// t[0, …, j, …, 0]), the first arc labelled with the jump ("+12"). A legend names each dim's jump
// in elements and in bytes ("dim 0: +12 (48 bytes), 2 steps"). A contiguous 2×3×4 tensor and its
// permutation draw the same storage with the same jumps, named by other dims. Arcs carry
// class="step" data-dim, data-from and data-to (storage offsets) for tests; like the other
// pictures the SVG is self-contained, deterministic, and themed by the page (classes bg, ink,
// muted, blank; data-hue on each arc).

struct StepsOptions {
  std::string name = "t";    // the tensor's name in the title and the description
  std::string title;         // <title> and the heading; generated from the layout when empty
  std::string description;   // <desc>; generated from the layout when empty
  // Storage cells drawn: offsets 0 .. storage_elements − 1; when 0, up to the last element the
  // layout reaches. A layout reaching beyond it is refused.
  int64_t storage_elements = 0;
  int64_t max_steps = 8;     // arcs drawn per dim at most (the chain stops there)
  int64_t max_cells = 48;    // storage cells drawn at most; more is refused (slice first)
};

// The steps picture of a layout: sizes, strides (in elements, non-negative), storage offset (in
// elements) and item size (bytes per element). A pure function of these numbers: no storage.
std::string steps_svg(IntList sizes, IntList strides, int64_t storage_offset, int64_t item_size,
                      const StepsOptions& options = {});

// The same for a tensor's layout; draws its whole storage when that fits in max_cells.
std::string steps_svg(const Tensor& t, const std::string& name = "t", StepsOptions options = {});

}  // namespace strided
