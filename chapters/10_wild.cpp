// Chapter 10, Strides in the wild: which layout PyTorch's ops return (einsum, matmul, cat, stack,
// reductions with keepdim, clone and empty_like, sort, topk, cumsum), the copies hidden inside
// ops (matmul's fold, to and clone of an expanded view; in chapters/10_wild/inside.cpp, ops that
// call contiguous() and what contiguous() of a permutation costs), a reduction over a dim of 2,
// copies to another device (devices.cpp), channels last through a network (network.cpp), and, in
// boundaries.cpp, the boundaries with NumPy, DLPack, torch.save, a C++ kernel, flat buffers and
// torch.compile. Claims SW-01 … SW-25 and the exercises EX-10.k. Where the library has the op,
// its answer is compared with PyTorch's recorded one; where it has not (cat, einsum, sort), the
// layout the rule predicts is computed with the library's layout functions and compared with the
// record. The code between //! [name] markers is shown on the page (docs/10_wild.md).
#include <algorithm>
#include <string>
#include <vector>

#include "10_wild/wild.h"
#include "book/book.h"
#include "strided/engine/iterator.h"
#include "strided/engine/matmul.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/layout/layout.h"
#include "strided/layout/memory_format.h"
#include "strided/strided.h"

using namespace strided;
using wild_chapter::f32;
using wild_chapter::pytorch;
using wild_chapter::recorded_strides;

namespace {

// cat's rule for its output (aten/src/ATen/native/TensorShape.cpp, compute_output_memory_format):
// the memory format every input suggests, or contiguous when two inputs suggest different ones.
MemoryFormat cat_format(const std::vector<Tensor>& inputs) {
  const MemoryFormat first = suggest_memory_format(inputs[0].layout());
  for (const Tensor& t : inputs)
    if (suggest_memory_format(t.layout()) != first) return MemoryFormat::Contiguous;
  return first;
}

// The values of column j of a 2-D tensor, top to bottom.
std::vector<double> column(const Tensor& t, int64_t j) { return t.select(1, j).to_vector(); }

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("10_wild", "Strides in the wild");

  // ---- Which layout an op returns ---------------------------------------------------------------
  ch.section("outputs", "Which layout an op returns");

  ch.claim("SW-01",
           "einsum('ij,jk->ki', x, y) of a (3, 4) and a (4, 5) computes the (3, 5) product "
           "contiguously and returns it transposed: shape (5, 3), strides (1, 5), not contiguous, "
           "the values of (x @ y).t().",
           [](book::Check& c) {
             //! [einsum]
             Tensor x = arange(12, f32).view({3, 4});
             Tensor y = arange(20, f32).view({4, 5});
             Tensor m = matmul(x, y);  // (3, 5), contiguous
             Tensor z = m.t();         // what einsum('ij,jk->ki') returns
             //! [einsum]
             pytorch().compare(c, "einsum", "torch.einsum('ij,jk->ki', x, y)", z);
             pytorch().compare(c, "einsum", "x @ y", m);
             // An einsum that only permutes returns a view: x.t(), x's storage.
             pytorch().compare(c, "einsum", "torch.einsum('ij->ji', x)", x.t(), {&x});
             c.equal("strides of einsum('ij,jk->ki', x, y)", z.strides(), Shape{1, 5},
                     "einsum_strides");
             c.equal("is_contiguous", z.is_contiguous(), false);
             c.value("einsum_shape", z.sizes());
           });

