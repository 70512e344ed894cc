// Both transpose kernels against the CPU reference: exact, for edge shapes, views, and a matrix
// taller than one grid's worth of tile rows.
#include "strided/cuda/transpose.h"

#include <doctest/doctest.h>

#include "strided/cuda/backend.h"
#include "strided/cuda/reference.h"
#include "strided/cuda/test_util.h"

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::testing;

namespace {
void check(const Tensor& a, const char* what) {
  const Tensor da = to_cuda_as_view(a);
  const Tensor want = reference_transpose(a);
  for (const TransposeKernel k : {TransposeKernel::Naive, TransposeKernel::Tiled}) {
    INFO(what, k == TransposeKernel::Naive ? " naive" : " tiled");
    const Tensor got = transposed_copy(da, k);
    CHECK(got.is_contiguous());
    CHECK(bitwise_difference(to_cpu(got), want) == "");
  }
}
}  // namespace

TEST_CASE("square, ragged and degenerate shapes") {
  for (const auto& s : std::vector<Shape>{{1, 1}, {1, 1000}, {1000, 1}, {32, 32}, {33, 65},
                                          {1025, 31}, {512, 512}, {7, 0}}) {
    check(random_floats(s, static_cast<uint64_t>(s[0] * 7919 + s[1])), to_string(s).c_str());
  }
}

TEST_CASE("views: a column slice with a padded row stride, an already transposed matrix, int32") {
  const Tensor base = random_floats({100, 80}, 1);
  check(view(base, {100, 50}, {80, 1}, 7), "columns 7..56");
  check(view(base, {80, 100}, {1, 80}), "base.t()");
  Tensor ints = empty({37, 41}, {DType::Int32});
  for (int64_t i = 0; i < 37 * 41; ++i) ints.data<int32_t>()[i] = static_cast<int32_t>(i * 31 - 7);
  check(ints, "int32");
}

TEST_CASE("more tile rows than gridDim.y allows (65535 x 32 = 2,097,120 rows)") {
  check(random_floats({2'100'003, 3}, 2), "2100003 x 3");
}

TEST_CASE("the tiled kernel's 64-bit offsets give the same bits as its 32-bit ones") {
  // Matrices whose offsets need 64 bits are gigabytes; the 64-bit instantiation is checked here on
  // small ones, which both instantiations can walk, by calling it directly.
  for (const auto& s : std::vector<Shape>{{33, 65}, {130, 70}, {1, 1000}}) {
    const Tensor a = random_floats(s, static_cast<uint64_t>(s[0] + s[1]));
    const Tensor da = to_cuda_as_view(a);
    Tensor got = empty({s[1], s[0]}, {DType::Float32, Device::cuda()});
    backend::launch_transpose_4byte(TransposeKernel::Tiled, got.data_ptr(), da.data_ptr(),
                                    s[0], s[1], da.stride(0), da.stride(1), /*index64=*/true);
    CHECK(bitwise_difference(to_cpu(got), reference_transpose(a)) == "");
  }
}
