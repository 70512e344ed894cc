// to_device both ways: values, shape and dtype survive; dense layouts keep their strides; layouts
// with holes or repeats arrive contiguous; one allocation per move.
#include "strided/cuda/to_device.h"

#include <doctest/doctest.h>

#include "strided/cuda/runtime.h"
#include "strided/cuda/test_util.h"

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::testing;

TEST_CASE("a round trip preserves values, shape, strides and dtype for every dtype") {
  for (const DType t : {DType::Bool, DType::UInt8, DType::Int8, DType::Int16, DType::Int32,
                        DType::Int64, DType::Float16, DType::BFloat16, DType::Float32,
                        DType::Float64}) {
    INFO(name(t));
    Tensor a = empty({3, 4, 5}, {t});
    for (int64_t i = 0; i < 60; ++i)
      a.set({i / 20, i / 5 % 4, i % 5}, t == DType::Bool ? Scalar(i % 2 == 1) : Scalar(int64_t{i - 30}));
    const Tensor d = to_cuda(a);
    CHECK(d.device() == Device::cuda());
    CHECK(d.dtype() == t);
    CHECK(d.sizes() == a.sizes());
    CHECK(d.strides() == a.strides());
    const Tensor back = to_cpu(d);
    CHECK(back.device() == Device::cpu());
    CHECK(bitwise_difference(back, a) == "");
  }
}

TEST_CASE("a dense permuted tensor keeps its strides and moves as one block") {
  const Tensor base = random_floats({4, 5, 6}, 1);
  const Tensor p = view(base, {6, 4, 5}, {1, 30, 6});  // base.permute(2, 0, 1)
  const int64_t before = Storage::allocation_count();
  const Tensor d = to_cuda(p);
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(d.strides() == p.strides());
  CHECK(d.storage().nbytes() == 120 * 4);
  CHECK(bitwise_difference(to_cpu(d), p) == "");
}

TEST_CASE("row-major layouts with holes or repeats arrive contiguous, from either side") {
  const Tensor base = random_floats({8, 5}, 2);
  const Tensor sliced = view(base, {8, 2}, {5, 2}, 1);  // base[:, 1::2]
  const Tensor expanded = view(base, {3, 8, 5}, {0, 5, 1});
  for (const Tensor& t : {sliced, expanded}) {
    const Tensor d = to_cuda(t);
    CHECK(d.is_contiguous());
    CHECK(d.storage().nbytes() == t.numel() * 4);
    CHECK(bitwise_difference(to_cpu(d), t) == "");
    // The same view on the device, staged there before the copy back.
    const Tensor dv = to_cuda_as_view(t);
    CHECK(dv.strides() == t.strides());
    const Tensor back = to_cpu(dv);
    CHECK(back.is_contiguous());
    CHECK(bitwise_difference(back, t) == "");
  }
}

TEST_CASE("a permuted layout with holes arrives dense in its own dim order") {
  // PyTorch's _to_copy allocates with empty_like(preserve_format): base.t()[:, ::2] arrives with
  // strides (1, 5), dim 0 innermost as in t, not row-major (4, 1).
  const Tensor base = random_floats({8, 5}, 3);
  const Tensor t = base.t().slice(1, 0, 8, 2);  // (5, 4), strides (1, 10)
  const Tensor d = to_cuda(t);
  CHECK(d.strides() == device_copy_strides(t));
  CHECK(d.strides() == Shape{1, 5});
  CHECK(d.storage().nbytes() == t.numel() * 4);
  CHECK(bitwise_difference(to_cpu(d), t) == "");
  const Tensor dv = to_cuda_as_view(t);
  const Tensor back = to_cpu(dv);
  CHECK(back.strides() == Shape{1, 5});
  CHECK(bitwise_difference(back, t) == "");
}

TEST_CASE("0-d and empty tensors") {
  const Tensor s = scalar_tensor(Scalar(2.5));
  CHECK(to_cpu(to_cuda(s)).item().to_double() == 2.5);
  CHECK(to_cuda(s).dim() == 0);
  const Tensor e = empty({3, 0, 2});
  const Tensor de = to_cuda(e);
  CHECK(de.sizes() == e.sizes());
  CHECK(to_cpu(de).numel() == 0);
}

TEST_CASE("a device that does not exist is named in the error") {
  const int n = device_count();
  CHECK_THROWS_WITH_AS(to_device(zeros({2}), Device::cuda(n)),
                       ("cuda::to_device: device cuda:" + std::to_string(n) +
                        " does not exist (this machine has " + std::to_string(n) + " CUDA devices)")
                           .c_str(),
                       Error);
}

TEST_CASE("strided::empty on a CUDA device allocates device memory through the registered allocator") {
  const int64_t before = Storage::allocation_count();
  const Tensor d = empty({1024}, {DType::Float32, Device::cuda()});
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(d.storage().device() == Device::cuda());
  CHECK(reinterpret_cast<uintptr_t>(d.data_ptr()) % 256 == 0);  // cudaMalloc's alignment
  CHECK(d.storage().nbytes() == 4096);
}
