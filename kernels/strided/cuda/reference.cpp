#include "strided/cuda/reference.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "strided/layout/layout.h"

namespace strided::cuda {

namespace {

void require_cpu_float(const Tensor& t, const char* op) {
  STRIDED_CHECK(t.defined(), op, "undefined tensor");
  STRIDED_CHECK(t.device().is_cpu(), op, "the reference runs on the CPU, got a tensor on ",
                t.device().str());
  STRIDED_CHECK(t.dtype() == DType::Float32, op, "the reference is float32, got ", name(t.dtype()));
}

// Calls f(offset) for every element of a (sizes, strides) layout in row-major index order, where
// offset = Σ i_k·stride_k in elements: the layout algebra's odometer, with one stride set.
template <class F>
void for_each_offset(IntList sizes, IntList strides, F&& f) {
  for_each_index(sizes, {strides.vec()}, 0, checked_numel(sizes, "reference"),
                 [&](const int64_t* off) { f(off[0]); });
}

float apply(BinaryOp op, float x, float y) { return op == BinaryOp::Add ? x + y : x * y; }

void require_add_or_mul(BinaryOp op, const char* what) {
  STRIDED_CHECK(op == BinaryOp::Add || op == BinaryOp::Mul, what,
                "the GPU computes add and mul only, got ", to_string(op));
}

struct Split {
  int64_t outer = 1, reduced = 1, inner = 1;
  Shape out_sizes;
};
Split split_at(const Tensor& in, int64_t dim, const char* op) {
  Split s;
  const int64_t d = wrap_dim(dim, in.dim(), op);
  for (int64_t k = 0; k < in.dim(); ++k) {
    const int64_t size = in.sizes()[static_cast<size_t>(k)];
    if (k < d) s.outer *= size;
    if (k == d) s.reduced = size;
    if (k > d) s.inner *= size;
    if (k != d) s.out_sizes.push_back(size);
  }
  return s;
}

}  // namespace

Tensor reference_binary(const Tensor& a, const Tensor& b, BinaryOp op) {
  require_cpu_float(a, "reference_binary");
  require_cpu_float(b, "reference_binary");
  require_add_or_mul(op, "reference_binary");
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  const Layout ga = expand_geometry(a.layout(), shape);
  const Layout gb = expand_geometry(b.layout(), shape);
  Tensor out = strided::empty(shape);
  float* o = out.data<float>();
  std::vector<int64_t> offs_b;
  for_each_offset(shape, gb.strides(), [&](int64_t off) { offs_b.push_back(off); });
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  int64_t k = 0;
  for_each_offset(shape, ga.strides(), [&](int64_t off) {
    o[k] = apply(op, pa[off], pb[offs_b[static_cast<size_t>(k)]]);
    ++k;
  });
  return out;
}

Tensor reference_binary_scalar(const Tensor& a, float s, BinaryOp op) {
  require_cpu_float(a, "reference_binary_scalar");
  require_add_or_mul(op, "reference_binary_scalar");
  Tensor out = strided::empty(a.sizes());
  float* o = out.data<float>();
  const float* pa = a.data<float>();
  int64_t k = 0;
  for_each_offset(a.sizes(), a.strides(), [&](int64_t off) { o[k++] = apply(op, pa[off], s); });
  return out;
}

Tensor reference_transpose(const Tensor& in) {
  STRIDED_CHECK(in.defined() && in.device().is_cpu() && in.dim() == 2, "reference_transpose",
                "expected a 2-D CPU tensor, got ",
                in.defined() ? to_string(in.sizes()) : std::string("an undefined tensor"));
  const int64_t rows = in.size(0), cols = in.size(1), item = in.element_size();
  Tensor out = empty({cols, rows}, {in.dtype()});
  const char* src = static_cast<const char*>(in.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(dst + (j * rows + i) * item, src + (i * in.stride(0) + j * in.stride(1)) * item,
                  static_cast<size_t>(item));
  return out;
}

ReferenceValues reference_sum(const Tensor& in, int64_t dim) {
  require_cpu_float(in, "reference_sum");
  const Split s = split_at(in, dim, "reference_sum");
  ReferenceValues r;
  r.sizes = s.out_sizes;
  r.terms = s.reduced;
  r.values.assign(static_cast<size_t>(s.outer * s.inner), 0.0);
  r.magnitudes.assign(r.values.size(), 0.0);
  const float* p = in.data<float>();
  int64_t flat = 0;
  for_each_offset(in.sizes(), in.strides(), [&](int64_t off) {
    const auto o = static_cast<size_t>(flat / (s.reduced * s.inner) * s.inner + flat % s.inner);
    r.values[o] += p[off];
    r.magnitudes[o] += std::fabs(p[off]);
    ++flat;
  });
  return r;
}

ReferenceValues reference_amax(const Tensor& in, int64_t dim) {
  require_cpu_float(in, "reference_amax");
  const Split s = split_at(in, dim, "reference_amax");
  STRIDED_CHECK(s.reduced > 0 || s.outer * s.inner == 0, "reference_amax",
                "Expected reduction dim ", dim, " to have non-zero size");
  ReferenceValues r;
  r.sizes = s.out_sizes;
  r.terms = s.reduced;
  r.values.assign(static_cast<size_t>(s.outer * s.inner), -std::numeric_limits<double>::infinity());
  r.magnitudes.assign(r.values.size(), 0.0);
  const float* p = in.data<float>();
  int64_t flat = 0;
  for_each_offset(in.sizes(), in.strides(), [&](int64_t off) {
    const auto o = static_cast<size_t>(flat / (s.reduced * s.inner) * s.inner + flat % s.inner);
    const double x = p[off];
    if (std::isnan(x) || x > r.values[o]) {
      if (!std::isnan(r.values[o])) r.values[o] = x;
    }
    ++flat;
  });
  return r;
}

ReferenceValues reference_matmul(const Tensor& a, const Tensor& b) {
  require_cpu_float(a, "reference_matmul");
  require_cpu_float(b, "reference_matmul");
  STRIDED_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "reference_matmul",
                "expected (M×K)·(K×N) matrices, got ", to_string(a.sizes()), " and ",
                to_string(b.sizes()));
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  ReferenceValues r;
  r.sizes = {M, N};
  r.terms = K;
  r.values.assign(static_cast<size_t>(M * N), 0.0);
  r.magnitudes.assign(r.values.size(), 0.0);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        // A product of two floats is exact in double (24 + 24 significant bits <= 53).
        const double prod = double{pa[i * a.stride(0) + k * a.stride(1)]} *
                            double{pb[k * b.stride(0) + j * b.stride(1)]};
        sum += prod;
        mag += std::fabs(prod);
      }
      r.values[static_cast<size_t>(i * N + j)] = sum;
      r.magnitudes[static_cast<size_t>(i * N + j)] = mag;
    }
  return r;
}

double gamma_float32(int64_t n) {
  const double u = std::ldexp(1.0, -24);
  STRIDED_INTERNAL_ASSERT(n >= 0 && n * u < 1.0);
  return n * u / (1.0 - n * u);
}

std::string compare_with_reference(const Tensor& got, const ReferenceValues& ref,
                                   int64_t bound_terms) {
  require_cpu_float(got, "compare_with_reference");
  if (got.sizes() != ref.sizes)
    return "shape " + to_string(got.sizes()) + ", expected " + to_string(ref.sizes);
  const std::vector<double> g = got.to_vector();
  const double gamma = gamma_float32(bound_terms);
  for (size_t i = 0; i < g.size(); ++i) {
    const double want = ref.values[i];
    const double tol = gamma * ref.magnitudes[i];
    const bool ok = std::isnan(want) ? std::isnan(g[i]) : std::fabs(g[i] - want) <= tol;
    if (!ok) {
      std::ostringstream out;
      out.precision(9);
      out << "index " << i << ": got " << g[i] << ", expected " << want << " (tolerance " << tol
          << ")";
      return out.str();
    }
  }
  return {};
}

}  // namespace strided::cuda
