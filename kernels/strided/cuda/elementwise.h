// Element-wise operations on CUDA tensors of any layout: copy, add and mul, with PyTorch's
// broadcasting, iteration order and output layout.
//
// Every operation plans once on the host with the CPU engine's TensorIterator, built from the CPU
// op's own configuration (plan.h), which broadcasts, orders the dims by stride, allocates the output
// and coalesces; the plan, serialised for the device, goes to one of two kernels:
//   1. Strided — one thread per element (four per thread, unrolled), each turning its linear index
//      into per-operand byte offsets with the offset calculator (offset_calculator.h);
//   2. Flat    — when the plan collapses to one unit-stride run for every operand: no index math,
//      16-byte vector loads and stores where every pointer is 16-byte aligned.
// Auto takes Flat when the plan allows it (and, for a flat same-dtype copy, cudaMemcpy, as PyTorch
// does), else Strided. Choosing a kernel explicitly is for the book's experiments and benchmarks;
// Flat on a plan that is not flat is an error.
//
// Arithmetic is compiled for float32 only (one instantiation per kernel keeps nvcc's time on a
// 2-core build small); copy moves elements of any dtype bit for bit. Outputs allocated here cost a
// cudaMalloc and a cudaFree (there is no caching allocator): timing loops use the *_out forms.
#pragma once

#include <cstdint>

#include "strided/cuda/kernel_choice.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda {


// dst.copy_(src): src broadcasts to dst's shape; same dtype (no conversion on the GPU); both on the
// same CUDA device. dst must not overlap itself, nor partially overlap src (as PyTorch refuses).
Tensor& copy_(Tensor& dst, const Tensor& src, ElementwiseKernel kernel = ElementwiseKernel::Auto);

// A contiguous copy on t's device, or t itself when it is already contiguous (torch.contiguous).
Tensor contiguous(const Tensor& t);

// a + b, a * b (float32, broadcasting). The result is the tensor TensorIterator allocates, as for
// the CPU op: dense in the iteration order, so x * y.permute(p) has x's strides.
Tensor add(const Tensor& a, const Tensor& b, ElementwiseKernel kernel = ElementwiseKernel::Auto);
Tensor mul(const Tensor& a, const Tensor& b, ElementwiseKernel kernel = ElementwiseKernel::Auto);
// a + s, a * s for a float scalar (the seed's t.add(3)), a wrapped number passed to the kernel by
// value; the result follows a's layout when a is dense, else is dense in a's iteration order.
Tensor add(const Tensor& a, float s, ElementwiseKernel kernel = ElementwiseKernel::Auto);
Tensor mul(const Tensor& a, float s, ElementwiseKernel kernel = ElementwiseKernel::Auto);

// The same into an existing out of the broadcast shape (any layout, float32), as torch.add(...,
// out=out) without resizing. out may be an input itself (in place), but not partially overlap one:
// TensorIterator refuses it with PyTorch's message, as it refuses an out of another shape.
Tensor& add_out(Tensor& out, const Tensor& a, const Tensor& b,
                ElementwiseKernel kernel = ElementwiseKernel::Auto);
Tensor& mul_out(Tensor& out, const Tensor& a, const Tensor& b,
                ElementwiseKernel kernel = ElementwiseKernel::Auto);
Tensor& add_out(Tensor& out, const Tensor& a, float s,
                ElementwiseKernel kernel = ElementwiseKernel::Auto);
Tensor& mul_out(Tensor& out, const Tensor& a, float s,
                ElementwiseKernel kernel = ElementwiseKernel::Auto);

// For tests: run the strided kernel with 64-bit linear indices even for tensors that fit 32-bit
// ones, so the path tensors beyond 2^31 - 1 elements take is exercised on small data.
void force_64bit_indexing_for_testing(bool on);

}  // namespace strided::cuda
