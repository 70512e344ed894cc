// Chapter 4, section "A worked case: multi-head attention": the strides of each step of
// q.view(B, T, H, D).transpose(1, 2) → matmul → transpose(1, 2) → contiguous().view(B, T, H·D),
// against reshape(B, T, H·D), where the copy happens, each step compared with PyTorch (IX-12).
#include <cstdint>
#include <string>
#include <vector>

#include "04_indexing/indexing.h"
#include "book/book.h"
#include "book/plumbing.h"
#include "strided/engine/matmul.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

using namespace strided;
using indexing_chapter::pytorch;

void indexing_chapter::attention(book::Chapter& ch) {
  ch.section("attention", "A worked case: multi-head attention");

  ch.claim("IX-12",
           "In multi-head attention with (B, T, H, D) = (2, 3, 2, 4), q.view(B, T, H, D) is a view "
           "with strides (24, 8, 4, 1) and its transpose(1, 2) a view with strides (24, 4, 8, 1); "
           "the product of the heads is a new contiguous (B, H, T, D) tensor, strides "
           "(24, 12, 4, 1), whose transpose(1, 2) has strides (24, 4, 12, 1): view(B, T, H·D) "
           "refuses it, contiguous() copies it (1 allocation) to (24, 8, 4, 1), after which the "
           "view is free (0 allocations), and reshape(B, T, H·D) makes the same copy, with the "
           "same values.",
           [](book::Check& c) {
             //! [attention]
             const int64_t B = 2, T = 3, H = 2, D = 4;  // batch, tokens, heads, head size
             Tensor q = arange(B * T * H * D, {DType::Float32}).view({B, T, H * D});
             Tensor heads = q.view({B, T, H, D}).transpose(1, 2);  // (B, H, T, D): a view of q
             Tensor scores = matmul(heads, heads.transpose(2, 3));  // q·kᵀ, here with k = q
             Tensor out = matmul(scores, heads);                    // (B, H, T, D): new
             Tensor back = out.transpose(1, 2);                     // (B, T, H, D): a view
             // back.view({B, T, H * D}) throws: view size is not compatible ...
             Tensor merged = back.contiguous().view({B, T, H * D});  // copy, then view
             Tensor reshaped = back.reshape({B, T, H * D});         // the same copy
             //! [attention]
             const Tensor split = q.view({B, T, H, D});
             const Tensor dense = back.contiguous();
             const std::string g = "attention";

             // Each step's layout, the library's against PyTorch's.
             pytorch().compare(c, g, "q", q);
             pytorch().compare(c, g, "q.view(B, T, H, D)", split, {&q});
             pytorch().compare(c, g, "heads", heads, {&q});
             pytorch().compare(c, g, "scores", scores);
             pytorch().compare(c, g, "out", out);
             pytorch().compare(c, g, "back", back, {&out});
             pytorch().compare_error(c, g, "back.view(B, T, H * D)",
                                     [&] { (void)back.view({B, T, H * D}); });
             pytorch().compare(c, g, "back.contiguous()", dense, {&out});
             pytorch().compare(c, g, "merged", merged, {&out});
             pytorch().compare(c, g, "reshaped", reshaped, {&out});
             pytorch().compare_value(c, g, "torch.equal(merged, reshaped)",
                                     merged.to_vector() == reshaped.to_vector());

             c.equal("q.view(B, T, H, D).stride()", split.strides(), Shape{24, 8, 4, 1},
                     "att_split");
             c.equal("heads.stride()", heads.strides(), Shape{24, 4, 8, 1}, "att_heads");
             c.equal("heads shares q's storage", heads.storage().is_same(q.storage()), true);
             c.equal("out.stride()", out.strides(), Shape{24, 12, 4, 1}, "att_out");
             c.equal("out is contiguous", out.is_contiguous(), true);
             c.equal("back.stride()", back.strides(), Shape{24, 4, 12, 1}, "att_back");
             c.equal("back is contiguous", back.is_contiguous(), false);
             c.equal("back.contiguous().stride()", dense.strides(), Shape{24, 8, 4, 1},
                     "att_dense");
             const int64_t copy_allocations =
                 book::allocations_during([&] { (void)back.contiguous(); });
             const int64_t reshape_allocations =
                 book::allocations_during([&] { (void)back.reshape({B, T, H * D}); });
             c.equal("allocations by back.contiguous()", copy_allocations, int64_t{1},
                     "att_copy_allocations");
             c.equal("allocations by the view of the copy",
                     book::allocations_during([&] { (void)dense.view({B, T, H * D}); }),
                     int64_t{0}, "att_view_allocations");
             c.equal("allocations by back.reshape(B, T, H·D)", reshape_allocations, int64_t{1},
                     "att_reshape_allocations");
             c.equal("merged's values are reshaped's", merged.to_vector(), reshaped.to_vector());
             c.equal("merged.stride()", merged.strides(), Shape{24, 8, 1}, "att_merged");
             c.value("att_bthd", Shape{B, T, H, D});
             c.value("att_view_error", pytorch().error_message(g, "back.view(B, T, H * D)"));

             const auto allocations = [](int64_t n) {
               return book::show(n) + (n == 1 ? " allocation" : " allocations");
             };
             const auto row = [](const std::string& step, const std::string& code,
                                 const Tensor& t, const std::string& memory) {
               return std::vector<std::string>{step, code, book::show(t.sizes()),
                                               book::show(t.strides()),
                                               t.is_contiguous() ? "yes" : "no", memory};
             };
             c.table("attention_steps",
                     {"step", "code", "shape", "strides", "contiguous", "memory"},
                     {row("1", "q", q, "q's storage"),
                      row("2", "q.view(B, T, H, D)", split, "a view of q"),
                      row("3", ".transpose(1, 2)", heads, "a view of q"),
                      row("4", "out = scores @ heads", out, "new storage"),
                      row("5", "out.transpose(1, 2)", back, "a view of out"),
                      {"6", ".view(B, T, H*D)", "refused", "", "", "no strides fit"},
                      row("7", ".contiguous()", dense, "a copy (" + allocations(copy_allocations) + ")"),
                      row("8", ".view(B, T, H*D)", merged, "a view of the copy"),
                      row("9", "step 5 .reshape(B, T, H*D)", reshaped,
                          "a copy (" + allocations(reshape_allocations) + ")")});
           });
}
