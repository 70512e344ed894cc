// Helpers shared by the GPU tests: seeded data on the CPU, views written as shape:stride, and a way
// to put a view on the GPU *as a view* (its whole storage copied, the same layout over it), so a
// kernel meets the holes, repeats and offsets the test means it to meet.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "strided/cuda/to_device.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda::testing {

// The same storage through another layout (as_strided).
inline Tensor view(const Tensor& t, IntList sizes, IntList strides, int64_t offset = 0) {
  return Tensor(t.storage(), sizes.vec(), strides.vec(), offset, t.dtype());
}

// Standard normal float32 values, reproducible from the seed.
inline Tensor random_floats(IntList sizes, uint64_t seed) {
  Generator gen(seed);
  return randn(sizes, gen);
}

// Small integers in [-range, range] stored as float32: sums and products of a few thousand of
// them are exact in float32, so a result that differs at all is a misplaced element.
inline Tensor small_integers(IntList sizes, uint64_t seed, int range = 4) {
  Generator gen(seed);
  Tensor t = strided::empty(sizes);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i)
    p[i] = static_cast<float>(static_cast<int64_t>(gen.next_u64() % (2 * range + 1)) - range);
  return t;
}

// A storage-sized float32 tensor of the given element count filled with random values, for
// viewing through any layout that fits in it.
inline Tensor random_storage(int64_t elements, uint64_t seed) { return random_floats({elements}, seed); }

// Copies t's whole storage to the GPU and views it with t's sizes, strides and offset.
inline Tensor to_cuda_as_view(const Tensor& t) {
  const int64_t elems = t.storage().nbytes() / t.element_size();
  const Tensor whole(t.storage(), {elems}, {1}, 0, t.dtype());
  const Tensor dev = to_cuda(whole);
  return Tensor(dev.storage(), t.sizes(), t.strides(), t.storage_offset(), t.dtype());
}

// Element-by-element equality of two CPU tensors of the same shape, bit for bit (so NaN equals
// the same NaN and -0 differs from +0); describes the first difference, empty when equal.
inline std::string bitwise_difference(const Tensor& got, const Tensor& want) {
  if (got.sizes() != want.sizes())
    return "shape " + to_string(got.sizes()) + ", expected " + to_string(want.sizes());
  if (got.dtype() != want.dtype()) return "dtype differs";
  const Tensor g = got.contiguous(), w = want.contiguous();
  const int64_t item = g.element_size();
  const char* pg = static_cast<const char*>(g.data_ptr());
  const char* pw = static_cast<const char*>(w.data_ptr());
  for (int64_t i = 0; i < g.numel(); ++i)
    if (std::memcmp(pg + i * item, pw + i * item, static_cast<size_t>(item)) != 0)
      return "element " + std::to_string(i) + " (row-major) differs: got " +
             std::to_string(g.to_vector()[static_cast<size_t>(i)]) + ", expected " +
             std::to_string(w.to_vector()[static_cast<size_t>(i)]);
  return {};
}

}  // namespace strided::cuda::testing
