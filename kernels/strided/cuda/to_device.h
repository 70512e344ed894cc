// Moving tensors between the CPU and CUDA devices, as torch.Tensor.to(device).
#pragma once

#include "strided/tensor/tensor.h"

namespace strided::cuda {

// A copy of t on `device`, or t itself when it is already there (PyTorch's to() returns self).
// Values, shape and dtype are preserved. A non-overlapping and dense tensor keeps its strides
// (to() preserves the memory format) and travels as one block of exactly nbytes; any other layout
// (a slice with holes, a broadcast) is first packed densely on its own side — the "staging" copy —
// and arrives in the layout device_copy_strides gives. The copy is synchronous: the result is ready
// when this returns.
Tensor to_device(const Tensor& t, Device device);

// The strides of to_device(t, d)'s result on another device: t's own when t is non-overlapping and
// dense, else dense strides in t's dim order (layout.h, infer_dense_strides), as PyTorch's
// _to_copy allocates its result with empty_like(preserve_format) (aten/src/ATen/native/
// TensorConversions.cpp). The result starts its storage and holds exactly t.numel() elements.
// Host logic: it answers without a CUDA device.
Shape device_copy_strides(const Tensor& t);

// Shorthands: to_device(t, Device::cpu()) and to_device(t, Device::cuda(index)).
Tensor to_cpu(const Tensor& t);
Tensor to_cuda(const Tensor& t, int index = 0);

}  // namespace strided::cuda
