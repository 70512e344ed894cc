// The three reduction kernels against the CPU reference, along every dim of inputs in any layout
// (each walked in place through its plan): amax exact, sum within γ_{n−1}·Σ|x| on random data and
// exact on small integers (reference.h).
#include "strided/cuda/reduce.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "strided/cuda/reference.h"
#include "strided/cuda/test_util.h"
#include "strided/engine/reduce.h"

using namespace strided;
using namespace strided::cuda;
using namespace strided::cuda::testing;

namespace {

constexpr ReduceKernel kReduceKernels[] = {ReduceKernel::Auto, ReduceKernel::ThreadPerOutput,
                                     ReduceKernel::BlockPerRow, ReduceKernel::ColumnSplit};
const char* reduce_kernel_name(ReduceKernel k) {
  switch (k) {
    case ReduceKernel::Auto: return "auto";
    case ReduceKernel::ThreadPerOutput: return "thread per output";
    case ReduceKernel::BlockPerRow: return "block per row";
    case ReduceKernel::ColumnSplit: return "column split";
  }
  return "?";
}

// Sum with the float32 bound for random data, exactly for integer data.
void check_all_dims(const Tensor& x, bool exact_sums, const char* what) {
  const Tensor dx = to_cuda_as_view(x);
  for (int64_t dim = 0; dim < std::max<int64_t>(x.dim(), 1); ++dim) {
    const ReferenceValues s = reference_sum(x, dim), m = reference_amax(x, dim);
    for (const ReduceKernel k : kReduceKernels) {
      INFO(what, " dim ", dim, ", ", reduce_kernel_name(k));
      const int64_t bound = exact_sums ? 0 : std::max<int64_t>(s.terms - 1, 0);
      CHECK(compare_with_reference(to_cpu(cuda::sum(dx, dim, k)), s, bound) == "");
      CHECK(compare_with_reference(to_cpu(amax(dx, dim, k)), m, 0) == "");
    }
  }
}

}  // namespace

TEST_CASE("the seed's 1024 x 1024 max(-1) and max(-2), and random shapes") {
  check_all_dims(random_floats({1024, 1024}, 1), false, "1024x1024");
  check_all_dims(random_floats({3, 1000, 5}, 2), false, "3x1000x5");
  check_all_dims(random_floats({2, 3, 4, 5}, 3), false, "2x3x4x5");
  check_all_dims(random_floats({1}, 4), false, "1");
  check_all_dims(random_floats({}, 5), false, "0-d");
  check_all_dims(random_floats({33, 1}, 6), false, "33x1");
}

TEST_CASE("long rows and long columns of small integers are summed exactly") {
  check_all_dims(small_integers({2, 1 << 20}, 7), true, "2 x 2^20");
  check_all_dims(small_integers({1 << 18, 3}, 8), true, "2^18 x 3");
  check_all_dims(small_integers({70000, 3, 2}, 9), true, "70000 x 3 x 2 (outer > 65535)");
}

TEST_CASE("a non-contiguous input is reduced in place, through its plan") {
  const Tensor base = random_floats({40, 30}, 10);
  check_all_dims(view(base, {30, 40}, {1, 30}), false, "transposed");
  check_all_dims(view(base, {40, 10}, {30, 3}, 2), false, "every third column");
  check_all_dims(view(random_floats({60}, 12), {3, 4, 5}, {1, 15, 3}), false, "permuted cube");
  check_all_dims(view(random_floats({5}, 13), {5, 70}, {1, 0}), false, "expanded");
}

TEST_CASE("sum_out writes a result that is a view with a storage offset where it lies") {
  const Tensor x = to_cuda(small_integers({8, 3}, 14));
  Tensor whole = to_cuda(zeros({10}));
  Tensor out = view(whole, {8}, {1}, 2);
  sum_out(out, x, 1);
  const std::vector<double> got = to_cpu(whole).to_vector();
  CHECK(std::vector<double>(got.begin() + 2, got.end()) ==
        strided::sum(small_integers({8, 3}, 14), 1).to_vector());
  CHECK(got[0] == 0.0);
  CHECK(got[1] == 0.0);
}

TEST_CASE("amax propagates NaN; a sum over an empty dim is zero") {
  Tensor x = random_floats({4, 300}, 11);
  x.data<float>()[2 * 300 + 17] = std::numeric_limits<float>::quiet_NaN();
  check_all_dims(x, false, "one NaN");
  const Tensor e = to_cuda(empty({5, 0}));
  CHECK(to_cpu(cuda::sum(e, 1)).to_vector() == std::vector<double>(5, 0.0));
  CHECK(cuda::sum(e, 0).sizes() == Shape{0});
}