  ch.claim("SW-02",
           "matmul and bmm always return a new contiguous tensor, whatever their operands' "
           "strides: t @ t.t() of a (4, 3) transpose has strides (4, 1); bmm of a (2, 4, 3) "
           "transposed batch has strides (20, 5, 1).",
           [](book::Check& c) {
             //! [products]
             Tensor t = arange(12, f32).view({3, 4}).t();                     // strides (1, 4)
             Tensor p = matmul(t, t.t());                                     // (4, 1)
             Tensor bt = arange(24, f32).view({2, 3, 4}).transpose(1, 2);     // (12, 1, 4)
             Tensor q = matmul(bt, arange(30, f32).view({2, 3, 5}));          // (20, 5, 1)
             //! [products]
             pytorch().compare(c, "products", "t @ t.t()", p);
             pytorch().compare(c, "products", "torch.bmm(bt, torch.arange(30.).view(2, 3, 5))", q);
             c.equal("strides of t @ t.t()", p.strides(), contiguous_strides(p.sizes()),
                     "mm_strides");
             c.equal("strides of the bmm", q.strides(), contiguous_strides(q.sizes()),
                     "bmm_strides");
           });

  ch.claim("SW-03",
           "cat keeps channels last only when every input is channels last: two (2, 3, 4, 5) "
           "channels-last inputs give (60, 1, 15, 3); one contiguous input among them gives "
           "contiguous strides (60, 20, 5, 1), in either order. cat and stack of two transposes "
           "(4, 3) give contiguous (3, 1) and (12, 3, 1): no other layout is kept.",
           [](book::Check& c) {
             //! [cat]
             Tensor a = arange(120, f32).view({2, 3, 4, 5}).contiguous(MemoryFormat::ChannelsLast);
             Tensor b = arange(120, f32).view({2, 3, 4, 5});
             // cat's output: the memory format all inputs suggest, else contiguous
             Shape both = memory_format_strides({4, 3, 4, 5}, cat_format({a, a}));
             Shape mixed = memory_format_strides({4, 3, 4, 5}, cat_format({a, b}));
             //! [cat]
             pytorch().compare_value(c, "cat", "a.stride()", a.strides());
             pytorch().compare_value(c, "cat", "torch.cat([a, a]).stride()", both);
             pytorch().compare_value(c, "cat", "torch.cat([a, b]).stride()", mixed);
             pytorch().compare_value(c, "cat", "torch.cat([b, a]).stride()",
                                     memory_format_strides({4, 3, 4, 5}, cat_format({b, a})));
             pytorch().compare_value(c, "cat", "torch.cat([a, a], 1).stride()",
                                     memory_format_strides({2, 6, 4, 5}, cat_format({a, a})));
             c.equal("channels last kept", both, a.strides(), "cat_cl");
             c.equal("one contiguous input", mixed, contiguous_strides({4, 3, 4, 5}), "cat_mixed");
             const Tensor t = arange(12, f32).view({3, 4}).t();
             const Tensor t1 = t.unsqueeze(0);  // stack is cat of the inputs, each unsqueezed
             pytorch().compare_value(c, "cat", "torch.cat([t, t]).stride()",
                                     memory_format_strides({8, 3}, cat_format({t, t})));
             pytorch().compare_value(c, "cat", "torch.stack([t, t]).stride()",
                                     memory_format_strides({2, 4, 3}, cat_format({t1, t1})));
             c.value("cat_stack", contiguous_strides({2, 4, 3}));
             c.value("cat_t", contiguous_strides({8, 3}));
           });

  ch.claim("SW-04",
           "A reduction with keepdim returns a contiguous tensor whose kept size-1 dim has the "
           "stride of the dims inside it: s.sum(1, keepdim=True) of a (2, 3, 4) tensor is "
           "(2, 1, 4) with strides (4, 4, 1); s.sum(2, keepdim=True) has (3, 1, 1).",
           [](book::Check& c) {
             //! [keepdim]
             Tensor s = arange(24, f32).view({2, 3, 4});
             Tensor k1 = sum(s, 1, /*keepdim=*/true);  // (2, 1, 4), strides (4, 4, 1)
             Tensor k2 = sum(s, 2, /*keepdim=*/true);  // (2, 3, 1), strides (3, 1, 1)
             //! [keepdim]
             pytorch().compare(c, "keepdim", "s.sum(1, keepdim=True)", k1);
             pytorch().compare(c, "keepdim", "s.sum(2, keepdim=True)", k2);
             pytorch().compare(c, "keepdim", "s.sum(0, keepdim=True)", sum(s, 0, true));
             pytorch().compare(c, "keepdim", "s.amax(1, keepdim=True)", max(s, 1, true).values);
             c.equal("strides of s.sum(1, keepdim=True)", k1.strides(), Shape{4, 4, 1}, "keep1");
             c.equal("strides of s.sum(2, keepdim=True)", k2.strides(), Shape{3, 1, 1}, "keep2");
           });

