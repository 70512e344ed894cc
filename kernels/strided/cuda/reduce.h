// Reductions along one dim on the GPU: sum and amax (torch.sum(x, dim), torch.amax(x, dim)), in
// three versions that map threads to data differently — the point of the seed's In[15] and of the
// book's correction of it (ER-11): on a GPU, which *threads* read neighbouring addresses matters
// more than which dim is unit-stride.
//
// The input (contiguous; other layouts are packed first) is seen as (outer, reduced, inner):
// reducing the last dim means inner = 1, reducing an earlier dim means inner > 1.
//   1. ThreadPerOutput — thread t owns output t and walks its `reduced` inputs alone. For inner > 1
//      a warp's lanes own adjacent columns: every load is 32 consecutive floats (4 sectors). For the
//      last dim the lanes are `reduced` floats apart: 32 sectors per load (claim PF-13's "naive
//      thread-per-row").
//   2. BlockPerRow — a block of 256 threads owns one output and strides through its row, then
//      combines the partial results with warp shuffles: consecutive lanes, consecutive addresses
//      when inner = 1 (4 sectors per load).
//   3. ColumnSplit — a 32×8 block owns 32 adjacent columns; its 8 thread rows split `reduced`
//      between them and combine in shared memory: coalesced for inner > 1, and 8× the parallelism
//      of ThreadPerOutput when outer·inner is small.
// Auto picks BlockPerRow for inner = 1 and ColumnSplit otherwise. Every version is correct for
// every shape; only the speed differs.
//
// float32 only, accumulated in float32 (as PyTorch's CUDA sum of float does). amax propagates NaN
// and refuses an empty reduced dim, as torch.amax.
#pragma once

#include <cstdint>

#include "strided/tensor/tensor.h"

namespace strided::cuda {

enum class ReduceKernel : uint8_t { Auto, ThreadPerOutput, BlockPerRow, ColumnSplit };

// The result has in's shape without dim (keepdim=false), contiguous, on in's device.
Tensor sum(const Tensor& in, int64_t dim, ReduceKernel kernel = ReduceKernel::Auto);
Tensor amax(const Tensor& in, int64_t dim, ReduceKernel kernel = ReduceKernel::Auto);
// The same into an existing contiguous float32 out of that shape: what a timing loop calls (a
// non-contiguous input is still packed into a temporary first).
Tensor& sum_out(Tensor& out, const Tensor& in, int64_t dim,
                ReduceKernel kernel = ReduceKernel::Auto);
Tensor& amax_out(Tensor& out, const Tensor& in, int64_t dim,
                 ReduceKernel kernel = ReduceKernel::Auto);

}  // namespace strided::cuda
