// Chapter 8, the section "Gradients through views": a broadcast operand's gradient (AG-05), the
// shape ops (AG-06, ER-35), and the backward of each view op read as a layout: expand sums over its
// stride-0 dims, permute applies the inverse permutation, a slice and a diagonal write into zeros
// of the base's shape, as_strided adds through the storage where its windows overlap.
#include "08_gradients/gradients.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/pictures/picture.h"

using namespace strided;
using namespace strided::autograd;

namespace gradients_chapter {

namespace {
std::vector<double> values_of(const Tensor& t) { return t.to_vector(); }
Tensor floats(IntList sizes, int64_t start = 0) {  // start, start+1, ... in float32, shaped
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return arange(start, start + n, 1, {DType::Float32}).view(sizes);
}
}  // namespace

void views(book::Chapter& ch) {
  ch.section("views", "Gradients through views");

  ch.claim("AG-05",
           "The gradient of a broadcast operand is the upstream gradient summed over the broadcast "
           "dims, shaped like the operand: for a (1,2) + b (2,2) and loss = sum, a.grad = [[2,2]] "
           "and b.grad is ones; for loss = sum(a ⊙ [[1,2],[3,4]]), a.grad = [[4,6]].",
           [](book::Check& c) {
             //! [broadcast_grad]
             Variable a = leaf({1, 2}, {1, 2});  // (1, 2)
             Variable b(ones({2, 2}), true);
             sum(a + b).backward();  // a is read twice per column
             Variable a2 = leaf({1, 2}, {1, 2});
             sum(a2 * Variable(from_values({1, 2, 3, 4}, {2, 2}))).backward();
             //! [broadcast_grad]
             c.equal("a.grad shape", a.grad().sizes(), Shape{1, 2});
             c.equal("a.grad", values_of(a.grad()), std::vector<double>{2, 2});
             c.equal("b.grad", values_of(b.grad()), std::vector<double>{1, 1, 1, 1});
             c.equal("a2.grad", values_of(a2.grad()), std::vector<double>{4, 6});
             pytorch().compare(c, "broadcast_grad", "a.grad", a.grad());
             pytorch().compare(c, "broadcast_grad", "b.grad", b.grad());
             pytorch().compare(c, "broadcast_grad", "a2.grad", a2.grad());
             // The picture: a's storage under the broadcast, each cell read by both rows.
             Tensor seen = a2.tensor().expand({2, 2});
             c.figure("broadcast_reads", views_svg({{a2.tensor(), "a2"}, {seen, "a2.expand(2, 2)"}}),
                      "a2 (1, 2) broadcast to (2, 2): stride 0 on dim 0, so each of a2's cells is "
                      "read by both rows, and its gradient is the sum of both rows' upstream "
                      "values in its column.");
             std::vector<std::vector<std::string>> rows;
             const Tensor up = from_values({1, 2, 3, 4}, {2, 2});
             for (int64_t j = 0; j < 2; ++j)
               rows.push_back({book::show(j), book::show(seen.stride(0)),
                               book::show(up.at({0, j}).to_double()) + " + " +
                                   book::show(up.at({1, j}).to_double()),
                               book::show(a2.grad().at({0, j}).to_double())});
             c.table("broadcast_sum", {"column of a2", "stride of dim 0", "upstream values read",
                                       "a2.grad"},
                     rows);
             c.value("bc_a_grad", values_of(a.grad()));
             c.value("bc_a_shape", a.grad().sizes());
             c.value("bc_a2_grad", values_of(a2.grad()));
           });

  ch.claim("AG-05.expand",
           "The backward of expand sums the gradient over the dims expand gave stride 0, and keeps "
           "the operand's size-1 dims: x of shape (3,1) expanded to (2,3,4) has strides (0,1,0), "
           "and with upstream gradient w = 1…24 shaped (2,3,4), x.grad is w summed over dims 0 and "
           "2, (68, 100, 132) shaped (3,1).",
           [](book::Check& c) {
             //! [expand_grad]
             Variable x = leaf({1, 2, 3}, {3, 1});  // (3, 1)
             Variable y = x.expand({2, 3, 4});      // strides (0, 1, 0)
             Tensor w = floats({2, 3, 4}, 1);
             sum(y * Variable(w)).backward();  // x.grad: w summed over the stride-0 dims
             //! [expand_grad]
             Shape zero_dims;
             for (int64_t d = 0; d < y.dim(); ++d)
               if (y.strides()[d] == 0) zero_dims.push_back(d);
             const Tensor summed = strided::sum(strided::sum(w, 2, /*keepdim=*/true), 0);  // (3, 1)
             c.equal("y strides", y.strides(), Shape{0, 1, 0});
             c.equal("stride-0 dims", zero_dims, Shape{0, 2});
             c.equal("grad_fn", y.grad_fn()->name(), std::string("ExpandBackward0"));
             c.equal("x.grad shape", x.grad().sizes(), Shape{3, 1});
             c.equal("x.grad", values_of(x.grad()), std::vector<double>{68, 100, 132});
             c.equal("x.grad = w summed over the stride-0 dims", values_of(x.grad()), values_of(summed));
             pytorch().compare(c, "expand_grad", "y", y.tensor(), {&x.tensor()});
             pytorch().compare_value(c, "expand_grad", "y.grad_fn.name()", y.grad_fn()->name());
             pytorch().compare(c, "expand_grad", "x.grad", x.grad());
             pytorch().compare(c, "expand_grad", "sum_to_size", summed);
             c.value("ex_strides", y.strides());
             c.value("ex_zero_dims", zero_dims);
             c.value("ex_grad", values_of(x.grad()));
           });

  ch.claim("AG-06",
           "reshape, transpose, cat and split do not alter per-element gradient values: the input's "
           "gradient is the output's sent back through the inverse op. y = x.reshape(2,3) gives "
           "x.grad == y.grad.reshape(−1); y = m.t() gives m.grad == y.grad.t(); cat of sizes 2 "
           "and 3 with upstream (0,1,2,3,4) gives (0,1) and (2,3,4); split routes a piece's "
           "gradient to its place and zeros elsewhere.",
           [](book::Check& c) {
             //! [shape_ops]
             Variable x(arange(6, {DType::Float32}), true);
             Variable y = x.reshape({2, 3});
             Tensor gy = floats({2, 3}, 1);
             y.backward(gy);  // x.grad is gy reshaped back
             Variable m(zeros({2, 3}), true);
             m.t().backward(floats({3, 2}));  // m.grad is the gradient transposed back
             Variable p(zeros({2}), true), q(zeros({3}), true);
             cat({p, q}).backward(floats({5}));  // split back: (0, 1) and (2, 3, 4)
             //! [shape_ops]
             c.equal("x.grad", values_of(x.grad()), values_of(gy.reshape({-1})));
             c.equal("m.grad", values_of(m.grad()), values_of(floats({3, 2}).t()));
             c.equal("p.grad", values_of(p.grad()), std::vector<double>{0, 1});
             c.equal("q.grad", values_of(q.grad()), std::vector<double>{2, 3, 4});
             Variable r(arange(5, {DType::Float32}), true);
             std::vector<Variable> pieces = split(r, 2);
             sum(pieces[1] * 3.0).backward();
             c.equal("split: r.grad", values_of(r.grad()), std::vector<double>{0, 0, 3, 3, 0});
             pytorch().compare(c, "shape_ops", "x.grad", x.grad());
             pytorch().compare(c, "shape_ops", "m.grad", m.grad());
             pytorch().compare_value(c, "shape_ops", "p.grad.tolist()", values_of(p.grad()));
             pytorch().compare_value(c, "shape_ops", "q.grad.tolist()", values_of(q.grad()));
             pytorch().compare_value(c, "shape_ops", "y.grad_fn.name()", y.grad_fn()->name());
             pytorch().compare_value(c, "shape_ops", "torch.cat([p, q]).grad_fn.name()",
                                     cat({p, q}).grad_fn()->name());
             pytorch().compare_value(c, "shape_ops", "pieces[1].grad_fn.name()",
                                     pieces[1].grad_fn()->name());
             pytorch().compare(c, "shape_ops", "r.grad", r.grad());
             c.value("so_m_grad", values_of(m.grad()));
             c.value("so_p_grad", values_of(p.grad()));
             c.value("so_q_grad", values_of(q.grad()));
             c.value("so_r_grad", values_of(r.grad()));
           });

  ch.erratum("ER-35",
             "The effect of reshape, transpose, cat and split on a tensor's gradient is the "
             "operation itself (r-nn).",
             "The gradient goes through the inverse: reshape back, split for cat, the same "
             "transpose (its own inverse); equivalently, the forward op applied to x.grad gives "
             "y.grad. For x of shape (2,3,4) and y = x.permute(2,0,1), x.grad = "
             "y.grad.permute(1,2,0), and y.grad.permute(2,0,1) differs from it.",
             [](book::Check& c) {
               //! [permute_grad]
               Variable x(zeros({2, 3, 4}), true);
               Variable y = x.permute({2, 0, 1});  // (4, 2, 3)
               Tensor gy = floats({4, 2, 3});
               y.backward(gy);  // x.grad = gy.permute(1, 2, 0): the inverse
               //! [permute_grad]
               const Tensor inverse = gy.permute({1, 2, 0});
               c.equal("grad_fn", y.grad_fn()->name(), std::string("PermuteBackward0"));
               c.equal("x.grad = gy.permute(1, 2, 0)", values_of(x.grad()), values_of(inverse));
               c.equal("x.grad shape", x.grad().sizes(), Shape{2, 3, 4});
               // The seed's reading: the same permute applied to the gradient. Its shape is not
               // even x's.
               const Tensor same_op = gy.permute({2, 0, 1});
               c.equal("gy.permute(2, 0, 1) shape", same_op.sizes(), Shape{3, 4, 2});
               c.equal("the forward op on x.grad gives y.grad",
                       values_of(x.grad().permute({2, 0, 1})), values_of(gy));
               pytorch().compare_value(c, "permute_grad", "y.grad_fn.name()", y.grad_fn()->name());
               pytorch().compare(c, "permute_grad", "x.grad", x.grad());
               pytorch().compare(c, "permute_grad", "gy.permute(1, 2, 0)", inverse, {&gy});
               c.value("pm_inverse_strides", inverse.strides());
               c.value("pm_same_shape", same_op.sizes());
             });

  ch.claim("AG-06.slice",
           "A slice's backward writes the gradient into a zero tensor of the base's shape, at the "
           "slice's offset and strides: y = x[:, 1:5:2] of a (2,5) x has strides (5,2) and offset "
           "1, and upstream [[1,2],[3,4]] gives x.grad = [[0,1,0,2,0],[0,3,0,4,0]]. A diagonal's "
           "does the same along the diagonal: x.diagonal(1) of a (3,3) x has stride 4 and offset "
           "1, and upstream (1,2) lands at x.grad[0,1] and x.grad[1,2].",
           [](book::Check& c) {
             //! [slice_grad]
             Variable x(zeros({2, 5}), true);
             Variable y = x.slice(1, 1, 5, 2);  // (2, 2), strides (5, 2), offset 1
             y.backward(from_values({1, 2, 3, 4}, {2, 2}));  // scattered into zeros of x's shape
             //! [slice_grad]
             //! [diagonal_grad]
             Variable m(zeros({3, 3}), true);
             Variable d = m.diagonal(1);  // (2,), stride 4, offset 1
             d.backward(from_values({1, 2}, {2}));  // written on the same diagonal of zeros
             //! [diagonal_grad]
             c.equal("y strides", y.strides(), Shape{5, 2});
             c.equal("y offset", y.tensor().storage_offset(), int64_t{1});
             c.equal("x.grad", values_of(x.grad()),
                     std::vector<double>{0, 1, 0, 2, 0, 0, 3, 0, 4, 0});
             // The same scatter by hand: x.grad's storage read through y's layout is upstream.
             c.equal("x.grad read through y's layout",
                     values_of(x.grad().as_strided(y.sizes(), y.strides(),
                                                y.tensor().storage_offset())),
                     std::vector<double>{1, 2, 3, 4});
             c.equal("d stride", d.strides(), Shape{4});
             c.equal("d offset", d.tensor().storage_offset(), int64_t{1});
             c.equal("m.grad", values_of(m.grad()), std::vector<double>{0, 1, 0, 0, 0, 2, 0, 0, 0});
             pytorch().compare(c, "slice_grad", "y", y.tensor(), {&x.tensor()});
             pytorch().compare_value(c, "slice_grad", "y.grad_fn.name()", y.grad_fn()->name());
             pytorch().compare(c, "slice_grad", "x.grad", x.grad());
             pytorch().compare(c, "diagonal_grad", "y", d.tensor(), {&m.tensor()});
             pytorch().compare_value(c, "diagonal_grad", "y.grad_fn.name()", d.grad_fn()->name());
             pytorch().compare(c, "diagonal_grad", "x.grad", m.grad());
             c.value("sl_grad", values_of(x.grad()));
             c.value("dg_grad", values_of(m.grad()));
           });

  ch.claim("AG-06.overlap",
           "as_strided's backward adds each gradient element into the storage element it was read "
           "from, so overlapping windows accumulate: y = x.as_strided((3,3),(1,1)) of a 5-element "
           "x reads x[i+j] at y[i,j]; with upstream 0…8, x.grad = (0, 4, 12, 12, 8), and with "
           "upstream ones x.grad counts the reads, (1, 2, 3, 2, 1).",
           [](book::Check& c) {
             //! [as_strided_grad]
             Variable x(zeros({5}), true);
             Variable y = x.as_strided({3, 3}, {1, 1});  // windows that overlap: y[i, j] is x[i + j]
             Tensor gy = floats({3, 3});
             y.backward(gy);  // x.grad[k] = Σ over i + j = k of gy[i, j]
             //! [as_strided_grad]
             std::vector<double> by_hand(5, 0.0);
             for (int64_t i = 0; i < 3; ++i)
               for (int64_t j = 0; j < 3; ++j) by_hand[i + j] += gy.at({i, j}).to_double();
             Variable x1(zeros({5}), true);
             sum(x1.as_strided({3, 3}, {1, 1})).backward();
             c.equal("grad_fn", y.grad_fn()->name(), std::string("AsStridedBackward0"));
             c.equal("x.grad", values_of(x.grad()), std::vector<double>{0, 4, 12, 12, 8});
             c.equal("x.grad = the sums over i + j = k", values_of(x.grad()), by_hand);
             c.equal("reads per element", values_of(x1.grad()), std::vector<double>{1, 2, 3, 2, 1});
             pytorch().compare(c, "as_strided_grad", "y", y.tensor(), {&x.tensor()});
             pytorch().compare_value(c, "as_strided_grad", "y.grad_fn.name()",
                                     y.grad_fn()->name());
             pytorch().compare(c, "as_strided_grad", "x.grad", x.grad());
             pytorch().compare(c, "as_strided_grad", "reads per element", x1.grad());
             const Tensor shown = arange(5, {DType::Float32});
             c.figure("as_strided_reads",
                      views_svg({{shown, "x"},
                                 {shown.as_strided({3, 3}, {1, 1}),
                                  "x.as_strided((3, 3), (1, 1))"}}),
                      "Overlapping windows, drawn over an x that holds 0…4 so that each cell "
                      "names the element it reads: the badges count how often each storage "
                      "element is read, which is what its gradient adds up.");
             c.value("as_grad", values_of(x.grad()));
             c.value("as_reads", values_of(x1.grad()));
           });
}

}  // namespace gradients_chapter
