// matmul: shapes, layouts and errors as PyTorch 1.13 gives them (each expected shape, stride and
// message below was printed by torch.matmul for the same operands), and values of every kernel
// against a reference computed here element by element through the address formula.
#include "strided/engine/matmul.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "strided/engine/ops.h"

using namespace strided;

namespace {

Tensor random_normal(Shape sizes, DType dt = DType::Float32) {
  static Generator gen(7);
  Tensor t = randn(sizes, gen, {DType::Float64});
  return dt == DType::Float64 ? t : t.to(dt);
}

// Small integers, so float products are exact and integer products are checked exactly.
Tensor small_ints(Shape sizes, DType dt) {
  static Generator gen(3);
  Tensor t = empty(sizes, {DType::Float64});
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (double& x : v) x = static_cast<double>(static_cast<int64_t>(gen.next_u64() % 9) - 4);
  return from_values(v, sizes, {dt});
}

// The textbook definition on the logical elements of 2-D a and b, in double.
std::vector<double> reference_product(const Tensor& a, const Tensor& b) {
  const int64_t n = a.size(0), k = a.size(1), m = b.size(1);
  std::vector<double> out(static_cast<size_t>(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += a.at({i, p}).to_double() * b.at({p, j}).to_double();
      out[static_cast<size_t>(i * m + j)] = s;
    }
  return out;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(std::abs(got[i] - want[i]) <= tol * (1.0 + std::abs(want[i])));
  }
}

std::string error_of(const Tensor& a, const Tensor& b) {
  try {
    (void)matmul(a, b);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// The four layouts of chapter 7: each operand row-major or column-major (a .mT of a contiguous
// tensor), with the same logical values.
Tensor as_layout(const Tensor& t, bool column_major) {
  return column_major ? t.mT().contiguous().mT() : t.contiguous();
}

}  // namespace

TEST_CASE("shapes and strides of torch.matmul for 1-D, 2-D and batched operands") {
  struct Case {
    Shape a, b, out, strides;
  };
  // (a, b) -> (shape, stride), as torch.matmul(torch.randn(a), torch.randn(b)) gives them.
  const std::vector<Case> cases = {
      {{3}, {3}, {}, {}},
      {{2, 3}, {3}, {2}, {1}},
      {{3}, {3, 4}, {4}, {1}},
      {{2, 3}, {3, 4}, {2, 4}, {4, 1}},
      {{5, 2, 3}, {3}, {5, 2}, {2, 1}},
      {{3}, {5, 3, 4}, {5, 4}, {4, 1}},
      {{5, 2, 3}, {3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{2, 3}, {5, 3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{7, 1, 2, 3}, {5, 3, 4}, {7, 5, 2, 4}, {40, 8, 4, 1}},
      {{5, 2, 3}, {5, 3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{1, 2, 3}, {5, 3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{5, 2, 3}, {1, 3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{3, 5, 2, 3}, {3, 4}, {3, 5, 2, 4}, {40, 8, 4, 1}},
      {{2, 3}, {6, 5, 3, 4}, {6, 5, 2, 4}, {40, 8, 4, 1}},
      {{0, 3}, {3, 4}, {0, 4}, {4, 1}},
      {{2, 0}, {0, 4}, {2, 4}, {4, 1}},
      {{3, 0}, {5, 0, 4}, {5, 3, 4}, {12, 4, 1}},
  };
  for (const Case& c : cases) {
    const Tensor a = random_normal(c.a), b = random_normal(c.b);
    const Tensor r = matmul(a, b);
    CAPTURE(a.layout());
    CAPTURE(b.layout());
    CHECK(r.sizes() == c.out);
    CHECK(r.strides() == c.strides);
    CHECK(r.dtype() == DType::Float32);
  }
}

TEST_CASE("values of every path against the reference, broadcasting batches") {
  // 2-D in the four layouts, and the batched paths checked slice by slice.
  for (bool acol : {false, true})
    for (bool bcol : {false, true}) {
      const Tensor a = as_layout(random_normal({17, 33}, DType::Float64), acol);
      const Tensor b = as_layout(random_normal({33, 9}, DType::Float64), bcol);
      check_close(matmul(a, b).to_vector(), reference_product(a, b), 1e-12);
    }
  const Tensor a = random_normal({4, 1, 6, 5}, DType::Float64), b = random_normal({3, 5, 2}, DType::Float64);
  const Tensor r = matmul(a, b);
  REQUIRE(r.sizes() == Shape{4, 3, 6, 2});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      const Tensor slice = r.select(0, i).select(0, j);
      check_close(slice.to_vector(), reference_product(a.select(0, i).select(0, 0), b.select(0, j)),
                  1e-12);
    }
  // 1-D operands: the vector is a (1,k) row or a (k,1) column, then the 1 is removed.
  const Tensor v = random_normal({5}, DType::Float64), m = random_normal({5, 3}, DType::Float64);
  check_close(matmul(v, m).to_vector(), reference_product(v.unsqueeze(0), m), 1e-12);
  check_close(matmul(m.t(), v).to_vector(), reference_product(m.t(), v.unsqueeze(1)), 1e-12);
  check_close({matmul(v, v).item().to_double()}, reference_product(v.unsqueeze(0), v.unsqueeze(1)), 1e-12);
  // A batch times a matrix folds into one mm; a matrix times a batch folds through transposes;
  // a (5,2,3) made by permute(0,2,1) does not fold and goes through bmm. Same values each way.
  const Tensor batch = random_normal({5, 2, 3}, DType::Float64);
  const Tensor mat = random_normal({3, 4}, DType::Float64);
  const Tensor permuted = batch.mT().contiguous().mT();  // (5,2,3):(6,1,2)
  for (const Tensor& t : {batch, permuted}) {
    const Tensor out = matmul(t, mat);
    for (int64_t i = 0; i < 5; ++i)
      check_close(out.select(0, i).to_vector(), reference_product(t.select(0, i), mat), 1e-12);
  }
  const Tensor left = random_normal({2, 5}, DType::Float64);
  const Tensor big = random_normal({3, 5, 4}, DType::Float64);
  const Tensor out = matmul(left, big);
  for (int64_t i = 0; i < 3; ++i)
    check_close(out.select(0, i).to_vector(), reference_product(left, big.select(0, i)), 1e-12);
  // Expanded (stride-0) operands are read correctly.
  const Tensor row = random_normal({1, 5}, DType::Float64).expand({4, 5});
  check_close(matmul(row, m).to_vector(), reference_product(row, m), 1e-12);
}

TEST_CASE("integer matmul is exact and wraps as PyTorch's; float32 matches float64 closely") {
  const Tensor a = small_ints({6, 7}, DType::Int64).mT().contiguous().mT();
  const Tensor b = small_ints({7, 3}, DType::Int64);
  CHECK(matmul(a, b).to_vector() == reference_product(a, b));
  CHECK(matmul(a, b).dtype() == DType::Int64);
  // torch.full((2,3), 65536*3+7, int32) @ torch.full((3,2), 65536+5, int32) gives 4325481.
  const Tensor x = full({2, 3}, Scalar(int64_t{65536 * 3 + 7}), {DType::Int32});
  const Tensor y = full({3, 2}, Scalar(int64_t{65536 + 5}), {DType::Int32});
  CHECK(matmul(x, y).at({0, 0}).to_int() == 4325481);
  // arange(6).reshape(2,3) @ arange(12).reshape(3,4) in column-major storage, as torch printed.
  const Tensor p = arange(6).view({2, 3});
  const Tensor q = as_layout(arange(12).view({3, 4}), true);
  CHECK(matmul(p, q).to_vector() == std::vector<double>{20, 23, 26, 29, 56, 68, 80, 92});
  const Tensor f = random_normal({20, 30}), g = random_normal({30, 10});
  check_close(matmul(f, g).to_vector(), reference_product(f, g), 1e-5);
}

TEST_CASE("uint8, int8 and int16 matmul: each sum of products wraps in the type") {
  // torch: torch.full((2, 3), 100, dtype=torch.uint8) @ torch.full((3, 2), 100, dtype=torch.uint8)
  // is 48 everywhere (30000 mod 256); in int8 48 too, in int16 30000.
  for (const auto& [dtype, want] : {std::pair{DType::UInt8, 48.0}, std::pair{DType::Int8, 48.0},
                                    std::pair{DType::Int16, 30000.0}}) {
    const Tensor x = full({2, 3}, Scalar(int64_t{100}), {dtype});
    const Tensor y = full({3, 2}, Scalar(int64_t{100}), {dtype});
    const Tensor r = matmul(x, y);
    CHECK(r.dtype() == dtype);
    CHECK(r.to_vector() == std::vector<double>(4, want));
  }
  // Every path against the int64 product, narrowed: mm, mv, dot, and broadcast batches.
  for (DType dtype : {DType::UInt8, DType::Int8, DType::Int16}) {
    const Tensor a = small_ints({2, 3, 5}, DType::Int64), b = small_ints({5, 4}, DType::Int64);
    CAPTURE(name(dtype));
    CHECK(matmul(a.to(dtype), b.to(dtype)).to_vector() == matmul(a, b).to(dtype).to_vector());
    CHECK(matmul(a.select(0, 1).to(dtype), b.select(1, 2).to(dtype)).to_vector() ==
          matmul(a.select(0, 1), b.select(1, 2)).to(dtype).to_vector());
    CHECK(matmul(b.select(1, 0).to(dtype), b.select(1, 3).to(dtype)).to_vector() ==
          matmul(b.select(1, 0), b.select(1, 3)).to(dtype).to_vector());
  }
  // PyTorch 2.6's mm compares the dtypes first, in TypeMeta's C++ names (1.13: "expected scalar
  // type Byte but found Char").
  CHECK_THROWS_WITH_AS(matmul(ones({2, 2}, {DType::UInt8}), ones({2, 2}, {DType::Int8})),
                       "matmul: expected m1 and m2 to have the same dtype, but got: unsigned char "
                       "!= signed char",
                       Error);
}

TEST_CASE("bfloat16 and float16 are computed in float32 and rounded once, as PyTorch 2.6") {
  // 1.01 in bfloat16 is 1.0078125; 300 of them sum to 302.34, 302 in bfloat16, as torch 2.6
  // printed (torch 1.13's row-major mm added in bfloat16 and gave 346).
  const Tensor a = full({2, 300}, Scalar(1.01), {DType::BFloat16});
  const Tensor b = ones({300, 2}, {DType::BFloat16});
  const Tensor r = matmul(a, b);
  CHECK(r.dtype() == DType::BFloat16);
  CHECK(r.to_vector() == std::vector<double>{302, 302, 302, 302});
  // 1.01 in float16 is 1.0097656; 300 of them sum to 302.93, 303 in float16, which torch 2.6
  // printed for mm, bmm, mv and dot alike (torch 1.13 had no float16 kernel on the CPU).
  const Tensor h = full({2, 300}, Scalar(1.01), {DType::Float16});
  const Tensor one = ones({300, 2}, {DType::Float16});
  CHECK(matmul(h, one).dtype() == DType::Float16);
  CHECK(matmul(h, one).to_vector() == std::vector<double>{303, 303, 303, 303});
  CHECK(matmul(h.unsqueeze(0), one.unsqueeze(0)).to_vector() ==
        std::vector<double>{303, 303, 303, 303});
  CHECK(matmul(h, one.select(1, 0)).to_vector() == std::vector<double>{303, 303});
  CHECK(matmul(h.select(0, 0), one.select(1, 0)).item().to_double() == 303);
}

TEST_CASE("the product PyTorch 2.6 dispatches to decides the result's strides on size-1 dims") {
  // (3,3) · (1,3,1): 2.6 does not fold a matrix times a batch and runs bmm, whose contiguous
  // (1,3,1) result has strides (3,1,1); 1.13 folded it into an mm through transposes, and the
  // transpose back, contiguous already, kept strides (3,1,3) (tests/conformance/
  // engine_cases.jsonl, case 288, keeps 1.13's answer as expected_1_13).
  const Tensor r = matmul(ones({3, 3}, {DType::Int64}), ones({1, 3, 1}, {DType::Int64}));
  CHECK(r.sizes() == Shape{1, 3, 1});
  CHECK(r.strides() == Shape{3, 1, 1});
  // A batch whose dims do not fold into rows as a view goes through bmm, a vector operand as a
  // column: (3,4,2) with strides (2,6,1) times (2,) gives (3,4) of strides (4,1).
  const Tensor p = ones({4, 3, 2}).permute({1, 0, 2});
  const Tensor q = matmul(p, ones({2}));
  CHECK(q.sizes() == Shape{3, 4});
  CHECK(q.strides() == Shape{4, 1});
  CHECK(q.to_vector() == std::vector<double>(12, 2.0));
  CHECK(matmul_should_fold(Layout({2, 2, 3}, {6, 3, 1}), Layout({3}, {1})));
  CHECK(!matmul_should_fold(Layout({3, 4, 2}, {2, 6, 1}), Layout({2}, {1})));
  CHECK(!matmul_should_fold(Layout({2, 3}, {3, 1}), Layout({2, 3, 4}, {12, 4, 1})));
  CHECK(!matmul_should_fold(Layout({3}, {1}),
                            Layout({2, 3, 4}, {12, 4, 1})));  // its mT's batch does not fold
  CHECK(matmul_should_fold(Layout({3}, {1}), Layout({2, 4, 3}, {12, 1, 4})));
}

TEST_CASE("every chapter-7 kernel gives the product, on any strides") {
  const Tensor base_a = random_normal({70, 130}, DType::Float64);
  const Tensor base_b = random_normal({130, 67}, DType::Float64);
  // Row-major, column-major, and a stepped slice that BLAS must copy.
  const std::vector<Tensor> as = {as_layout(base_a, false), as_layout(base_a, true),
                                  random_normal({140, 130}, DType::Float64).slice(0, 0, 140, 2)};
  const std::vector<Tensor> bs = {as_layout(base_b, false), as_layout(base_b, true)};
  for (MatmulKernel k : {MatmulKernel::Naive, MatmulKernel::NaiveTransposed,
                         MatmulKernel::Blocked, MatmulKernel::Blas}) {
    for (const Tensor& a : as)
      for (const Tensor& b : bs) {
        CAPTURE(to_string(k));
        const Tensor r = matmul_2d(a, b, k);
        CHECK(r.is_contiguous());
        check_close(r.to_vector(), reference_product(a, b), 1e-12);
        const Tensor r32 = matmul_2d(a.to(DType::Float32), b.to(DType::Float32), k);
        check_close(r32.to_vector(), reference_product(a, b), 1e-4);
      }
  }
  CHECK(std::string(to_string(MatmulKernel::NaiveTransposed)) == "naive_transposed");
  CHECK_THROWS_WITH_AS(matmul_2d(arange(4).view({2, 2}), arange(4).view({2, 2}),
                                 MatmulKernel::Blocked),
                       "matmul_2d: the blocked kernel takes two float32 or two float64 "
                       "operands, but got int64 and int64",
                       Error);
}

TEST_CASE("BLAS takes row- and column-major operands without a copy") {
  const Tensor r = random_normal({4, 6});
  const BlasOperand row = blas_operand(r);
  CHECK(!row.transpose);
  CHECK(row.ld == 6);
  CHECK(!row.copy);
  const BlasOperand col = blas_operand(r.mT().contiguous().mT());
  CHECK(col.transpose);
  CHECK(col.ld == 4);
  CHECK(!col.copy);
  // A sub-matrix of a wider row-major matrix: ld is the parent's row length.
  const BlasOperand sub = blas_operand(random_normal({8, 10}).slice(1, 2, 8));
  CHECK(!sub.transpose);
  CHECK(sub.ld == 10);
  CHECK(blas_operand(random_normal({8, 10}).slice(1, 0, 10, 2)).copy);
  CHECK(blas_operand(random_normal({1, 5}).expand({3, 5})).copy);
}

TEST_CASE("errors carry PyTorch's messages") {
  const auto f = [](Shape s) { return random_normal(s); };
  const auto d = [](Shape s) { return random_normal(s, DType::Float64); };
  const auto o = [](Shape s, DType t) { return ones(s, {t}); };
  CHECK(error_of(scalar_tensor(Scalar(1.0)), f({3})) ==
        "matmul: both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  CHECK(error_of(f({3}), f({4})) ==
        "matmul: inconsistent tensor size, expected tensor [3] and src [4] to have the same "
        "number of elements, but got 3 and 4 elements respectively");
  CHECK(error_of(f({2, 3}), f({4})) == "matmul: size mismatch, got input (2), mat (2x3), vec (4)");
  CHECK(error_of(f({3}), f({4, 5})) ==
        "matmul: mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
  CHECK(error_of(f({5, 2, 3}), f({4, 5})) ==
        "matmul: mat1 and mat2 shapes cannot be multiplied (10x3 and 4x5)");
  // A matrix or a vector times a batch goes through bmm in PyTorch 2.6 (1.13 folded both into one
  // product and said "mat1 and mat2 shapes cannot be multiplied (20x4 and 3x2)" and "size
  // mismatch, got 20, 20x4,3").
  CHECK(error_of(f({2, 3}), f({5, 4, 4})) ==
        "matmul: Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: "
        "[5, 4].");
  CHECK(error_of(f({3}), f({5, 4, 4})) ==
        "matmul: Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: "
        "[5, 4].");
  // broadcast_shapes adds the shapes it compared to PyTorch's sentence.
  CHECK(error_of(f({2, 2, 3}), f({3, 3, 4}))
            .starts_with("matmul: broadcast_shapes: The size of tensor a (2) must match the size "
                         "of tensor b (3) at non-singleton dimension 0"));
  CHECK(error_of(f({5, 2, 3}), f({5, 4, 4})) ==
        "matmul: Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: "
        "[5, 4].");
  // The permuted batch is not folded, so bmm reports the mismatch, as in PyTorch.
  CHECK(error_of(f({5, 3, 2}).permute({0, 2, 1}), f({4, 4})) ==
        "matmul: Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: "
        "[5, 4].");
  // A batch whose dims do not fold as a view goes through bmm too (1.13 folded it with a copy:
  // "mat1 and mat2 shapes cannot be multiplied (15x2 and 4x4)").
  CHECK(error_of(f({3, 5, 2}).permute({1, 0, 2}), f({4, 4})) ==
        "matmul: Expected size for first two dimensions of batch2 tensor to be: [5, 2] but got: "
        "[5, 4].");
  // mm compares the dtypes before it dispatches, naming them as C++ does (1.13: "expected
  // scalar type Double but found Float").
  CHECK(error_of(d({2, 3}), f({3, 4})) ==
        "matmul: expected m1 and m2 to have the same dtype, but got: double != float");
  CHECK(error_of(o({2, 3}, DType::Int64), o({3, 4}, DType::Int32)) ==
        "matmul: expected m1 and m2 to have the same dtype, but got: long int != int");
  CHECK(error_of(d({2, 3}), f({5, 3, 4})) ==
        "matmul: expected scalar type Double but found Float");
  CHECK(error_of(d({3}), f({3})) ==
        "matmul: dot : expected both vectors to have same dtype, but found Double and Float");
  CHECK(error_of(o({2, 3}, DType::Int32), f({5, 3, 4})) ==
        "matmul: expected scalar type Int but found Float");
  CHECK(error_of(o({3}, DType::Bool), o({3}, DType::Bool)) ==
        "matmul: \"dot\" not implemented for 'Bool'");
  CHECK(error_of(o({2, 3}, DType::Bool), o({3}, DType::Bool)) ==
        "matmul: \"addmv_impl_cpu\" not implemented for 'Bool'");
  CHECK(error_of(o({2, 3}, DType::Float16), o({3, 4}, DType::Float16)) == "no error");
  CHECK(error_of(o({5, 2, 3}, DType::Bool), o({5, 3, 4}, DType::Bool)) ==
        "matmul: \"bmm\" not implemented for 'Bool'");
  CHECK(error_of(o({2, 3}, DType::Bool), o({3, 4}, DType::Bool)) ==
        "matmul: \"addmm_impl_cpu_\" not implemented for 'Bool'");
  CHECK(error_of(o({2, 3}, DType::Bool), o({3, 4}, DType::Float16)) ==
        "matmul: expected m1 and m2 to have the same dtype, but got: bool != c10::Half");
}
