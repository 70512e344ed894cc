// matmul_cost: what matmul (matmul.cpp) allocates and computes, from its operands' layouts alone.
// Each step follows matmul's dispatch in the same order, on sizes and strides: the views matmul
// takes are computed as layouts (nothing is allocated), each copy it would make is counted, and
// the count stops where matmul would raise. matmul_test checks the count against the library's
// allocation counters over a sweep of shapes, strides and dtypes.
#include <algorithm>
#include <climits>

#include "strided/layout/layout.h"
#include "strided/engine/matmul.h"

namespace strided {

namespace {

// The dims in the order mT() gives them: the last two swapped.
Shape mT_order(int64_t ndim) {
  Shape order(static_cast<size_t>(ndim));
  for (int64_t d = 0; d < ndim; ++d) order[d] = d;
  std::swap(order[ndim - 2], order[ndim - 1]);
  return order;
}

int64_t saturated(Checked c) {
  return c.overflowed() ? INT64_MAX : c.value();
}

// A dim's size, the dim wrapping as Tensor::size wraps it.
int64_t size_at(const Layout& l, int64_t d) {
  return l.sizes()[static_cast<size_t>(d < 0 ? d + l.dim() : d)];
}

Layout mT(const Layout& l) {
  return permute_geometry(l, mT_order(l.dim()));
}

Layout unsqueezed(const Layout& l, int64_t dim) {
  return unsqueeze_geometry(l, dim);
}

Shape batch_of(const Layout& l, int64_t drop) {
  return Shape(l.sizes().begin(), l.sizes().end() - drop);
}

// The costs of a part of matmul, added up; a part repeated (one product per batch) is scaled.
struct Tally {
  Checked allocations, allocated, allocated_bytes, largest, written, multiply_adds, products;
  // Elements a product allocates and frees before the next one starts: in one product (while
  // it is counted), in all of them, and in the largest.
  Checked transient, transient_total, transient_peak;
  bool blas = false;

