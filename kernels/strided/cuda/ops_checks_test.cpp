// Bad input to the GPU operations is refused on the host, before any device is needed, with a
// message naming the operation and the values.
//
// On a machine without a CUDA device, CUDA tensors cannot exist; to test the checks on them this
// program registers a stand-in allocator for Device::Type::CUDA that hands out host memory. No
// kernel can ever read it: every operation calls require_available() after its checks, and that
// throws here — which the tests also assert, so a check that wrongly passed would show. On a
// machine with a device the stand-in is not installed and those cases are left to the gpu tests.
#include <doctest/doctest.h>

#include <cstdlib>

#include "strided/cuda/elementwise.h"
#include "strided/cuda/matmul.h"
#include "strided/cuda/reduce.h"
#include "strided/cuda/runtime.h"
#include "strided/cuda/to_device.h"
#include "strided/cuda/transpose.h"
#include "strided/tensor/storage.h"

using namespace strided;

namespace {

bool install_stand_in_allocator() {
  if (cuda::available()) return false;
  register_allocator(Device::Type::CUDA,
                     Allocator{[](int64_t n) { return std::malloc(static_cast<size_t>(n > 0 ? n : 1)); },
                               [](void* p) { std::free(p); }});
  return true;
}

// Host memory standing in for a CUDA allocator, where no device is, while one test case runs: the
// other test files of this program (runtime_test.cpp) check that no CUDA allocator is registered.
struct StandInAllocator {
  const bool installed = install_stand_in_allocator();
  StandInAllocator() = default;
  StandInAllocator(const StandInAllocator&) = delete;
  StandInAllocator& operator=(const StandInAllocator&) = delete;
  ~StandInAllocator() {
    if (installed) register_allocator(Device::Type::CUDA, Allocator{});
  }
};

const TensorOptions kCuda{DType::Float32, Device::cuda()};

Tensor view(const Tensor& t, IntList sizes, IntList strides, int64_t offset = 0) {
  return Tensor(t.storage(), sizes.vec(), strides.vec(), offset, t.dtype());
}

std::string no_device(const char* op) {
  return std::string(op) + ": no CUDA device: " + cuda::unavailable_reason();
}

}  // namespace

TEST_CASE("CPU tensors are refused with a pointer to to_device") {
  const Tensor a = zeros({2, 3});
  CHECK_THROWS_WITH_AS(cuda::add(a, a),
                       "cuda::add: expected self on a CUDA device, got cpu (move it with "
                       "strided::cuda::to_device)",
                       Error);
  CHECK_THROWS_WITH_AS(cuda::mul(a, 2.0f),
                       "cuda::mul: expected self on a CUDA device, got cpu (move it with "
                       "strided::cuda::to_device)",
                       Error);
  CHECK_THROWS_WITH_AS(cuda::transposed_copy(a),
                       "cuda::transposed_copy: expected a CUDA tensor, got one on cpu", Error);
  CHECK_THROWS_WITH_AS(cuda::sum(a, 0), "cuda::sum: expected a CUDA tensor, got one on cpu", Error);
  CHECK_THROWS_WITH_AS(cuda::matmul(a, view(a, {3, 2}, {1, 3})),
                       "cuda::matmul: expected self on a CUDA device, got cpu", Error);
  CHECK_THROWS_WITH_AS(cuda::contiguous(a),
                       "cuda::contiguous: expected self on a CUDA device, got cpu (move it with "
                       "strided::cuda::to_device)",
                       Error);
}

TEST_CASE("to_device: same device is free, undefined is refused") {
  const Tensor a = zeros({2, 3});
  const int64_t before = Storage::allocation_count();
  CHECK(cuda::to_device(a, Device::cpu()).storage().is_same(a.storage()));
  CHECK(Storage::allocation_count() == before);
  CHECK_THROWS_WITH_AS(cuda::to_device(Tensor(), Device::cuda()), "cuda::to_device: undefined tensor",
                       Error);
  if (!cuda::available())
    CHECK_THROWS_WITH_AS(cuda::to_cuda(a), no_device("cuda::to_device").c_str(), Error);
}

