// torch.matmul and the chapter-7 kernels. The dispatch, PyTorch 2.6's _matmul_impl
// (aten/src/ATen/native/LinearAlgebra.cpp) step by step down to the kernel each 2-D product runs,
// is matmul_dispatch.h's, shared with the cost model; this file gives it its real steps
// (TensorOps) and holds the kernels.
#include "strided/engine/matmul.h"

#ifndef STRIDED_NO_BLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "strided/layout/blas_reading.h"
#include "strided/layout/layout.h"
#include "strided/engine/matmul_dispatch.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
#include "strided/tensor/promotion.h"

namespace strided {

namespace {

// Rows of work per parallel chunk so that a chunk holds about kGrainSize multiply-adds.
int64_t row_grain(int64_t m, int64_t k) {
  const int64_t per_row = std::max<int64_t>(1, m * std::max<int64_t>(1, k));
  return std::max<int64_t>(1, kGrainSize / per_row);
}

// Integer accumulation wraps modulo 2^bits as PyTorch's (two's complement); computing in the
// unsigned type of the same width gives that result without signed-overflow UB.
template <class T, bool = std::is_integral_v<T>>
struct AccOf {
  using type = T;
};
template <class T>
struct AccOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using Acc = typename AccOf<T>::type;

// c[i][j] = sum_p a[i][p] * b[p][j] over element strides; c is a contiguous (n,m) buffer.
template <class T>
void naive_kernel(const T* a, int64_t as0, int64_t as1, const T* b, int64_t bs0, int64_t bs1,
                  T* c, int64_t n, int64_t m, int64_t k) {
  parallel_for(0, n, row_grain(m, k), [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        Acc<T> sum = 0;
        const T* ap = a + i * as0;
        const T* bp = b + j * bs1;
        for (int64_t p = 0; p < k; ++p) {
          sum += static_cast<Acc<T>>(ap[p * as1]) * static_cast<Acc<T>>(bp[p * bs0]);
        }
        c[i * m + j] = static_cast<T>(sum);
      }
    }
  });
}

// Tile edge of the blocked kernel: three 64×64 float64 tiles are 96 KiB, within a typical L2,
// and a 64-element row of a float32 tile is four 64-byte lines.
constexpr int64_t kBlock = 64;

// c[0..N) += a * t[0..N). A trip count known at compile time and unaliased pointers let GCC's
// -O2 vectoriser (its "very cheap" cost model, which refuses loops needing a scalar epilogue or
// an alias check) turn the loop into vector code.
template <class T, int64_t N>
inline void axpy_row(T* __restrict c, const T* __restrict t, T a) {
  for (int64_t j = 0; j < N; ++j) c[j] += a * t[j];
}

// Blocked i-p-j: for each tile of b (copied into a contiguous buffer), every row of a's tile
// updates a row of c's tile with a unit-stride inner loop the compiler vectorises.
template <class T>
void blocked_kernel(const T* a, int64_t as0, int64_t as1, const T* b, int64_t bs0, int64_t bs1,
                    T* c, int64_t n, int64_t m, int64_t k) {
  std::fill(c, c + n * m, T(0));
  const int64_t row_blocks = (n + kBlock - 1) / kBlock;
  parallel_for(0, row_blocks, 1, [&](int64_t rb0, int64_t rb1) {
    std::vector<T> tile(static_cast<size_t>(kBlock * kBlock));
    std::vector<T> arow(static_cast<size_t>(kBlock));
    for (int64_t jj = 0; jj < m; jj += kBlock) {
      const int64_t jb = std::min(kBlock, m - jj);
      for (int64_t pp = 0; pp < k; pp += kBlock) {
        const int64_t pb = std::min(kBlock, k - pp);
        for (int64_t p = 0; p < pb; ++p)
          for (int64_t j = 0; j < jb; ++j)
            tile[p * kBlock + j] = b[(pp + p) * bs0 + (jj + j) * bs1];
        for (int64_t i = rb0 * kBlock; i < std::min(n, rb1 * kBlock); ++i) {
          for (int64_t p = 0; p < pb; ++p) arow[p] = a[i * as0 + (pp + p) * as1];
          T* crow = c + i * m + jj;
          for (int64_t p = 0; p < pb; ++p) {
            const T* trow = tile.data() + p * kBlock;
            if (jb == kBlock) {
              axpy_row<T, kBlock>(crow, trow, arow[p]);
            } else {
              for (int64_t j = 0; j < jb; ++j) crow[j] += arow[p] * trow[j];
            }
          }
        }
      }
    }
  });
}

