// Matrix products on the GPU, C = A·B for 2-D float32 matrices of any layout, in three versions:
//
//   1. Naive  — one thread per C element, a dot product read straight from global memory with the
//               operands' strides. A warp spans 32 adjacent columns of C: its B loads are coalesced
//               when B is row-major, its A loads are one broadcast address (claim MM-03's
//               layouts, seen from a warp instead of a cache).
//   2. Tiled  — 32×32 tiles of A and B staged in shared memory, each loaded once per tile and
//               reused 32 times: global traffic drops by the tile width.
//   3. Cublas — one cublasSgemm whose transpose flags and leading dims read row-major and
//               column-major operands in place (gemm_layout.h, NOTE: [The swap trick]): a@b, a@b.mT,
//               a.mT@b and a.mT@b.mT each make no copy (claim MM-07). An operand in any other layout
//               is first made contiguous. Full FP32 math, never TF32 (PyTorch's default
//               torch.backends.cuda.matmul.allow_tf32 = False).
// The result is a fresh contiguous (M, N) tensor.
#pragma once

#include <cstdint>

#include "strided/cuda/kernel_choice.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda {


Tensor matmul(const Tensor& a, const Tensor& b, MatmulKernel kernel = MatmulKernel::Cublas);

// matmul into an existing contiguous (M, N) float32 out, allocating nothing when both operands
// are row- or column-major: what a timing loop calls.
Tensor& matmul_out(Tensor& out, const Tensor& a, const Tensor& b,
                   MatmulKernel kernel = MatmulKernel::Cublas);

}  // namespace strided::cuda
