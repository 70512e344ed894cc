// Chapter 2, sections "NumPy and PyTorch" (VW-22) and "Exercises" (EX-02.k): each hidden answer is
// a claim, computed with the library and compared with PyTorch's recorded answer. The puzzle
// (EX-02.2) recovers a slice from a view's numbers alone, in Rougier's manner.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "02_views/views.h"
#include "book/book.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using views::pytorch;

namespace {

// "1:4:2" for the slice start:stop:step, the shortest form a reader writes ("1:", "::2", "1::2").
std::string slice_text(int64_t start, int64_t stop, int64_t step, int64_t size) {
  std::string out = start ? std::to_string(start) : "";
  out += ":";
  if (stop < size) out += std::to_string(stop);
  if (step != 1) out += ":" + std::to_string(step);
  return out;
}

}  // namespace

void views::numpy(book::Chapter& ch) {
  ch.section("numpy", "NumPy and PyTorch");

  ch.claim("VW-22",
           "A basic slice is a view in NumPy as in PyTorch: np.shares_memory(n, n[:, 1:6:2]) is "
           "True; its .base, like x[:, 1:6:2]._base, is the root owner of the memory (n.base, "
           "x._base: the arange that n and x view); but NumPy's n[0, 2] is a scalar "
           "copy, where PyTorch's x[0, 2] is a 0-d view.",
           [](book::Check& c) {
             Tensor root = arange(24);  // what x views: PyTorch's x._base, NumPy's n.base
             Tensor x = root.view({4, 6});
             Tensor s = x.index({Slice(), Slice(1, 6, 2)});
             Tensor e = x.index({0, 2});
             c.equal("x is a view of the root", is_view_of(x, root), true);
             c.equal("x[:, 1:6:2] is a view of x", is_view_of(s, x), true);
             c.equal("x[0, 2] is a view of x", is_view_of(e, x), true);
             pytorch().compare(c, "numpy", "x[:, 1:6:2]", s, {&x});
             pytorch().compare(c, "numpy", "x[0, 2]", e, {&x});
             pytorch().compare_value(c, "numpy", "np.shares_memory(n, n[:, 1:6:2])",
                                     is_view_of(s, x));
             pytorch().compare_value(c, "numpy", "n[:, 1:6:2].base is n.base", is_view_of(s, root));
             pytorch().compare_value(c, "numpy", "x[:, 1:6:2]._base is x._base",
                                     is_view_of(s, root));
             pytorch().compare_value(c, "numpy", "isinstance(n[0, 2], np.ndarray)", false);
             pytorch().compare_value(c, "numpy", "x[0, 2]._base is x._base", is_view_of(e, root));
           });
}

void views::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-02.1",
           "x = arange(12).view(3, 4) has strides (4, 1); x.t() has strides (1, 4), shares x's "
           "storage and is not contiguous.",
           [](book::Check& c) {
             Tensor x = arange(12).view({3, 4});
             Tensor t = x.t();
             c.equal("strides of x", x.strides(), Shape{4, 1});
             c.equal("strides of x.t()", t.strides(), Shape{1, 4}, "ex1_strides");
             c.equal("x.t() is contiguous", t.is_contiguous(), false, "ex1_contiguous");
             c.equal("x.t() is a view of x", is_view_of(t, x), true);
             pytorch().compare(c, "ex1", "x.t()", t, {&x});
           });

  ch.claim("EX-02.2",
           "A view of Z = arange(60).view(3, 4, 5) with storage offset 26, sizes (2, 2, 2) and "
           "strides (20, 10, 2) is Z[1:, 1::2, 1::2]: starts 1, 1, 1 (26 = 1·20 + 1·5 + 1·1) and "
           "steps 1, 2, 2 (Z's strides 20, 5, 1 times the steps).",
           [](book::Check& c) {
             Tensor Z = arange(60).view({3, 4, 5});
             // The puzzle's numbers: the view's layout, as the library and PyTorch give it.
             Tensor V = Z.index({Slice(1, None), Slice(1, None, 2), Slice(1, None, 2)});
             c.equal("the view's storage offset", V.storage_offset(), int64_t{26}, "ex2_offset");
             c.equal("the view's sizes", V.sizes(), Shape{2, 2, 2}, "ex2_sizes");
             c.equal("the view's strides", V.strides(), Shape{20, 10, 2}, "ex2_strides");
             pytorch().compare(c, "ex2", "Z[1:, 1::2, 1::2]", V, {&Z});
             // The answer, recovered from the numbers alone: Z's strides split the offset into
             // one start per dim (largest stride first), and divide the view's strides into steps.
             const int64_t nd = Z.dim();
             std::vector<int64_t> order(static_cast<size_t>(nd));
             std::iota(order.begin(), order.end(), 0);
             std::sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return Z.stride(a) > Z.stride(b); });
             Shape start(static_cast<size_t>(nd)), step(static_cast<size_t>(nd));
             int64_t rest = V.storage_offset() - Z.storage_offset();
             for (int64_t d : order) {
               start[static_cast<size_t>(d)] = rest / Z.stride(d);
               rest %= Z.stride(d);
               step[static_cast<size_t>(d)] = V.stride(d) / Z.stride(d);
             }
             c.equal("offset fully split into starts", rest, int64_t{0});
             c.equal("starts", start, Shape{1, 1, 1}, "ex2_starts");
             c.equal("steps", step, Shape{1, 2, 2}, "ex2_steps");
             std::vector<indexing::TensorIndex> idx;
             std::string text = "Z[";
             for (int64_t d = 0; d < nd; ++d) {
               const size_t k = static_cast<size_t>(d);
               const int64_t stop = std::min(Z.size(d), start[k] + (V.size(d) - 1) * step[k] + 1);
               idx.push_back(Slice(start[k], stop, step[k]));
               text += (d ? ", " : "") + slice_text(start[k], stop, step[k], Z.size(d));
             }
             text += "]";
             Tensor R = Z.index(idx);
             c.equal("the recovered slice's layout", R.layout(), V.layout());
             c.equal("its storage offset", R.storage_offset(), V.storage_offset());
             c.equal("its values", R.to_vector(), V.to_vector());
             c.value("ex2_answer", text);
             c.value("ex2_base_strides", Z.strides());
           });

  ch.claim("EX-02.3",
           "With a = arange(6).view(2, 3) and b = a.t(), writing 100 into b[2, 0] changes a[0, 2].",
           [](book::Check& c) {
             Tensor a = arange(6).view({2, 3});
             Tensor b = a.t();
             b.set({2, 0}, 100);
             Shape landed;
             for (const Shape& i : book::all_indices(a.sizes()))
               if (a.at(i).to_int() == 100) landed = i;
             c.equal("where 100 landed in a", landed, Shape{0, 2}, "ex3_landed");
             pytorch().compare(c, "ex3", "a", a);
           });

  ch.claim("EX-02.4",
           "x.diagonal(1) of x = arange(16).view(4, 4) starts at storage offset 1 and has 3 "
           "elements with stride 5 (4 + 1).",
           [](book::Check& c) {
             Tensor x = arange(16).view({4, 4});
             Tensor d = x.diagonal(1);
             c.equal("storage offset", d.storage_offset(), int64_t{1}, "ex4_offset");
             c.equal("size", d.size(0), int64_t{3}, "ex4_size");
             c.equal("stride", d.stride(0), x.stride(0) + x.stride(1), "ex4_stride");
             c.equal("stride, as a number", d.stride(0), int64_t{5});
             pytorch().compare(c, "ex4", "x.diagonal(1)", d, {&x});
           });
}
