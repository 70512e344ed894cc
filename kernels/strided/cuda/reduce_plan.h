// The reduction plan as the GPU reduction kernels consume it, and which element each of their
// threads reads.
//
// The kernels derive nothing: the plan is the CPU reductions' own (make_reduction in
// lib/strided/engine/reduce.h), built over the CUDA tensors, so the GPU reduces any layout in place,
// the walk is the one PyTorch's TensorIterator orders, and chapter 6's sector model can count the
// reads of the very kernel it describes. make_reduction puts the reduced dim first (plan dim 0,
// where the output's stride is 0) and the kept dims after it; reduce_plan splits that into
//   - the reduced run: `reduced` elements, `reduced_step` bytes apart in the input, and
//   - the outputs: `outputs` of them, numbered in the plan's order (innermost kept dim first), the
//     offset calculator turning output t into its byte offsets in the output and in the input.
// Input element r of output t is at in + kept.get(t)[1] + r · reduced_step.
//
// Which (output, r) a thread reads at its step s is the mapping of each kernel version (reduce.h):
// the functions below are the kernels' own loops (reduce_kernels.cu calls them) and the model's
// (warp_reads). Everything here is plain C++ and touches no device: reduce_plan_test.cpp runs it on
// every machine.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/cuda/kernel_choice.h"
#include "strided/cuda/offset_calculator.h"
#include "strided/engine/iterator.h"

namespace strided::cuda {


// Launch shapes: BlockPerRow's threads per block; ColumnSplit's block of 8 outputs × 128
// row-splitters. A warp of that block is 4 thread rows of 8 lanes: it reads 8 adjacent floats
// (one 32-byte sector) in each of 4 rows, 4 sectors a request, as a warp along one row does.
// Why 8 columns: a block owns a strip of kSplitColumns outputs, so a 1024-column matrix gives
// 1024 / kSplitColumns blocks. With strips of 32 (32 blocks, a quarter of an H200's 132
// multiprocessors) x.amax(-2) of 1024² took 8.3 µs there; with strips of 8 (128 blocks), 4.3 µs,
// against 3.6 µs for the BlockPerRow kernel's x.amax(-1) (an experiment on the lent H200).
inline constexpr int kRowThreads = 256;
inline constexpr int kSplitColumns = 8;
inline constexpr int kSplitRows = 128;
inline constexpr int kSplitWarps = kSplitColumns * kSplitRows / 32;
// The thread rows one warp of that block spans: 32 lanes, kSplitColumns to a row.
inline constexpr int kSplitWarpRows = 32 / kSplitColumns;
// The kernel combines its thread rows by halving, and one block may hold 1024 threads.
static_assert((kSplitRows & (kSplitRows - 1)) == 0, "ColumnSplit halves its thread rows");
static_assert(kSplitColumns * kSplitRows <= 1024 && 32 % kSplitColumns == 0,
              "a ColumnSplit block fits CUDA's 1024 threads, and a warp holds whole thread rows");

struct ReducePlan {
  int64_t outputs = 0;       // kept elements
  int64_t reduced = 1;       // inputs per output
  int64_t reduced_step = 0;  // bytes between them in the input
  OffsetCalculator<2, uint64_t> kept;  // output t -> {output byte offset, input byte offset}
  char* out = nullptr;
  const char* in = nullptr;
};

// The plan of make_reduction (one output, one input, float32), serialised. op names the caller in
// errors (more than kMaxDims kept dims after coalescing).
ReducePlan reduce_plan(const TensorIterator& it, const char* op);

// What the Auto kernel runs on this plan: BlockPerRow when the reduced run is unit-stride (a warp
// reads consecutive elements of one row), ColumnSplit otherwise (a warp's lanes own adjacent
// outputs, consecutive in memory when the innermost kept dim is).
ReduceKernel auto_version(const ReducePlan& plan, int64_t itemsize);

// The element a thread reads at step s of its loop, in each version (its first read is step 0).
struct ReduceRead {
  int64_t output;
  int64_t r;
};
// ThreadPerOutput: thread t (global index) owns output t and walks its row alone.
STRIDED_HOST_DEVICE inline ReduceRead thread_per_output_read(int64_t t, int64_t s) {
  return {t, s};
}
// BlockPerRow: block b owns output b; its kRowThreads threads stride through the row together.
STRIDED_HOST_DEVICE inline ReduceRead block_per_row_read(int64_t b, int thread, int64_t s) {
  return {b, thread + s * kRowThreads};
}
// ColumnSplit: block b owns outputs [8 b, 8 b + 8); thread (x, y) owns output 8 b + x and rows
// y, y + 128, y + 256, ...
STRIDED_HOST_DEVICE inline ReduceRead column_split_read(int64_t b, int x, int y, int64_t s) {
  return {b * kSplitColumns + x, y + s * kSplitRows};
}
// ColumnSplit's strips for `outputs` outputs: the blocks it launches, up to CUDA's grid limit
// (then each block takes every gridDim.x-th strip).
STRIDED_HOST_DEVICE inline int64_t column_split_strips(int64_t outputs) {
  return (outputs + kSplitColumns - 1) / kSplitColumns;
}

// The input byte offsets (from plan.in) that the 32 lanes of warp w of block 0 read at step s, in
// lane order; a lane with nothing to read at that step is left out. Warp w is threads 32w to
// 32w + 31 of the block, numbered x first as CUDA numbers them (for ColumnSplit's 8×128 block,
// lane l of warp w is thread (l mod 8, 4w + l / 8)). The sector model of chapter 6 counts these.
std::vector<int64_t> warp_reads(const ReducePlan& plan, ReduceKernel v, int w, int64_t s);

}  // namespace strided::cuda
