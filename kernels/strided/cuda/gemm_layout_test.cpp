// NOTE: [The swap trick] checked on the CPU: the GemmCall chosen for each layout is handed to a
// column-major GEMM written from the BLAS definition (what cublasSgemm computes), and its result,
// read back row-major, must be A·B. No GPU is needed to know the flags are right.
#include "strided/cuda/gemm_layout.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace strided::cuda;
using strided::Layout;

namespace {

// The reference BLAS xGEMM (netlib sgemm.f): C := op(A)·op(B), every matrix column-major, element
// (i, j) of a stored matrix X at X[i + j·ldx]. m×n result, inner dimension k.
void colmajor_gemm(BlasTranspose ta, BlasTranspose tb, int64_t m, int64_t n, int64_t k,
                   const float* A, int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc) {
  // BLAS's argument checks (sgemm.f, INFO 8, 10, 13).
  const int64_t nrowa = ta == BlasTranspose::N ? m : k;
  const int64_t nrowb = tb == BlasTranspose::N ? k : n;
  REQUIRE(lda >= std::max<int64_t>(1, nrowa));
  REQUIRE(ldb >= std::max<int64_t>(1, nrowb));
  REQUIRE(ldc >= std::max<int64_t>(1, m));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) {
        const float a = ta == BlasTranspose::N ? A[i + p * lda] : A[p + i * lda];
        const float b = tb == BlasTranspose::N ? B[p + j * ldb] : B[j + p * ldb];
        s += double{a} * b;
      }
      C[i + j * ldc] = static_cast<float>(s);
    }
}

// A rows×cols matrix stored with the given element strides inside a buffer (values i*cols + j + 1
// at (i, j), other cells NaN so that reading one shows).
struct Stored {
  int64_t rows, cols, s0, s1;
  std::vector<float> buf;
  Stored(int64_t r, int64_t c, int64_t s0_, int64_t s1_) : rows(r), cols(c), s0(s0_), s1(s1_) {
    int64_t span = 1;
    if (r > 0 && c > 0) span = 1 + (r - 1) * s0 + (c - 1) * s1;
    buf.assign(static_cast<size_t>(span), NAN);
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < c; ++j) buf[static_cast<size_t>(i * s0 + j * s1)] = float(i * c + j + 1) / 8;
  }
  float at(int64_t i, int64_t j) const { return buf[static_cast<size_t>(i * s0 + j * s1)]; }
};

// Computes a·b through the chosen call and compares with the row-major definition.
void check_product(const Stored& a, const Stored& b) {
  const int64_t M = a.rows, K = a.cols, N = b.cols;
  const auto at = transposed_operand(Layout({a.rows, a.cols}, {a.s0, a.s1}));
  const auto bt = transposed_operand(Layout({b.rows, b.cols}, {b.s0, b.s1}));
  REQUIRE(at.has_value());
  REQUIRE(bt.has_value());
  const GemmCall call = make_gemm_call(M, N, K, *at, *bt, N);
  std::vector<float> c(static_cast<size_t>(M * N), NAN);
  colmajor_gemm(call.transa, call.transb, call.m, call.n, call.k, b.buf.data(), call.lda,
                a.buf.data(), call.ldb, c.data(), call.ldc);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0;
      for (int64_t p = 0; p < K; ++p) want += double{a.at(i, p)} * b.at(p, j);
      INFO("C(", i, ", ", j, ") with a ", a.s0, ",", a.s1, " and b ", b.s0, ",", b.s1);
      REQUIRE(c[static_cast<size_t>(i * N + j)] == static_cast<float>(want));
    }
}

}  // namespace

// The reading itself (row-major, column-major, size-1 dims, copies) is blas_reading's, tested in
// lib/strided/layout/blas_reading_test.cpp; here, how cuBLAS's flags follow from it.
TEST_CASE("a row-major operand is read with op N, a column-major one with op T, others copied") {
  CHECK(transposed_operand(Layout({4, 6}, {10, 1})) == BlasOperand{BlasTranspose::N, 10});
  CHECK(transposed_operand(Layout({6, 4}, {1, 9})) == BlasOperand{BlasTranspose::T, 9});
  CHECK(transposed_operand(Layout({1, 6}, {999, 1})) == BlasOperand{BlasTranspose::N, 6});
  CHECK_FALSE(transposed_operand(Layout({4, 6}, {12, 2})).has_value());
}

TEST_CASE("the swap trick: a·b, a·b.mT, a.mT·b, a.mT·b.mT are each one correct GEMM call (MM-07)") {
  const int64_t M = 5, K = 3, N = 4;
  const Stored a_row(M, K, K, 1), a_col(M, K, 1, M);  // a, and a stored as (a.T).T
  const Stored b_row(K, N, N, 1), b_col(K, N, 1, K);
  check_product(a_row, b_row);
  check_product(a_row, b_col);
  check_product(a_col, b_row);
  check_product(a_col, b_col);
  // Padded leading dimensions (slices of wider matrices).
  check_product(Stored(M, K, 7, 1), Stored(K, N, 1, 5));
  check_product(Stored(M, K, 1, 8), Stored(K, N, 9, 1));
}

TEST_CASE("the flags of the four layouts") {
  const auto row = [](int64_t r, int64_t c) { return *transposed_operand(Layout({r, c}, {c, 1})); };
  const auto col = [](int64_t r, int64_t c) { return *transposed_operand(Layout({r, c}, {1, r})); };
  // C = a·b, both row-major: cublasSgemm(N, N, m=N, n=M, k=K, b, ldb=N, a, lda=K, C, ldc=N).
  const GemmCall nn = make_gemm_call(5, 4, 3, row(5, 3), row(3, 4), 4);
  CHECK(nn.transa == BlasTranspose::N);
  CHECK(nn.transb == BlasTranspose::N);
  CHECK((nn.m == 4 && nn.n == 5 && nn.k == 3));
  CHECK((nn.lda == 4 && nn.ldb == 3 && nn.ldc == 4));
  const GemmCall tt = make_gemm_call(5, 4, 3, col(5, 3), col(3, 4), 4);
  CHECK(tt.transa == BlasTranspose::T);
  CHECK(tt.transb == BlasTranspose::T);
  CHECK((tt.lda == 3 && tt.ldb == 5));
}

TEST_CASE("degenerate shapes: vectors and single elements") {
  check_product(Stored(1, 3, 3, 1), Stored(3, 1, 1, 1));  // a dot product
  check_product(Stored(4, 1, 1, 1), Stored(1, 5, 5, 1));  // an outer product
  check_product(Stored(1, 1, 1, 1), Stored(1, 1, 1, 1));
}

TEST_CASE("cuBLAS's int arguments bound the problem size") {
  GemmCall c = make_gemm_call(10, 10, 10, {BlasTranspose::N, 10}, {BlasTranspose::N, 10}, 10);
  CHECK(c.fits_int32());
  c.k = int64_t{1} << 31;
  CHECK_FALSE(c.fits_int32());
}
