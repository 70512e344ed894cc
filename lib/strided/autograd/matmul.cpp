// matmul and its backward. PyTorch 1.13 composes torch.matmul from dot, mv, mm, bmm and views
// (LinearAlgebra.cpp, _matmul_impl), so its graph holds one of DotBackward0, MvBackward0,
// MmBackward0 or a chain of views around one; here matmul is one node with the matching name for
// 1-D and 2-D operands and "MatmulBackward" otherwise, and one formula: mm's, on operands made at
// least 2-D, its result summed back over broadcast batch dims.
#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
const char* node_name(int64_t da, int64_t db) {
  if (da == 1 && db == 1) return "DotBackward0";
  if (da == 2 && db == 1) return "MvBackward0";
  if (da == 2 && db == 2) return "MmBackward0";
  return "MatmulBackward";
}
}  // namespace

Variable matmul(const Variable& a, const Variable& b) {
  Variable out(strided::matmul(a.tensor(), b.tensor()));
  auto op = record(node_name(a.dim(), b.dim()), {&a, &b});
  if (!op) return out;
  // mm: self: mm_mat1_backward(grad, mat2, ...) = grad.mm(mat2.t())
  //     mat2: mm_mat2_backward(grad, self, ...) = self.t().mm(grad)
  // Each factor is saved only when the other's gradient is wanted, as for mul.
  const int64_t sb = op->needs(0) ? static_cast<int64_t>(op->save(b)) : -1;
  const int64_t sa = op->needs(1) ? static_cast<int64_t>(op->save(a)) : -1;
  const Shape a_sizes = a.sizes(), b_sizes = b.sizes();
  op->formula = [=](Op& n, const std::vector<Tensor>& g) {
    // A 1-D operand is a row (a) or a column (b), and the gradient gets the dim matmul removed.
    Tensor grad = g[0];
    if (a_sizes.size() == 1) grad = grad.unsqueeze(grad.dim() == 0 ? 0 : -2);
    if (b_sizes.size() == 1) grad = grad.unsqueeze(-1);
    std::vector<Tensor> out(2);
    if (sb >= 0) {
      Tensor mb = n.saved(static_cast<size_t>(sb));
      if (mb.dim() == 1) mb = mb.unsqueeze(1);
      Shape a2 = a_sizes;
      if (a2.size() == 1) a2.insert(a2.begin(), 1);
      out[0] = detail::sum_to(strided::matmul(grad, mb.mT()), a2).reshape(a_sizes);
    }
    if (sa >= 0) {
      Tensor ma = n.saved(static_cast<size_t>(sa));
      if (ma.dim() == 1) ma = ma.unsqueeze(0);
      Shape b2 = b_sizes;
      if (b2.size() == 1) b2.push_back(1);
      out[1] = detail::sum_to(strided::matmul(ma.mT(), grad), b2).reshape(b_sizes);
    }
    return out;
  };
  set_history(out, op);
  return out;
}

}  // namespace strided::autograd
