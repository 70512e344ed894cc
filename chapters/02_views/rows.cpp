// Chapter 2, section "Rows and columns": a row and a column of a matrix as views (VW-15) and the
// errata ER-25 and ER-26. The code between //! [name] markers is shown on the chapter's page.
#include <string>
#include <vector>

#include "02_views/views.h"
#include "book/book.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::Slice;
using views::pytorch;

void views::rows(book::Chapter& ch) {
  // ---- Rows and columns ------------------------------------------------------------------------------------
  ch.section("rows", "Rows and columns");

  ch.claim("VW-15",
           "For T = [[1,2,3],[4,5,6]], T[1, :] = [4,5,6] has size 3, stride 1, offset 3 and "
           "T[:, 1] = [2,5] has size 2, stride 3, offset 1; both share T's storage.",
           [](book::Check& c) {
             //! [rows]
             Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {DType::Int64});
             Tensor row = T.index({1, Slice()});
             Tensor col = T.index({Slice(), 1});
             //! [rows]
             c.equal("T[1, :]", row.to_vector(), std::vector<double>{4, 5, 6});
             c.equal("T[1, :] layout", book::show(row.sizes()) + book::show(row.strides()) +
                                           book::show(row.storage_offset()),
                     std::string("(3,)(1,)3"));
             c.equal("T[:, 1]", col.to_vector(), std::vector<double>{2, 5});
             c.equal("T[:, 1] layout", book::show(col.sizes()) + book::show(col.strides()) +
                                           book::show(col.storage_offset()),
                     std::string("(2,)(3,)1"));
             c.equal("T[1, :] shares T's storage", row.storage().data() == T.storage().data(), true);
             c.equal("T[:, 1] shares T's storage", col.storage().data() == T.storage().data(), true);
             pytorch().compare(c, "rows", "T[1, :]", row, {&T});
             pytorch().compare(c, "rows", "T[:, 1]", col, {&T});
             c.table("rows", {"view", "values", "size()", "stride()", "storage_offset()"},
                     {{"T[1, :]", book::show(row.to_vector()), book::show(row.sizes()),
                       book::show(row.strides()), book::show(row.storage_offset())},
                      {"T[:, 1]", book::show(col.to_vector()), book::show(col.sizes()),
                       book::show(col.strides()), book::show(col.storage_offset())}});
             c.value("row_offset", row.storage_offset());
             c.value("col_offset", col.storage_offset());
             c.value("col_stride", col.stride(0));
             c.value("row_stride", row.stride(0));
             c.figure("row_col", views_svg({{row, "T[1, :]"}, {col, "T[:, 1]"}}),
                      "T[1, :] and T[:, 1] over T's storage.");
           });

  ch.erratum("ER-25",
             "The second diagram is labelled T[1, :] = [2, 5] (Notes on PyTorch Tensor "
             "Representation and Autograd).",
             "[2, 5] is T[:, 1], the column; T[1, :] is the row [4, 5, 6].",
             [](book::Check& c) {
               Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               c.equal("T[:, 1]", T.index({Slice(), 1}).to_vector(), std::vector<double>{2, 5});
               c.equal("T[1, :] is [2, 5]",
                       T.index({1, Slice()}).to_vector() == std::vector<double>{2, 5}, false);
             });

  ch.erratum("ER-26",
             "size() is printed as 3 and stride() as 1 (Notes on PyTorch Tensor Representation "
             "and Autograd).",
             "Both are tuples: size() is torch.Size([3]), a one-element tuple, and stride() is "
             "(1,). The difference is cosmetic.",
             [](book::Check& c) {
               Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               Tensor row = T.index({1, Slice()});
               c.equal("T[1, :].size()", book::show(row.sizes()), std::string("(3,)"));
               c.equal("T[1, :].stride()", book::show(row.strides()), std::string("(1,)"));
               pytorch().compare_value(c, "rows", "T[1, :].size()", row.sizes());
               pytorch().compare_value(c, "rows", "T[1, :].stride()", row.strides());
               c.value("row_size_tuple", row.sizes());
               c.value("row_stride_tuple", row.strides());
             });
}