#ifndef STRIDED_NO_BLAS
// One call of cblas_sgemm or cblas_dgemm: C = op(A) op(B), row-major, C's leading dimension
// max(1, m) (cblas rejects 0).
template <class T>
void blas_gemm(const T* a, BlasOperand oa, const T* b, BlasOperand ob, T* c, int64_t n, int64_t m,
               int64_t k) {
  const auto ta = oa.transpose ? CblasTrans : CblasNoTrans;
  const auto tb = ob.transpose ? CblasTrans : CblasNoTrans;
  const auto [bn, bm, bk] = std::array{static_cast<blasint>(n), static_cast<blasint>(m),
                                       static_cast<blasint>(k)};
  const auto lda = static_cast<blasint>(oa.ld), ldb = static_cast<blasint>(ob.ld);
  const auto ldc = static_cast<blasint>(std::max<int64_t>(1, m));
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, tb, bn, bm, bk, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  else
    cblas_dgemm(CblasRowMajor, ta, tb, bn, bm, bk, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}
void gemm(const float* a, BlasOperand oa, const float* b, BlasOperand ob, float* c, int64_t n,
          int64_t m, int64_t k) {
  blas_gemm(a, oa, b, ob, c, n, m, k);
}
void gemm(const double* a, BlasOperand oa, const double* b, BlasOperand ob, double* c, int64_t n,
          int64_t m, int64_t k) {
  blas_gemm(a, oa, b, ob, c, n, m, k);
}
#else
// A build without BLAS (the wasm one, lib/CMakeLists.txt): the product cblas_?gemm computes,
// C = op(A) op(B) row-major with C's leading dimension max(1, m), over the same operands, each op
// given by its transpose flag and leading dimension, as a plain loop.
template <class T>
void gemm_loop(const T* a, BlasOperand oa, const T* b, BlasOperand ob, T* c, int64_t n, int64_t m,
               int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    T* crow = c + i * m;
    std::fill(crow, crow + m, T(0));
    for (int64_t p = 0; p < k; ++p) {
      const T av = oa.transpose ? a[p * oa.ld + i] : a[i * oa.ld + p];
      for (int64_t j = 0; j < m; ++j)
        crow[j] += av * (ob.transpose ? b[j * ob.ld + p] : b[p * ob.ld + j]);
    }
  }
}
void gemm(const float* a, BlasOperand oa, const float* b, BlasOperand ob, float* c, int64_t n,
          int64_t m, int64_t k) {
  gemm_loop(a, oa, b, ob, c, n, m, k);
}
void gemm(const double* a, BlasOperand oa, const double* b, BlasOperand ob, double* c, int64_t n,
          int64_t m, int64_t k) {
  gemm_loop(a, oa, b, ob, c, n, m, k);
}
#endif

template <class T>
void blas_kernel(const Tensor& a_in, const Tensor& b_in, Tensor& out) {
  BlasOperand oa = blas_operand(a_in);
  BlasOperand ob = blas_operand(b_in);
  const Tensor a = oa.copy ? a_in.contiguous() : a_in;
  const Tensor b = ob.copy ? b_in.contiguous() : b_in;
  if (oa.copy) oa = blas_operand(a);
  if (ob.copy) ob = blas_operand(b);
  STRIDED_CHECK(a.size(0) <= INT32_MAX && b.size(1) <= INT32_MAX && a.size(1) <= INT32_MAX &&
                    oa.ld <= INT32_MAX && ob.ld <= INT32_MAX,
                "matmul", "BLAS takes 32-bit sizes, but got ", a.size(0), "x", a.size(1), " and ",
                b.size(0), "x", b.size(1));
  gemm(a.data<T>(), oa, b.data<T>(), ob, out.data<T>(), a.size(0), b.size(1), a.size(1));
}