  ch.claim("SW-05",
           "clone() and empty_like() keep a dense permutation's strides (preserve_format): of p, "
           "a (4, 2, 3) permute with strides (1, 12, 4), both give (1, 12, 4); with "
           "memory_format=torch.contiguous_format both give (6, 3, 1). A non-dense input, "
           "p[:, :, ::2], is cloned densely in its own dim order: (1, 8, 4).",
           [](book::Check& c) {
             //! [like]
             Tensor p = arange(24, f32).view({2, 3, 4}).permute({2, 0, 1});  // (1, 12, 4)
             Tensor kept = p.clone();                                     // (1, 12, 4)
             Tensor rowmajor = p.clone(MemoryFormat::Contiguous);         // (6, 3, 1)
             Tensor blank = empty_like(p);                                // (1, 12, 4)
             //! [like]
             pytorch().compare(c, "like", "p", p);
             pytorch().compare(c, "like", "p.clone()", kept);
             pytorch().compare(c, "like", "p.clone(memory_format=torch.contiguous_format)",
                               rowmajor);
             pytorch().compare(c, "like", "torch.empty_like(p)", blank);
             pytorch().compare(c, "like", "torch.empty_like(p, memory_format=torch.contiguous_format)",
                               empty_like(p, MemoryFormat::Contiguous));
             const Tensor sparse = p.slice(2, 0, 3, 2).clone();
             pytorch().compare(c, "like", "p[:, :, ::2].clone()", sparse);
             c.equal("clone keeps p's strides", kept.strides(), p.strides(), "like_kept");
             c.equal("contiguous_format", rowmajor.strides(), Shape{6, 3, 1}, "like_rowmajor");
             c.value("like_sparse", sparse.strides());
           });

  ch.claim("SW-06",
           "sort returns its values and indices in the input's layout: t.sort(0) of a (4, 3) "
           "transpose with strides (1, 4) keeps (1, 4), along either dim. topk and cumsum return "
           "contiguous tensors: t.topk(2, 0) has strides (3, 1), t.cumsum(0) has (3, 1).",
           [](book::Check& c) {
             //! [sort]
             Tensor t = from_values({3, 1, 2, 0, 5, 4, 9, 7, 8, 6, 11, 10}, {4, 3})
                            .t().contiguous().t();    // (4, 3), strides (1, 4)
             Shape sorted = empty_like(t).strides();   // sort: the input's layout, (1, 4)
             Shape top = contiguous_strides({2, 3});   // topk: contiguous, (3, 1)
             //! [sort]
             pytorch().compare(c, "sort", "t", t);
             c.equal("sort(0).values", recorded_strides(c, "sort", "t.sort(0).values"), sorted,
                     "sort_strides");
             c.equal("sort(0).indices", recorded_strides(c, "sort", "t.sort(0).indices"), sorted);
             c.equal("sort(1).values", recorded_strides(c, "sort", "t.sort(1).values"), sorted);
             c.equal("topk(2, 0).values", recorded_strides(c, "sort", "t.topk(2, 0).values"), top,
                     "topk_strides");
             c.equal("cumsum(0)", recorded_strides(c, "sort", "t.cumsum(0)"),
                     contiguous_strides(t.sizes()), "cumsum_strides");
             // The sorted values: each column of t, in ascending order, read through (1, 4).
             const nlohmann::json* got = pytorch().find("sort", "t.sort(0).values");
             std::vector<double> expected(12);
             for (int64_t j = 0; j < 3; ++j) {
               std::vector<double> col = column(t, j);
               std::sort(col.begin(), col.end());
               for (int64_t i = 0; i < 4; ++i) expected[static_cast<size_t>(i * 3 + j)] = col[static_cast<size_t>(i)];
             }
             c.equal("t.sort(0).values", got ? (*got)["values"].get<std::vector<double>>()
                                             : std::vector<double>{}, expected);
           });

