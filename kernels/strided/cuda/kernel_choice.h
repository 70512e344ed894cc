// The kernels each GPU op can run, each named once. A public op (elementwise.h, transpose.h,
// reduce.h, matmul.h) takes one, Auto letting it choose from its plan; the launches of backend.h
// run the one chosen and refuse Auto (and matmul's Cublas, which backend::cublas_sgemm runs).
// ATen's CUDA ops choose their kernel inside; the book's ops also let a chapter ask for one, so
// that two kernels of the same walk can be timed against each other.
#pragma once

#include <cstdint>

namespace strided::cuda {

enum class ElementwiseKernel : uint8_t { Auto, Strided, Flat };
enum class TransposeKernel : uint8_t { Naive, Tiled };
enum class ReduceKernel : uint8_t { Auto, ThreadPerOutput, BlockPerRow, ColumnSplit };
enum class MatmulKernel : uint8_t { Naive, Tiled, Cublas };

}  // namespace strided::cuda