// One 2-D product into a new contiguous (n,m) tensor; shapes and dtypes are already checked.
template <class T>
void run_kernel(MatmulKernel kernel, const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t n = a.size(0), k = a.size(1), m = b.size(1);
  if (kernel == MatmulKernel::Blas) {
    if constexpr (std::is_floating_point_v<T>) {
      blas_kernel<T>(a, b, out);
      return;
    }
  }
  const T* ap = a.data<T>();
  const T* bp = b.data<T>();
  T* cp = out.data<T>();
  switch (kernel) {
    case MatmulKernel::NaiveTransposed: {
      // b^T copied to a contiguous (m,k) tensor: row j of it is column j of b, unit stride.
      const Tensor bt = b.t().contiguous();
      naive_kernel<T>(ap, a.stride(0), a.stride(1), bt.data<T>(), 1, k, cp, n, m, k);
      return;
    }
    case MatmulKernel::Blocked:
      blocked_kernel<T>(ap, a.stride(0), a.stride(1), bp, b.stride(0), b.stride(1), cp, n, m, k);
      return;
    default:
      naive_kernel<T>(ap, a.stride(0), a.stride(1), bp, b.stride(0), b.stride(1), cp, n, m, k);
      return;
  }
}

// The real operand algebra of matmul_impl (matmul_dispatch.h): each step is Tensor's own view,
// reshape or copy, or a kernel run.
struct TensorOps {
  using Operand = Tensor;
  // The kernel of float32 and float64 products: BLAS for matmul, any for matmul_2d.
  MatmulKernel kernel = MatmulKernel::Blas;

  const Layout& layout(const Tensor& x) const { return x.layout(); }
  DType dtype(const Tensor& x) const { return x.dtype(); }
  Device device(const Tensor& x) const { return x.device(); }
  Tensor unsqueeze(const Tensor& x, int64_t dim) const { return x.unsqueeze(dim); }
  Tensor squeeze(const Tensor& x, int64_t dim) const { return x.squeeze(dim); }
  Tensor t(const Tensor& x) const { return x.t(); }
  Tensor mT(const Tensor& x) const { return x.mT(); }
  Tensor expand(const Tensor& x, IntList sizes) const { return x.expand(sizes); }
  Tensor reshape(const Tensor& x, IntList sizes) const { return x.reshape(sizes); }
  Tensor view(const Tensor& x, IntList sizes) const { return x.view(sizes); }
  Tensor contiguous(const Tensor& x) const { return x.contiguous(); }
  Tensor empty(IntList sizes, DType dtype) const {
    return strided::empty(sizes, TensorOptions{dtype});
  }
  Tensor to(const Tensor& x, DType dtype) const { return x.to(dtype); }
  void zero_(Tensor& out) const { out.fill_(Scalar(int64_t{0})); }
  void copy_(Tensor& out, const Tensor& src) const { strided::copy_(out, src); }
  void float_kernel(const Tensor& a, const Tensor& b, Tensor& out) const {
    if (a.dtype() == DType::Float32)
      run_kernel<float>(kernel, a, b, out);
    else
      run_kernel<double>(kernel, a, b, out);
  }
  void integer_kernel(const Tensor& a, const Tensor& b, Tensor& out) const {
    if (a.dtype() == DType::Int32)
      run_kernel<int32_t>(MatmulKernel::Naive, a, b, out);
    else
      run_kernel<int64_t>(MatmulKernel::Naive, a, b, out);
  }
  void product(const Tensor& a, const Tensor& b, Tensor& out) {
    matmul_detail::mm_into(*this, a, b, out);
  }
  void bmm_into(const Tensor& a, const Tensor& b, Tensor& out) {
    for (int64_t i = 0; i < a.size(0); ++i) {
      Tensor slice = out.select(0, i);
      matmul_detail::mm_into(*this, a.select(0, i), b.select(0, i), slice);
    }
  }
};

}  // namespace

