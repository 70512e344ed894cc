// matmul_cost: what matmul (matmul.cpp) allocates and computes, from its operands' layouts alone.
// It walks matmul's own dispatch (matmul_impl, matmul_dispatch.h) with CostOps, an operand algebra
// whose operands are layouts: each view matmul takes is computed as a layout (nothing is
// allocated), each tensor it would allocate and each element it would write or multiply is
// counted, and the count stops where matmul would raise. matmul_test checks the count against the
// library's allocation counters over a sweep of shapes, strides and dtypes.
#include <algorithm>
#include <climits>

#include "strided/layout/layout.h"
#include "strided/engine/matmul.h"
#include "strided/engine/matmul_dispatch.h"

namespace strided {

namespace {

int64_t saturated(Checked c) {
  return c.overflowed() ? INT64_MAX : c.value();
}

Layout mT(const Layout& l) {
  return transpose_geometry(l, -2, -1);
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

// A tensor as the cost model sees it: where its elements are, their dtype, its device.
struct CostOperand {
  Layout layout;
  DType dtype;
  Device device;
};

// The operand algebra matmul_impl walks for the cost: Tensor's steps on layouts (the layout
// algebra of layout.h), each allocation, copy and product added to the tally.
struct CostOps {
  using Operand = CostOperand;
  Tally tally;

  const Layout& layout(const Operand& x) const { return x.layout; }
  DType dtype(const Operand& x) const { return x.dtype; }
  Device device(const Operand& x) const { return x.device; }
  Operand with(const Operand& x, Layout l) const { return {std::move(l), x.dtype, x.device}; }

  Operand unsqueeze(const Operand& x, int64_t dim) const {
    return with(x, unsqueeze_geometry(x.layout, dim));
  }
  Operand squeeze(const Operand& x, int64_t dim) const {
    return with(x, squeeze_geometry(x.layout, dim));
  }
  Operand t(const Operand& x) const { return mT(x); }  // matmul takes t() of 2-D operands only
  Operand mT(const Operand& x) const { return with(x, strided::mT(x.layout)); }
  Operand expand(const Operand& x, IntList sizes) const {
    Layout l = expand_geometry(x.layout, sizes);
    checked_numel(l.sizes(), "matmul");  // as expand's view checks them
    return with(x, std::move(l));
  }
  // Tensor::reshape: a view when view() would succeed, else a contiguous copy.
  Operand reshape(const Operand& x, IntList sizes) {
    if (std::optional<Shape> strides = compute_view_strides(x.layout, sizes))
      return with(x, Layout(sizes.vec(), std::move(*strides), x.layout.storage_offset()));
    contiguous(x);  // then a view of the copy
    return with(x, Layout::contiguous(sizes.vec()));
  }
  Operand view(const Operand& x, IntList sizes) const {
    std::optional<Shape> strides = compute_view_strides(x.layout, sizes);
    STRIDED_INTERNAL_ASSERT(strides);  // matmul views only its own contiguous results
    return with(x, Layout(sizes.vec(), std::move(*strides), x.layout.storage_offset()));
  }
  Operand contiguous(const Operand& x) {
    contiguous_copy(x.layout, x.dtype, tally, false);
    return with(x, Layout::contiguous(x.layout.sizes()));
  }
  Operand empty(IntList sizes, DType dtype) {
    contiguous_nbytes_needed(sizes, itemsize(dtype), "matmul");  // empty's check
    allocate(Checked(checked_numel(sizes, "matmul")), dtype);
    return {Layout::contiguous(sizes.vec()), dtype, Device::cpu()};
  }
  // Tensor::to: a new tensor laid out as empty_preserving lays it (copies.cpp), every element
  // written.
  Operand to(const Operand& x, DType dtype) {
    if (dtype == x.dtype) return x;
    const Layout l = is_non_overlapping_and_dense(x.layout)
                         ? x.layout
                         : Layout(x.layout.sizes(), infer_dense_strides(x.layout));
    const Checked n(checked_numel(l.sizes(), "matmul"));
    allocate(n, dtype);
    tally.written += n;
    return {l, dtype, x.device};
  }
  void zero_(const Operand& out) {
    tally.written += Checked(checked_numel(out.layout.sizes(), "matmul"));
  }
  void copy_(const Operand& out, const Operand&) {
    tally.written += Checked(checked_numel(out.layout.sizes(), "matmul"));
  }
  // BLAS (blas_kernel): each operand that neither it nor its transpose is row-major is copied to
  // contiguous first (blas_operand).
  void float_kernel(const Operand& a, const Operand& b, const Operand&) {
    multiply(a, b);
    tally.blas = true;
    if (blas_operand(a.layout).copy) contiguous_copy(a.layout, a.dtype, tally, true);
    if (blas_operand(b.layout).copy) contiguous_copy(b.layout, b.dtype, tally, true);
  }
  // The naive kernel reads the operands in place.
  void integer_kernel(const Operand& a, const Operand& b, const Operand&) { multiply(a, b); }
  void product(const Operand& a, const Operand& b, Operand& out) {
    tally.add_scaled(product_tally(a, b, out), 1);
  }
  // One product per batch, all alike: one counted, scaled by the batch.
  void bmm_into(const Operand& a, const Operand& b, const Operand& out) {
    const Shape& sa = a.layout.sizes();
    const Shape& sb = b.layout.sizes();
    const Shape& ta = a.layout.strides();
    const Shape& tb = b.layout.strides();
    const Operand ai = with(a, Layout({sa[1], sa[2]}, {ta[1], ta[2]}));
    const Operand bi = with(b, Layout({sb[1], sb[2]}, {tb[1], tb[2]}));
    Operand slice = with(out, Layout::contiguous({sa[1], sb[2]}));
    tally.add_scaled(product_tally(ai, bi, slice), sa[0]);
  }

 private:
  // What one product allocates is freed before the next one starts: counted as transient.
  bool transient = false;

  void allocate(Checked elements, DType dtype) {
    tally.allocate(elements, dtype);
    if (transient) tally.transient += elements;
  }
  void multiply(const Operand& a, const Operand& b) {
    tally.products += 1;
    const int64_t n = a.layout.sizes()[0], k = a.layout.sizes()[1], m = b.layout.sizes()[1];
    tally.multiply_adds += Checked(n) * k * m;
  }
  // The tally of matmul_detail::mm_into on one product.
  static Tally product_tally(const Operand& a, const Operand& b, Operand& out) {
    CostOps one;
    one.transient = true;
    matmul_detail::mm_into(one, a, b, out);
    return one.tally;
  }
};

}  // namespace

MatmulCost matmul_cost(const Tensor& tensor1, const Tensor& tensor2) {
  MatmulCost out;
  CostOps ops;
  const CostOperand op1{Layout(tensor1.sizes(), tensor1.strides()), tensor1.dtype(),
                        tensor1.device()};
  const CostOperand op2{Layout(tensor2.sizes(), tensor2.strides()), tensor2.dtype(),
                        tensor2.device()};
  try {
    matmul_impl(ops, op1, op2);
  } catch (const Error&) {
    // matmul raises here too (operands it refuses, a batch that does not broadcast, a count past
    // int64); the cost is what it did before.
  }
  const Tally& t = ops.tally;
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
