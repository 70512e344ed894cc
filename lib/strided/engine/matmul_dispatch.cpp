// The checks of matmul's dispatch (matmul_dispatch.h), in PyTorch 2.6's words: the conformance
// suites compare them with PyTorch's messages.
#include "strided/engine/matmul_dispatch.h"

#include "strided/tensor/promotion.h"

namespace strided::matmul_detail {

namespace {

// The CPU kernels of dot, addmv, addmm and bmm in 2.6 are dispatched with
// AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(BFloat16, Half) (LinearAlgebra.cpp, Blas.cpp): bool has
// no kernel. (PyTorch 1.13 dispatched AT_DISPATCH_ALL_TYPES_AND(BFloat16): half had none either,
// "\"addmm_impl_cpu_\" not implemented for 'Half'".)
void check_kernel_dtype(DType t, const char* kernel) {
  if (is_complex(t)) refuse_complex("matmul", t);  // real kernels only (tensor.h)
  STRIDED_CHECK(t != DType::Bool, "matmul", "\"", kernel, "\" not implemented for '",
                scalar_type_name(t), "'");
}

// The name caffe2::TypeMeta gives a dtype's C++ type (c10/util/typeid.h, from the compiler's
// spelling of it), which PyTorch 2.6's mm prints for operands of two dtypes.
const char* type_meta_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "unsigned char";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short int";
    case DType::Int32: return "int";
    case DType::Int64: return "long int";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "c10::complex<float>";
    case DType::Complex128: return "c10::complex<double>";
  }
  return "?";
}

// addmm/addmv/bmm check that the second operand has the first's dtype (TORCH_CHECK in
// the native kernels: "expected scalar type Float but found Double").
void check_same_dtype(DType first, DType second) {
  STRIDED_CHECK(first == second, "matmul", "expected scalar type ", scalar_type_name(first),
                " but found ", scalar_type_name(second));
}

}  // namespace

std::string dims_string(IntList sizes) {
  return std::to_string(sizes[0]) + "x" + std::to_string(sizes[1]);
}

void check_matmul(int64_t dim1, int64_t dim2, DType d1, DType d2) {
  STRIDED_CHECK(dim1 != 0 && dim2 != 0, "matmul",
                "both arguments to matmul need to be at least 1D, but they are ", dim1, "D and ",
                dim2, "D");
  if (is_complex(d1)) refuse_complex("matmul", d1);
  if (is_complex(d2)) refuse_complex("matmul", d2);
}

// at::dot checks the dtypes first, then the lengths.
void check_dot(IntList a, IntList b, DType da, DType db) {
  STRIDED_CHECK(da == db, "matmul", "dot : expected both vectors to have same dtype, but found ",
                scalar_type_name(da), " and ", scalar_type_name(db));
  STRIDED_CHECK(a[0] == b[0], "matmul", "inconsistent tensor size, expected tensor [", a[0],
                "] and src [", b[0], "] to have the same number of elements, but got ", a[0],
                " and ", b[0], " elements respectively");
  check_kernel_dtype(da, "dot");
}

// at::mv: "size mismatch, got input (2), mat (2x3), vec (4)", addmv's check in PyTorch 2.6 (1.13:
// "size mismatch, got 2, 2x3,4").
void check_mv(IntList a, IntList v, DType da, DType dv) {
  STRIDED_CHECK(a[1] == v[0], "matmul", "size mismatch, got input (", a[0], "), mat (",
                dims_string(a), "), vec (", v[0], ")");
  check_kernel_dtype(da, "addmv_impl_cpu");
  check_same_dtype(da, dv);
}

// at::mm: "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", then PyTorch 2.6's
// addmm_impl_cpu_ compares the dtypes before it dispatches (1.13 dispatched first, then said
// "expected scalar type Double but found Float").
void check_mm(IntList a, IntList b, DType da, DType db) {
  STRIDED_CHECK(a[1] == b[0], "matmul", "mat1 and mat2 shapes cannot be multiplied (",
                dims_string(a), " and ", dims_string(b), ")");
  STRIDED_CHECK(da == db, "matmul", "expected m1 and m2 to have the same dtype, but got: ",
                type_meta_name(da), " != ", type_meta_name(db));
  check_kernel_dtype(da, "addmm_impl_cpu_");
}

// at::bmm on (B,n,k)·(B,k,m).
void check_bmm(IntList a, IntList b, DType da, DType db) {
  STRIDED_CHECK(b[0] == a[0] && b[1] == a[2], "matmul",
                "Expected size for first two dimensions of batch2 tensor to be: [", a[0], ", ",
                a[2], "] but got: [", b[0], ", ", b[1], "].");
  check_kernel_dtype(da, "bmm");
  check_same_dtype(da, db);
}

}  // namespace strided::matmul_detail