  // ---- Copies hidden inside ops -----------------------------------------------------------------
  ch.section("hidden", "Copies hidden inside ops");

  ch.claim("SW-07",
           "matmul folds a (4, 3, 5) batch into one (12, 5) product only when its matrices lie "
           "one after another. An expanded batch, strides (0, 5, 1), is not folded in PyTorch "
           "2.6: it runs as a bmm of 4 products, with no copy; folding it would be a reshape that "
           "copies 4·3·5 = 60 elements, as PyTorch 1.13 did, and as 2.6 does when w requires grad.",
           [](book::Check& c) {
             //! [fold]
             Tensor one = arange(15, f32).view({1, 3, 5});
             Tensor batch = one.expand({4, 3, 5});  // strides (0, 5, 1): no new memory
             Tensor w = arange(10, f32).view({5, 2});
             Tensor out = matmul(batch, w);         // (4, 3, 2)
             Tensor rows = batch.reshape({-1, 5});  // the fold's reshape: a copy of 60 elements
             MatmulCost cost = matmul_cost(batch, w);
             //! [fold]
             const Tensor dense = batch.contiguous();
             const bool folds = matmul_should_fold(batch.layout(), w.layout());
             const bool dense_folds = matmul_should_fold(dense.layout(), w.layout());
             pytorch().compare(c, "fold", "batch", batch);
             pytorch().compare(c, "fold", "batch @ w", out);
             pytorch().compare(c, "fold", "batch.reshape(-1, 5)", rows, {&batch});
             pytorch().compare(c, "fold", "one.reshape(-1, 5)", one.reshape({-1, 5}), {&one});
             const bool reshape_copies = !rows.storage().is_same(batch.storage());
             pytorch().compare_value(c, "fold", "'aten::clone' in ops(lambda: batch @ w)", folds && reshape_copies);
             pytorch().compare_value(c, "fold", "'aten::bmm' in ops(lambda: batch @ w)", !folds);
             pytorch().compare_value(c, "fold", "'aten::clone' in ops(lambda: dense @ w)",
                                     dense_folds && !dense.reshape({-1, 5}).storage().is_same(dense.storage()));
             pytorch().compare_value(c, "fold", "'aten::bmm' in ops(lambda: dense @ w)", !dense_folds);
             pytorch().compare_value(c, "fold", "'aten::clone' in ops(lambda: batch @ wg)", reshape_copies);
             c.equal("products of batch @ w", cost.products, batch.size(0), "fold_products");
             c.equal("elements the fold's reshape copies", rows.numel(), int64_t{60}, "fold_copy");
             c.equal("elements matmul allocates: the result alone", cost.allocated, out.numel(),
                     "fold_allocated");
             c.equal("memory of batch, in elements", batch.storage().nbytes() / 4, int64_t{15});
           });

  ch.claim("SW-08",
           "Converting or cloning an expanded view writes every element: col.expand(3, 1000) "
           "holds 3 elements (12 bytes) with strides (1, 0), and its .to(torch.float64), clone() "
           "and contiguous() are (3, 1000) tensors with strides (1000, 1); the clone's storage is "
           "12000 bytes.",
           [](book::Check& c) {
             //! [expanded]
             Tensor col = arange(3, f32).view({3, 1});
             Tensor wide = col.expand({3, 1000});      // strides (1, 0): 3 elements of memory
             Tensor f64 = wide.to(DType::Float64);     // 3000 elements, strides (1000, 1)
             Tensor copy = wide.clone();               // the same: (1000, 1)
             //! [expanded]
             pytorch().compare_value(c, "expanded", "wide.stride()", wide.strides());
             pytorch().compare_value(c, "expanded", "wide.to(torch.float64).stride()", f64.strides());
             pytorch().compare_value(c, "expanded", "wide.clone().stride()", copy.strides());
             pytorch().compare_value(c, "expanded", "wide.contiguous().stride()",
                                     wide.contiguous().strides());
             pytorch().compare_value(c, "expanded", "storage_of(wide.clone()).nbytes()",
                                     copy.storage().nbytes());
             pytorch().compare_value(c, "expanded", "storage_of(wide).nbytes()",
                                     wide.storage().nbytes());
             c.equal("bytes of the clone", copy.storage().nbytes(), int64_t{12000}, "wide_bytes");
             c.equal("bytes of the view", wide.storage().nbytes(), int64_t{12}, "col_bytes");
             c.equal("strides of the float64 copy", f64.strides(), Shape{1000, 1}, "f64_strides");
           });