TEST_CASE("checks on CUDA tensors, then the refusal for want of a device") {
  const StandInAllocator stand_in;
  if (!stand_in.installed) return;  // a real device: the gpu tests exercise these paths
  const Tensor x = empty({4, 3}, kCuda);
  const Tensor y = empty({3}, kCuda);
  const Tensor i = empty({4, 3}, {DType::Int64, Device::cuda()});

  SUBCASE("dtypes") {
    CHECK_THROWS_WITH_AS(cuda::add(x, i),
                         "cuda::add: the GPU arithmetic is compiled for float32 only, other is int64",
                         Error);
    Tensor f = empty({4, 3}, kCuda);
    CHECK_THROWS_WITH_AS(cuda::copy_(f, i),
                         "cuda::copy_: the GPU copy moves bits and does not convert dtypes, but "
                         "self is float32 and src is int64",
                         Error);
    CHECK_THROWS_WITH_AS(cuda::sum(i, 0), "cuda::sum: the GPU reductions are compiled for float32 only, got int64", Error);
  }
  SUBCASE("shapes") {
    Tensor out = empty({3, 4}, kCuda);
    CHECK_THROWS_WITH_AS(cuda::add_out(out, x, y),
                         "cuda::add_out: output with shape [3, 4] doesn't match the broadcast "
                         "shape [4, 3]",
                         Error);
    CHECK_THROWS_WITH_AS(cuda::add(x, empty({4}, kCuda)),
                         doctest::Contains("The size of tensor a (3) must match the size of "
                                           "tensor b (4) at non-singleton dimension 1"),
                         Error);
    CHECK_THROWS_WITH_AS(cuda::matmul(x, x),
                         "cuda::matmul: mat1 and mat2 shapes cannot be multiplied (4x3 and 4x3)",
                         Error);
    CHECK_THROWS_WITH_AS(cuda::transposed_copy(empty({2, 2, 2}, kCuda)),
                         "cuda::transposed_copy: expected a 2-D tensor, got shape [2, 2, 2]", Error);
    CHECK_THROWS_AS(cuda::sum(x, 2), Error);
    CHECK_THROWS_WITH_AS(cuda::amax(empty({3, 0}, kCuda), 1),
                         "cuda::amax: Expected reduction dim 1 to have non-zero size (input shape "
                         "[3, 0])",
                         Error);
  }
  SUBCASE("overlap") {
    // A broadcast view written to: two elements share one location.
    Tensor row = view(x, {4, 3}, {0, 1});
    CHECK_THROWS_WITH_AS(cuda::add_out(row, x, x),
                         "cuda::add_out: unsupported operation: more than one element of the "
                         "written-to tensor refers to a single memory location. Please clone() "
                         "the tensor before performing the operation. (written-to tensor "
                         "(4,3):(0,1))",
                         Error);
    // out = x shifted by one element: other threads would overwrite inputs still to be read.
    Tensor big = empty({13}, kCuda);
    Tensor a = view(big, {12}, {1}, 0), b = view(big, {12}, {1}, 1);
    CHECK_THROWS_WITH_AS(cuda::add_out(b, a, a),
                         "cuda::add_out: unsupported operation: some elements of the input tensor "
                         "and the written-to tensor refer to a single memory location. Please "
                         "clone() the tensor before performing the operation. (written-to tensor "
                         "(12,):(1,) at offset 1, input (12,):(1,) at offset 0)",
                         Error);
    // In place is allowed: it passes every check and only the missing device stops it.
    Tensor same = x;
    CHECK_THROWS_WITH_AS(cuda::add_out(same, x, y), no_device("cuda::add_out").c_str(), Error);
  }
  SUBCASE("the flat kernel needs a flat plan") {
    Tensor out = empty({3, 4}, kCuda);
    CHECK_THROWS_WITH_AS(cuda::add_out(out, view(x, {3, 4}, {1, 3}), view(x, {3, 4}, {1, 3}), cuda::ElementwiseKernel::Flat),
                         doctest::Contains("cuda::add_out: the flat kernel needs every operand to be "
                                           "one unit-stride run"),
                         Error);
    CHECK_THROWS_WITH_AS(cuda::add_out(out, view(x, {3, 4}, {1, 3}), view(x, {3, 4}, {1, 3}), cuda::ElementwiseKernel::Strided),
                         no_device("cuda::add_out").c_str(), Error);
  }
  SUBCASE("valid calls reach the device check") {
    CHECK_THROWS_WITH_AS(cuda::mul(x, y), no_device("cuda::mul").c_str(), Error);
    CHECK_THROWS_WITH_AS(cuda::matmul(x, view(x, {3, 4}, {1, 3})), no_device("cuda::matmul").c_str(), Error);
    CHECK_THROWS_WITH_AS(cuda::amax(x, -1), no_device("cuda::amax").c_str(), Error);
    CHECK_THROWS_WITH_AS(cuda::transposed_copy(x), no_device("cuda::transposed_copy").c_str(), Error);
    Tensor dst = empty({2, 4, 3}, kCuda);
    CHECK_THROWS_WITH_AS(cuda::copy_(dst, x), no_device("cuda::copy_").c_str(), Error);
  }
}
