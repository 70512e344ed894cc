// Chapter 4, the NumPy box (IX-13: NumPy's .base and PyTorch's ._base, np.shares_memory) and the
// exercises (EX-04.k), each answer computed with the library and compared with PyTorch's.
#include <cstdint>
#include <string>
#include <vector>

#include "04_indexing/indexing.h"
#include "book/book.h"
#include "book/plumbing.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using indexing_chapter::pytorch;

void indexing_chapter::numpy_box(book::Chapter& ch) {
  ch.section("numpy", "NumPy and PyTorch: who owns the memory");

  ch.claim("IX-13",
           "A view knows the tensor that owns its memory: NumPy's a[::2].base is a and PyTorch's "
           "x[::2]._base is x, and a view of a view names the owner, not the view between. A copy "
           "made by advanced indexing has neither (None), and np.shares_memory tells a view (True) "
           "from a copy (False); NumPy's reshape of a.T is a copy whose .base is a temporary "
           "array, not a, while PyTorch's has no _base.",
           [](book::Check& c) {
             const Tensor x = zeros({3, 4});
             const Tensor sliced = x.index({Slice(None, None, 2)});
             const Tensor twice = sliced.index({Slice(), Slice(1, None)});
             const Tensor picked = x.index({std::vector<int64_t>{0, 2}});
             const Tensor flat = x.t().reshape({-1});
             const auto shares = [&](const Tensor& t) { return t.storage().is_same(x.storage()); };
             const std::string g = "numpy_base";
             struct Row {
               std::string numpy, numpy_shares, torch;
               const Tensor* t;
               bool view;
             };
             const std::vector<Row> rows = {
                 {"a[::2].base is a", "np.shares_memory(a[::2], a)", "x[::2]._base is x", &sliced,
                  true},
                 {"a[::2][:, 1:].base is a", "np.shares_memory(a[::2][:, 1:], a)",
                  "x[::2][:, 1:]._base is x", &twice, true},
                 {"a[[0, 2]].base is None", "np.shares_memory(a[[0, 2]], a)",
                  "x[[0, 2]]._base is None", &picked, false},
                 {"a.T.reshape(-1).base is a", "np.shares_memory(a.T.reshape(-1), a)",
                  "x.t().reshape(-1)._base is None", &flat, false},
             };
             std::vector<std::vector<std::string>> table;
             for (const Row& r : rows) {
               const bool s = shares(*r.t);
               c.equal(r.torch + ": the library's result shares x's storage", s, r.view);
               // NumPy's .base and PyTorch's ._base follow the library's view-or-copy answer:
               // "is a" / "is x" for a view; "is None" (PyTorch) for a copy.
               pytorch().compare_value(c, g, r.numpy_shares, s);
               const bool torch_base_answer = r.torch.ends_with("is None") ? !s : s;
               pytorch().compare_value(c, g, r.torch, torch_base_answer);
               const bool numpy_base_answer = r.numpy.ends_with("is None") ? !s : s;
               pytorch().compare_value(c, g, r.numpy, numpy_base_answer);
               table.push_back({r.numpy, book::show(numpy_base_answer), r.torch,
                                book::show(torch_base_answer), book::show(s)});
             }
             // The reshape of a.T: NumPy's .base is a temporary array (not None), not a.
             pytorch().compare_value(c, g, "a.T.reshape(-1).base is None", shares(flat));
             c.table("numpy_base",
                     {"NumPy", "answer", "PyTorch", "answer", "shares memory (np.shares_memory)"},
                     table);
           });
}

