// The three matmul versions against the CPU reference in the seed's four layouts (In[20]) and
// others: within γ_K·Σ|a·b| on random data, exact on small integers (reference.h).
#include "strided/cuda/matmul.h"

#include <doctest/doctest.h>

#include "strided/cuda/reference.h"
#include "strided/cuda/test_util.h"

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::testing;

namespace {

constexpr MatmulKernel kKernels[] = {MatmulKernel::Naive, MatmulKernel::Tiled, MatmulKernel::Cublas};
const char* kernel_name(MatmulKernel k) {
  return k == MatmulKernel::Naive ? "naive" : k == MatmulKernel::Tiled ? "tiled" : "cublas";
}

// x (rows×cols) stored row-major, or column-major (the .mT of a contiguous cols×rows matrix).
Tensor layout(const Tensor& row_major, bool column_major) {
  if (!column_major) return row_major;
  const int64_t r = row_major.size(0), c = row_major.size(1);
  Tensor t = empty({c, r});
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) t.data<float>()[j * r + i] = row_major.data<float>()[i * c + j];
  return view(t, {r, c}, {1, r});
}

void check_product(const Tensor& a, const Tensor& b, bool exact, const char* what) {
  const ReferenceValues want = reference_matmul(a, b);
  const Tensor da = to_cuda_as_view(a), db = to_cuda_as_view(b);
  for (const MatmulKernel k : kKernels) {
    INFO(what, " ", kernel_name(k));
    CHECK(compare_with_reference(to_cpu(matmul(da, db, k)), want, exact ? 0 : want.terms) == "");
  }
}

}  // namespace

TEST_CASE("a@b, a@b.mT, a.mT@b, a.mT@b.mT for several shapes") {
  for (const auto& mkn : std::vector<Shape>{{1, 1, 1}, {5, 3, 4}, {64, 64, 64}, {129, 65, 33},
                                            {257, 1000, 31}, {1, 512, 700}, {700, 512, 1}}) {
    const int64_t M = mkn[0], K = mkn[1], N = mkn[2];
    const Tensor a = random_floats({M, K}, static_cast<uint64_t>(M * 31 + K));
    const Tensor b = random_floats({K, N}, static_cast<uint64_t>(K * 37 + N));
    for (const bool ac : {false, true})
      for (const bool bc : {false, true}) {
        const std::string what = to_string(mkn) + (ac ? " a col-major" : " a row-major") +
                                 (bc ? ", b col-major" : ", b row-major");
        check_product(layout(a, ac), layout(b, bc), false, what.c_str());
      }
  }
}

TEST_CASE("small integers give exact products in every version") {
  const Tensor a = small_integers({100, 300}, 1), b = small_integers({300, 70}, 2);
  check_product(a, b, true, "integers");
  check_product(layout(a, true), b, true, "integers, a col-major");
}

TEST_CASE("padded leading dimensions and layouts cuBLAS cannot read") {
  const Tensor big = random_floats({80, 90}, 3);
  check_product(view(big, {40, 30}, {90, 1}, 5), view(big, {30, 20}, {90, 1}, 3000), false,
                "row slices of a wider matrix");
  check_product(view(big, {40, 30}, {2, 180}), view(big, {30, 20}, {180, 2}, 1), false,
                "stride-2 layouts (copied for cuBLAS)");
  check_product(view(big, {40, 30}, {0, 1}), view(big, {30, 20}, {90, 0}), false,
                "broadcast rows and columns");
}

TEST_CASE("K = 0 gives zeros; M or N = 0 gives an empty result") {
  const Tensor a = to_cuda(empty({3, 0})), b = to_cuda(empty({0, 4}));
  for (const MatmulKernel k : kKernels) {
    CHECK(to_cpu(matmul(a, b, k)).to_vector() == std::vector<double>(12, 0.0));
    CHECK(matmul(to_cuda(empty({0, 5})), to_cuda(empty({5, 4})), k).sizes() == Shape{0, 4});
  }
}

TEST_CASE("the cuBLAS path reads all four layouts in place: no allocation (MM-07)") {
  const Tensor a = random_floats({64, 48}, 4), b = random_floats({48, 32}, 5);
  Tensor out = to_cuda(empty({64, 32}));
  for (const bool ac : {false, true})
    for (const bool bc : {false, true}) {
      const Tensor da = to_cuda_as_view(layout(a, ac)), db = to_cuda_as_view(layout(b, bc));
      const int64_t before = Storage::allocation_count();
      matmul_out(out, da, db);
      CHECK(Storage::allocation_count() == before);
      CHECK(compare_with_reference(to_cpu(out), reference_matmul(a, b), 48) == "");
    }
}