  void allocate(Checked elements, DType dtype) {
    allocations += 1;
    allocated += elements;
    allocated_bytes += elements * itemsize(dtype);
    if (elements.overflowed() || largest.overflowed() || elements.value() > largest.value())
      largest = elements;
  }
  void add_scaled(const Tally& t, Checked times) {
    allocations += t.allocations * times;
    allocated += t.allocated * times;
    allocated_bytes += t.allocated_bytes * times;
    written += t.written * times;
    multiply_adds += t.multiply_adds * times;
    products += t.products * times;
    if (t.largest.overflowed() || largest.overflowed() || t.largest.value() > largest.value())
      largest = t.largest;
    transient_total += t.transient * times;
    if (t.transient.overflowed() || transient_peak.overflowed() ||
        t.transient.value() > transient_peak.value())
      transient_peak = t.transient;
    blas = blas || t.blas;
  }
};

// A contiguous() copy of a layout: nothing when it is contiguous already.
void contiguous_copy(const Layout& l, DType dtype, Tally& t, bool transient) {
  if (is_contiguous(l)) return;
  const Checked n = saturated(Checked(checked_numel(l.sizes(), "matmul")));
  t.allocate(n, dtype);
  t.written += n;
  if (transient) t.transient += n;
}

// reshape's copy (Tensor::reshape): none when the new shape can be a view.
Layout reshaped(const Layout& l, const Shape& shape, DType dtype, Tally& t) {
  if (std::optional<Shape> strides = compute_view_strides(l, shape))
    return Layout(shape, std::move(*strides));
  contiguous_copy(l, dtype, t, false);
  return Layout::contiguous(shape);
}

// The layout .to(float32) gives (copies.cpp, empty_preserving).
Layout converted(const Layout& l) {
  if (is_non_overlapping_and_dense(l)) return l;
  return Layout(l.sizes(), infer_dense_strides(l));
}

// BLAS copies an operand to contiguous when neither it nor its transpose is row-major
// (blas_kernel).
void blas_copy(const Layout& l, DType dtype, Tally& t) {
  if (blas_operand(l).copy)
    contiguous_copy(l, dtype, t, true);
}

// mm_into: one 2-D product into an existing (n,m) result.
Tally product(const Layout& a, const Layout& b, DType dtype) {
  Tally t;
  const int64_t n = a.sizes()[0], k = a.sizes()[1], m = b.sizes()[1];
  if (n == 0 || m == 0) return t;
  if (k == 0) {
    t.written += Checked(n) * m;  // zero-filled
    return t;
  }
  t.products += 1;
  t.multiply_adds += Checked(n) * k * m;
  switch (dtype) {
    case DType::Float32:
    case DType::Float64:
      t.blas = true;
      blas_copy(a, dtype, t);
      blas_copy(b, dtype, t);
      break;
    case DType::BFloat16:
    case DType::Float16:
    case DType::UInt8:
    case DType::Int8:
    case DType::Int16: {
      // A result in the dtype the product computes in (float32 for bfloat16 and float16, int32
      // for the narrow integers), both operands converted to it, then the result narrowed into out.
      const bool floating = dtype == DType::BFloat16 || dtype == DType::Float16;
      const DType computed = floating ? DType::Float32 : DType::Int32;
      const Checked wide = Checked(n) * m;
      t.allocate(wide, computed);
      t.allocate(Checked(n) * k, computed);
      t.allocate(Checked(k) * m, computed);
      t.transient += wide + Checked(n) * k + Checked(k) * m;
      t.written += Checked(n) * k + Checked(k) * m + wide;
      if (floating) {
        t.blas = true;
        blas_copy(converted(a), DType::Float32, t);
        blas_copy(converted(b), DType::Float32, t);
      }
      break;
    }
    case DType::Int32:
    case DType::Int64: break;  // the naive kernel reads the operands in place
    case DType::Bool:
    case DType::Complex64:
    case DType::Complex128: break;  // no kernel: kernel_dtype refused them before any product
  }
  return t;
}

bool kernel_dtype(DType d) { return d != DType::Bool; }

// mm, mv and dot: their checks, the new result, its product.
bool mm_cost(const Layout& a, const Layout& b, DType da, DType db, Tally& t) {
  if (a.sizes()[1] != b.sizes()[0] || !kernel_dtype(da) || da != db) return false;
  contiguous_nbytes_needed({a.sizes()[0], b.sizes()[1]}, itemsize(da), "matmul");
  t.allocate(Checked(a.sizes()[0]) * b.sizes()[1], da);
  t.add_scaled(product(a, b, da), 1);
  return true;
}

}  // namespace

MatmulCost matmul_cost(const Tensor& tensor1, const Tensor& tensor2) {
  MatmulCost out;
  const int64_t dim1 = tensor1.dim(), dim2 = tensor2.dim();
  if (dim1 == 0 || dim2 == 0 || !tensor1.device().is_cpu() || !tensor2.device().is_cpu())
    return out;
  const DType d1 = tensor1.dtype(), d2 = tensor2.dtype();
  const Layout l1(tensor1.sizes(), tensor1.strides()), l2(tensor2.sizes(), tensor2.strides());
  Tally t;
  try {
    if (dim1 == 1 && dim2 == 1) {
      if (d1 == d2 && l1.sizes()[0] == l2.sizes()[0])
        mm_cost(unsqueezed(l1, 0), unsqueezed(l2, 1), d1, d2, t);
    } else if (dim1 == 2 && dim2 == 1) {
      mm_cost(l1, unsqueezed(l2, 1), d1, d2, t);
    } else if (dim1 == 1 && dim2 == 2) {
      mm_cost(unsqueezed(l1, 0), l2, d1, d2, t);
    } else if (dim1 == 2 && dim2 == 2) {
      mm_cost(l1, l2, d1, d2, t);
    } else if (matmul_should_fold(l1, l2)) {
      const bool transpose = dim2 > dim1;
      const Layout t1 = transpose ? mT(l2) : l1;
      const Layout t2 = !transpose ? l2 : (dim1 == 2 ? mT(l1) : l1);
      const DType dt1 = transpose ? d2 : d1, dt2 = transpose ? d1 : d2;
      Shape output_shape = batch_of(t1, 1);
      const int64_t folded = checked_numel(output_shape, "matmul");
      const Layout t1_folded = reshaped(t1, {folded, size_at(t1, -1)}, dt1, t);
      if (t2.dim() == 2) {
        output_shape.push_back(t2.sizes()[1]);
        if (mm_cost(t1_folded, t2, dt1, dt2, t) && transpose) {
          // out.mT().contiguous(): the result viewed as output_shape, its last two dims swapped.
          contiguous_copy(mT(Layout::contiguous(output_shape)), dt1, t, false);
        }
      } else {
        mm_cost(t1_folded, unsqueezed(t2, 1), dt1, dt2, t);
      }
    } else {
      // bmm over the broadcast batch: each operand expanded and reshaped to (batch, n, k); a 1-D
      // operand is one row (tensor1) or one column (tensor2) of each batch.
      const int64_t n = dim1 > 1 ? size_at(l1, -2) : 1, k1 = size_at(l1, -1);
      const int64_t k2 = dim2 > 1 ? size_at(l2, -2) : size_at(l2, 0),
                    m = dim2 > 1 ? size_at(l2, -1) : 1;
      const Shape batch = broadcast_shapes(batch_of(l1, std::min<int64_t>(dim1, 2)),
                                           batch_of(l2, std::min<int64_t>(dim2, 2)));
      const int64_t batch_numel = checked_numel(batch, "matmul");
      Shape size1 = batch, size2 = batch;
      size1.insert(size1.end(), {n, k1});
      if (dim2 == 1) {
        size2.push_back(k2);
      } else {
        size2.insert(size2.end(), {k2, m});
      }
      const Layout e1 = expand_geometry(l1, size1);
      const Layout e2 = expand_geometry(l2, size2);
      checked_numel(e1.sizes(), "matmul");  // as expand's view checks them
      checked_numel(e2.sizes(), "matmul");
      const Layout a = reshaped(e1, {batch_numel, n, k1}, d1, t);
      const Layout b = dim2 == 1 ? unsqueezed(reshaped(e2, {batch_numel, k2}, d2, t), 2)
                                 : reshaped(e2, {batch_numel, k2, m}, d2, t);
      if (k2 == k1 && kernel_dtype(d1) && d1 == d2) {
        contiguous_nbytes_needed({batch_numel, n, m}, itemsize(d1), "matmul");
        const Checked result = Checked(batch_numel) * n * m;
        t.allocate(result, d1);
        if (!result.overflowed() && result.value() > 0) {
          if (k1 == 0) {
            t.written += result;
          } else {
            const Layout ai({n, k1}, {a.strides()[1], a.strides()[2]});
            const Layout bi({k2, m}, {b.strides()[1], b.strides()[2]});
            t.add_scaled(product(ai, bi, d1), batch_numel);
          }
        }
      }
    }
  } catch (const Error&) {
    // matmul raises here too (a batch that does not broadcast, a count past int64); the cost is
    // what it did before.
  }
  out.allocations = saturated(t.allocations);
  out.allocated = saturated(t.allocated);
  out.allocated_bytes = saturated(t.allocated_bytes);
  out.largest = saturated(t.largest);
  out.written = saturated(t.written);
  out.multiply_adds = saturated(t.multiply_adds);
  out.products = saturated(t.products);
  out.blas = t.blas;
  // Everything but a product's own temporaries stays allocated until matmul returns (an upper
  // bound: the result of a folded product is freed once its transpose is copied).
  out.peak = saturated(t.allocated - t.transient_total + t.transient_peak);
  return out;
}

}  // namespace strided
