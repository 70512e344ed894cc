// What a chapter's checks count of a walk, besides what its pages show: the lines and sectors of
// the plans the engine builds for an op (strided/engine/iterator.h, strided/models/models.h), and a walk's first
// addresses as the record and the prose quote them. A page shows the models' own calls
// (distinct_lines, warp_sectors, lru_misses); these put them together for one op.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/models/models.h"
#include "strided/tensor/tensor.h"

namespace book {

// The first n addresses of a trace, in bytes: what PyTorch's record keeps of a walk.
std::vector<int64_t> first_bytes(const strided::models::Trace& t, size_t n);

// The first n addresses of a trace in units of `unit` bytes, "0, 1, 2, …" (… when there are more).
std::string head(const strided::models::Trace& t, size_t n, int64_t unit = 4);

// The sectors of the cheapest warp request of a steps × lanes view (SectorCount keeps the dearest).
int64_t fewest_per_request(const strided::Tensor& steps_by_lanes);

// The line model of a walk: the cache lines that each 16 consecutive steps of the plan touch,
// every operand's (the output's and the inputs') added up. A scalar operand (the 3 of add(3):
// stride 0 in every dim) stays in one line for the whole walk, and is not counted.
double walk_lines(const strided::TensorIterator& plan);

// Read + write sectors per warp request of the plan x + 3 runs (operand 0 the output, 1 x).
double unary_sectors(const strided::Tensor& x);

// Sectors per warp request of every operand of x * y's plan, summed.
double binary_sectors(const strided::Tensor& x, const strided::Tensor& y);

// Lines per 16 consecutive outputs of x * y's plan, every operand together (walk_lines).
double binary_lines_per_16(const strided::Tensor& x, const strided::Tensor& y);

// LRU misses of x * y's plan, its operands' accesses merged in the order the kernel makes them
// (x, y, then the output, element by element), each operand in lines of its own (models::apart).
int64_t binary_misses(const strided::Tensor& x, const strided::Tensor& y, int64_t capacity_bytes);

// What the first steps of a walk touch: the 64-byte lines of its first 16 accesses, and the
// 32-byte sectors of its first 32 (one warp request, lane l taking step l).
struct FirstSteps {
  int64_t lines = 0;
  int64_t sectors = 0;
};
FirstSteps first_steps(const strided::models::Trace& walk);

// One panel of walks_svg: a walk over a storage of float32 cells, drawn as rows of 16 cells (one
// 64-byte line a row, in two 32-byte sectors), its first 16 steps filled and joined by a path in
// their order, the lines they touch tinted, the sectors of its first 32 steps outlined, and its
// later steps dotted.
struct WalkPanel {
  std::string title;              // what is walked ("x.t()")
  std::string note;               // how ("the engine's order")
  strided::models::Trace walk;    // byte offsets from the storage's first byte, float32
};

// The panels side by side, two to a row, over a storage of `cells` float32 elements (a multiple
// of 16). Themed as the library's pictures are: the classes ink, muted, blank and a link path's
// data-hue follow the page's colours (dark mode included).
std::string walks_svg(const std::vector<WalkPanel>& panels, int64_t cells);

}  // namespace book
