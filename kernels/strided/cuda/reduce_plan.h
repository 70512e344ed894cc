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

#include "strided/cuda/offset_calculator.h"
#include "strided/engine/iterator.h"

namespace strided::cuda {

enum class ReduceVersion : uint8_t { ThreadPerOutput, BlockPerRow, ColumnSplit };

// Launch shapes: BlockPerRow's threads per block, ColumnSplit's 32 outputs × 8 row-splitters.
inline constexpr int kRowThreads = 256;
inline constexpr int kSplitColumns = 32;
// 32 rows of 32 threads: with 8 rows, a 1024-column matrix kept 32 blocks of 256 threads busy,
// a quarter of an H200's 132 multiprocessors, and took 26 µs for x.amax(-2); with 32 rows it
// takes 9.4 µs (tools/gpu, the recorded run's notes).
inline constexpr int kSplitRows = 32;

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
ReduceVersion auto_version(const ReducePlan& plan, int64_t itemsize);

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
// ColumnSplit: block b owns outputs [32 b, 32 b + 32); thread (x, y) owns output 32 b + x and
// rows y, y + 8, y + 16, ...
STRIDED_HOST_DEVICE inline ReduceRead column_split_read(int64_t b, int x, int y, int64_t s) {
  return {b * kSplitColumns + x, y + s * kSplitRows};
}

// The input byte offsets (from plan.in) that the 32 lanes of warp w of block 0 read at step s, in
// lane order; a lane with nothing to read at that step is left out. Warp w is threads 32w to
// 32w + 31 of the block (for ColumnSplit's 32×8 block, the threads (x, w)). The sector model of
// chapter 6 counts these.
std::vector<int64_t> warp_reads(const ReducePlan& plan, ReduceVersion v, int w, int64_t s);

}  // namespace strided::cuda
