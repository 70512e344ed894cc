// The physical transpose of a matrix on the GPU: out = in.t().contiguous(), in two versions.
//
//   1. Naive — each thread moves elements of a 32×32 tile straight from in to out: the warp's 32
//      reads of a row-major input are consecutive (4 sectors), but its 32 writes land `rows`
//      elements apart (32 sectors): half the traffic is uncoalesced.
//   2. Tiled — the block stages the tile in shared memory, reads it row by row and writes it
//      column by column, so both global sides are consecutive. The tile is 64×65 floats: the extra
//      column puts the elements of a tile column in 32 different banks (bank = word index mod 32)
//      instead of two, so reading a column does not serialise into bank conflicts.
// After M. Harris, "An Efficient Matrix Transpose in CUDA C/C++", NVIDIA Developer Blog, 2013,
// whose 32×32 tiles (32×8 threads, 4 elements each) the naive version keeps; the tiled version
// moves 64×64 tiles with the same 32×8 threads, 16 elements each (transpose_kernels.cu says why).
//
// Both move 4-byte elements bit for bit (float32, int32); any 2-D layout is read correctly, and
// a row-major input is the one the tiled version is fast for. The result is a fresh contiguous
// (cols, rows) tensor.
#pragma once

#include <cstdint>

#include "strided/cuda/kernel_choice.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda {


Tensor transposed_copy(const Tensor& in, TransposeKernel kernel = TransposeKernel::Tiled);
// The same into an existing contiguous (cols, rows) tensor of in's dtype: what a timing loop calls.
Tensor& transposed_copy_out(Tensor& out, const Tensor& in,
                            TransposeKernel kernel = TransposeKernel::Tiled);

}  // namespace strided::cuda