bool matmul_should_fold(const Layout& layout1, const Layout& layout2) {
  // PyTorch 2.6's should_fold(tensor1, tensor2, has_out = false) for operands that do not require
  // grad (the library's engine; a t2 that requires grad folds in PyTorch whatever its strides):
  // fold the larger operand, t1 (tensor2.mT() when tensor2 has more dims), when it has 3 or more
  // dims and the other 1 or 2, unless tensor1 is the 2-D one, and only when t1's batch dims fold
  // into its rows as a view (each stride the next one's times its size) or t1 is empty. PyTorch
  // 1.13's folded whenever the dims allowed, but for a (B,n,k) batch with transposed matrices
  // (stride(2) != 1, stride(0) == n * k) times a matrix.
  const IntList sizes1 = layout1.sizes(), strides1 = layout1.strides();
  const IntList sizes2 = layout2.sizes(), strides2 = layout2.strides();
  const int64_t dim1 = layout1.dim(), dim2 = layout2.dim();
  const bool larger1 = dim1 >= dim2;
  const int64_t dim_t1 = larger1 ? dim1 : dim2, dim_t2 = larger1 ? dim2 : dim1;
  if (!(dim_t1 >= 3 && dim_t2 <= 2)) return false;
  if (dim1 == 2) return false;  // a matrix times a batch would need its result transposed back
  Shape t1_sizes(larger1 ? sizes1.begin() : sizes2.begin(), larger1 ? sizes1.end() : sizes2.end());
  Shape t1_strides(larger1 ? strides1.begin() : strides2.begin(),
                   larger1 ? strides1.end() : strides2.end());
  if (!larger1) {  // t1 = tensor2.mT()
    std::swap(t1_sizes[dim_t1 - 2], t1_sizes[dim_t1 - 1]);
    std::swap(t1_strides[dim_t1 - 2], t1_strides[dim_t1 - 1]);
  }
  for (const int64_t s : t1_sizes)
    if (s == 0) return true;
  for (int64_t i = 0; i < dim_t1 - 2; ++i)
    if (t1_strides[i] != wrapping_mul(t1_strides[i + 1], t1_sizes[i + 1])) return false;
  return true;
}

const char* to_string(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::Naive: return "naive";
    case MatmulKernel::NaiveTransposed: return "naive_transposed";
    case MatmulKernel::Blocked: return "blocked";
    case MatmulKernel::Blas: return "blas";
  }
  return "?";
}

int64_t matmul_block_size() { return kBlock; }

std::string blas_description() {
#ifdef STRIDED_NO_BLAS
  return "none (a build without BLAS: matmul's own loop)";
#else
  // OpenBLAS's own answers (cblas.h of libopenblas-dev): its build configuration, and the kernel
  // set its DYNAMIC_ARCH dispatch chose for this CPU (OPENBLAS_CORETYPE can force another).
  const char* config = openblas_get_config();
  const char* core = openblas_get_corename();
  return std::string(config ? config : "OpenBLAS") + "; core " + (core ? core : "unknown");
#endif
}

BlasOperand blas_operand(const Tensor& t) {
  STRIDED_CHECK(t.dim() == 2, "blas_operand", "expected a 2-D tensor, but got ", t.dim(), "-D");
  return blas_operand(t.layout());
}

BlasOperand blas_operand(const Layout& m) {
  // The rule is blas_reading's (blas_reading.h), which cuBLAS's calls share; PyTorch's
  // addmm_impl_cpu_ asks it before calling gemm. No reading: copy to row-major, ld = cols.
  if (const std::optional<BlasReading> r = blas_reading(m)) return {r->column_major, r->ld, false};
  return {false, std::max<int64_t>(1, m.sizes()[1]), true};
}

Tensor matmul_2d(const Tensor& a, const Tensor& b, MatmulKernel kernel) {
  STRIDED_CHECK(a.dim() == 2 && b.dim() == 2, "matmul_2d", "expected 2-D operands, but got ",
                a.dim(), "-D and ", b.dim(), "-D");
  check_cpu(a, "matmul_2d");
  check_cpu(b, "matmul_2d");
  STRIDED_CHECK(a.size(1) == b.size(0), "matmul_2d", "mat1 and mat2 shapes cannot be multiplied (",
                matmul_detail::dims_string(a.sizes()), " and ",
                matmul_detail::dims_string(b.sizes()), ")");
  STRIDED_CHECK(
      a.dtype() == b.dtype() && (a.dtype() == DType::Float32 || a.dtype() == DType::Float64),
      "matmul_2d", "the ", to_string(kernel),
      " kernel takes two float32 or two float64 operands, but got ", name(a.dtype()), " and ",
      name(b.dtype()));
  TensorOps ops{kernel};
  return matmul_detail::mm_unchecked(ops, a, b);
}

Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  TensorOps ops;
  return matmul_impl(ops, tensor1, tensor2);
}

}  // namespace strided
