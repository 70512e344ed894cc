// Reductions along one dim on the GPU: sum and amax (torch.sum(x, dim), torch.amax(x, dim)), in
// three versions that map threads to data differently — the point of the seed's In[15] and of the
// book's correction of it (ER-11): on a GPU, which *threads* read neighbouring addresses matters
// more than which dim is unit-stride.
//
// Each runs on the reduction's plan (reduce_plan.h: make_reduction's, as on the CPU), which walks
// the input in place in any layout: output t's inputs are `reduced` elements a fixed step apart,
// and the outputs are numbered innermost kept dim first. For a contiguous matrix, reducing dim −1
// makes that step one element; reducing dim −2 makes it a row, with adjacent outputs adjacent in
// memory.
//   1. ThreadPerOutput — thread t owns output t and walks its inputs alone. When adjacent outputs
//      are adjacent in memory (dim −2), a warp's lanes read 32 consecutive floats (4 sectors). For
//      dim −1 the lanes are a row apart: 32 sectors per load (claim PF-13's "naive
//      thread-per-row").
//   2. BlockPerRow — a block of 256 threads owns one output and strides through its row, then
//      combines the partial results with warp shuffles: consecutive lanes, consecutive addresses
//      when the step is one element (4 sectors per load).
//   3. ColumnSplit — an 8×128 block owns 8 adjacent outputs; its 128 thread rows split the inputs
//      between them and combine in shared memory: coalesced when adjacent outputs are adjacent in
//      memory (a warp reads 8 adjacent floats in each of 4 rows, 4 sectors), and 128× the
//      parallelism of ThreadPerOutput when there are few outputs.
// Auto picks BlockPerRow when the step is one element and ColumnSplit otherwise. Every version is
// correct for every shape and layout; only the speed differs.
//
// float32 only, accumulated in float32 (as PyTorch's CUDA sum of float does). amax propagates NaN
// and refuses an empty reduced dim, as torch.amax.
#pragma once

#include <cstdint>

#include "strided/cuda/kernel_choice.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda {


// The result has in's shape without dim (keepdim=false), contiguous, on in's device.
Tensor sum(const Tensor& in, int64_t dim, ReduceKernel kernel = ReduceKernel::Auto);
Tensor amax(const Tensor& in, int64_t dim, ReduceKernel kernel = ReduceKernel::Auto);
// The same into an existing contiguous float32 out of that shape: what a timing loop calls.
Tensor& sum_out(Tensor& out, const Tensor& in, int64_t dim,
                ReduceKernel kernel = ReduceKernel::Auto);
Tensor& amax_out(Tensor& out, const Tensor& in, int64_t dim,
                 ReduceKernel kernel = ReduceKernel::Auto);

}  // namespace strided::cuda