  wild_chapter::hidden_copies(ch);

  // ---- Small innermost dims ---------------------------------------------------------------------
  ch.section("small", "Small innermost dims");

  ch.claim("SW-09",
           "Summing the pairs of an (n, 2) tensor with sum(-1) walks the reduced dim innermost: "
           "each inner loop reads 2 elements and writes 1 output, n loops in all. "
           "xy[:, 0] + xy[:, 1] is one inner loop of n outputs, each input at stride 2.",
           [](book::Check& c) {
             const int64_t n = int64_t{1} << 20;
             //! [pairs]
             Tensor xy = arange(2 * n, f32).view({n, 2});  // n points (x, y)
             Tensor by_sum = sum(xy, -1);                  // a reduction over a dim of 2
             Tensor by_add = xy.select(1, 0) + xy.select(1, 1);  // two stride-2 columns
             //! [pairs]
             const TensorIterator reduce = make_reduction("sum", xy, 1, {empty({n}, f32)});
             const TensorIterator add = TensorIteratorConfig()
                                            .add_output(Tensor())
                                            .add_input(xy.select(1, 0))
                                            .add_input(xy.select(1, 1))
                                            .build();
             c.equal("inner loop of sum(-1): elements", reduce.shape()[0], xy.size(1), "pair_inner");
             c.equal("inner loops of sum(-1)", reduce.numel() / reduce.shape()[0], n, "pair_loops");
             c.equal("inner loop of the add: outputs", add.shape()[0], n, "add_inner");
             c.equal("inner loops of the add", add.numel() / add.shape()[0], int64_t{1});
             c.equal("the two agree", by_sum.to_vector() == by_add.to_vector(), true);
             c.value("pair_n", n);
             const Tensor small = arange(16, f32).view({8, 2});
             pytorch().compare(c, "pairs", "xy.sum(-1)", sum(small, -1));
             pytorch().compare(c, "pairs", "xy[:, 0] + xy[:, 1]", small.select(1, 0) + small.select(1, 1));
             pytorch().compare(c, "pairs", "xy[:, 0]", small.select(1, 0), {&small});
           }).model();

  ch.claim("SW-10",
           "On this machine the add of the two columns is faster than sum(-1) over 2^20 pairs of "
           "float32: sum(-1) takes at least 1.15 times as long.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             book::OneThread one;
             const int64_t n = int64_t{1} << 20;
             const Tensor xy = arange(2 * n, f32).view({n, 2});
             const Tensor a = xy.select(1, 0), b = xy.select(1, 1);
             const book::Timed r = book::timed_ratio(
                 c, "sum(-1) / x[:, 0] + x[:, 1]", "pairs", [&] { (void)(a + b); },
                 [&] { (void)sum(xy, -1); }, book::slower(), 4);
             c.value("pairs_sum_ms", book::fixed(r.b_ms, 2));
             c.value("pairs_add_ms", book::fixed(r.a_ms, 2));
           }).timing();

  wild_chapter::devices(ch);
  wild_chapter::network(ch);
  wild_chapter::boundaries(ch);
  wild_chapter::exercises(ch);
  return ch.main(argc, argv);
}