void indexing_chapter::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-04.1",
           "The view of x = arange(24).view(4, 6) with shape (2, 2), strides (12, 2) and storage "
           "offset 8 is x[1::2, 2::2]: offset 8 = 1·6 + 2·1, and the strides are 2·6 and 2·1.",
           [](book::Check& c) {
             const Tensor x = arange(24).view({4, 6});
             const Tensor y = x.index({Slice(1, None, 2), Slice(2, None, 2)});
             c.equal("offset", y.storage_offset(), int64_t{8}, "ex1_offset");
             c.equal("strides", y.strides(), Shape{12, 2}, "ex1_strides");
             c.equal("shape", y.sizes(), Shape{2, 2}, "ex1_shape");
             c.equal("offset = 1·stride[0] + 2·stride[1]", y.storage_offset(),
                     1 * x.stride(0) + 2 * x.stride(1));
             const Tensor puzzle = x.as_strided({2, 2}, {12, 2}, 8);
             c.equal("the slice's values are the puzzle's", y.to_vector(), puzzle.to_vector());
             c.value("ex1_values", y.to_vector());
             c.value("ex1_x_strides", x.strides());
             pytorch().compare(c, "exercises", "x[1::2, 2::2]", y, {&x});
             pytorch().compare(c, "exercises", "x.as_strided((2, 2), (12, 2), 8)", puzzle, {&x});
           });

  ch.claim("EX-04.2",
           "For x = arange(12).view(3, 4), x.t() has strides (1, 4) and two runs: "
           "x.t().view(2, 2, 3) splits the first and is a view with strides (2, 1, 4), while "
           "x.t().view(12) would join them and is refused.",
           [](book::Check& c) {
             const Tensor x = arange(12).view({3, 4});
             const Tensor xt = x.t();
             const Tensor split = xt.view({2, 2, 3});
             c.equal("x.t().stride()", xt.strides(), Shape{1, 4}, "ex2_t_strides");
             c.equal("x.t().view(2, 2, 3).stride()", split.strides(), Shape{2, 1, 4},
                     "ex2_split_strides");
             c.equal("a view of x", split.storage().is_same(x.storage()), true);
             c.throws("x.t().view(12)", [&] { (void)xt.view({12}); }, "view size is not compatible");
             pytorch().compare(c, "exercises", "x.t().view(2, 2, 3)", split, {&x});
             pytorch().compare_error(c, "exercises", "x.t().view(12)", [&] { (void)xt.view({12}); });
           });

  ch.claim("EX-04.3",
           "With one token (T = 1), the attention output's transpose(1, 2) only moves a size-1 "
           "dim: it stays contiguous, view(B, 1, H·D) works, and contiguous() copies nothing.",
           [](book::Check& c) {
             const int64_t B = 2, T = 1, H = 2, D = 4;
             const Tensor out = arange(B * H * T * D, {DType::Float32}).view({B, H, T, D});
             const Tensor back = out.transpose(1, 2);
             c.equal("back is contiguous", back.is_contiguous(), true);
             Tensor merged;
             c.equal("allocations by back.contiguous().view(B, 1, H·D)",
                     book::allocations_during([&] { merged = back.contiguous().view({B, T, H * D}); }),
                     int64_t{0}, "ex3_allocations");
             c.equal("a view of out", merged.storage().is_same(out.storage()), true);
             c.value("ex3_back_strides", back.strides());
             pytorch().compare(c, "exercises", "out1.transpose(1, 2)", back, {&out});
             pytorch().compare(c, "exercises", "out1.transpose(1, 2).view(B, 1, H * D)", merged,
                               {&out});
           });

  ch.claim("EX-04.4",
           "Of x[1:3], x[[1, 2]], x[:, 0:4:2] and x[:, range(0, 4, 2)] for x = arange(12).view(3, 4), "
           "the two slices are views and the list and the range are copies, though each pair "
           "holds the same values.",
           [](book::Check& c) {
             const Tensor x = arange(12).view({3, 4});
             const Tensor rows_slice = x.index({Slice(1, 3)});
             const Tensor rows_list = x.index({std::vector<int64_t>{1, 2}});
             const Tensor cols_slice = x.index({Slice(), Slice(0, 4, 2)});
             const Tensor cols_range = x.index({Slice(), std::vector<int64_t>{0, 2}});
             c.equal("x[1:3] is a view", rows_slice.storage().is_same(x.storage()), true);
             c.equal("x[[1, 2]] is a copy", rows_list.storage().is_same(x.storage()), false);
             c.equal("x[:, 0:4:2] is a view", cols_slice.storage().is_same(x.storage()), true);
             c.equal("x[:, range(0, 4, 2)] is a copy", cols_range.storage().is_same(x.storage()),
                     false);
             c.equal("same rows", rows_slice.to_vector(), rows_list.to_vector());
             c.equal("same columns", cols_slice.to_vector(), cols_range.to_vector());
             pytorch().compare(c, "exercises", "x[1:3]", rows_slice, {&x});
             pytorch().compare(c, "exercises", "x[[1, 2]]", rows_list, {&x});
             pytorch().compare(c, "exercises", "x[:, 0:4:2]", cols_slice, {&x});
             pytorch().compare(c, "exercises", "x[:, range(0, 4, 2)]", cols_range, {&x});
           });

  ch.claim("EX-04.5",
           "For x = arange(24).view(2, 3, 4), x[1, :, 1::2] starts at storage offset 13 "
           "(1·12 + 1·1) with shape (3, 2) and strides (4, 2).",
           [](book::Check& c) {
             const Tensor x = arange(24).view({2, 3, 4});
             const Tensor y = x.index({1, Slice(), Slice(1, None, 2)});
             c.equal("offset", y.storage_offset(), int64_t{13}, "ex5_offset");
             c.equal("offset = 1·stride[0] + 1·stride[2]", y.storage_offset(),
                     x.stride(0) + x.stride(2));
             c.equal("shape", y.sizes(), Shape{3, 2}, "ex5_shape");
             c.equal("strides", y.strides(), Shape{4, 2}, "ex5_strides");
             c.value("ex5_x_strides", x.strides());
             pytorch().compare(c, "exercises", "x[1, :, 1::2]", y, {&x});
           });
}
