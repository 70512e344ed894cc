// Chapter 3, section "Dense layouts": a layout whose dims, sorted by stride, are the contiguous
// strides of the sorted sizes covers its memory without gaps or overlaps (CT-09).
#include <string>
#include <utility>
#include <vector>

#include "03_contiguity/contiguity.h"
#include "book/book.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::Ellipsis;
using indexing::Slice;
using contiguity::pytorch;

void contiguity::dense(book::Chapter& ch) {
  // ---- Dense layouts ----------------------------------------------------------------------------------
  ch.section("dense", "Dense layouts");

  ch.claim("CT-09",
           "If sorting the dims by decreasing stride gives the contiguous strides of the sorted "
           "sizes, the memory set is gap-free (non-overlapping and dense): true for any "
           "permutation of a contiguous tensor, false for the stride-5 slice "
           "rand(…, 5)[..., 0] and the slice with holes rand(…, 32, …)[..., 0, :].",
           [](book::Check& c) {
             // The notebook's tensors, as layouts only: the algebra needs no storage.
             const Layout permuted =
                 permute_geometry(Layout::contiguous({512, 512, 512}), {2, 1, 0});
             const Layout stride5 = select_geometry(Layout::contiguous({512, 512, 512, 5}), 3, 0);
             const Layout holes = select_geometry(Layout::contiguous({512, 512, 32, 512}), 2, 0);
             c.equal("permute(2, 1, 0) of 512³: dense", is_non_overlapping_and_dense(permuted),
                     true);
             c.equal("rand(512, 512, 512, 5)[..., 0]: strides", stride5.strides(),
                     Shape{512 * 512 * 5, 512 * 5, 5}, "dense_stride5");
             c.equal("rand(512, 512, 512, 5)[..., 0]: dense", is_non_overlapping_and_dense(stride5),
                     false);
             c.equal("rand(512, 512, 32, 512)[..., 0, :]: stride[−2]", holes.strides()[1],
                     int64_t{32 * 512});
             c.equal("rand(512, 512, 32, 512)[..., 0, :]: dense",
                     is_non_overlapping_and_dense(holes), false);
             // Small versions with real memory: dense ⇔ the memory set is one run of numel cells.
             //! [dense]
             Tensor x = arange(24).view({2, 3, 4}).permute({2, 1, 0});
             Tensor y = arange(30).view({2, 3, 5}).index({Ellipsis, 0});
             Tensor z = arange(24).view({2, 4, 3}).index({Ellipsis, 0, Slice()});
             //! [dense]
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, t] : {std::pair{"x = arange(24).view(2, 3, 4).permute(2, 1, 0)", x},
                                           std::pair{"y = arange(30).view(2, 3, 5)[..., 0]", y},
                                           std::pair{"z = arange(24).view(2, 4, 3)[..., 0, :]", z}}) {
               const std::vector<Interval> runs = memory_intervals(t);
               const bool one_run = runs.size() == 1 && runs[0].size() == t.numel();
               c.equal(std::string(name) + ": dense ⇔ one run of numel cells",
                       t.is_non_overlapping_and_dense(), one_run);
               rows.push_back({name, book::show(t.sizes()), book::show(t.strides()),
                               book::show(t.is_non_overlapping_and_dense()),
                               book::show(t.is_contiguous()),
                               book::show(static_cast<int64_t>(runs.size()))});
             }
             c.equal("x dense", x.is_non_overlapping_and_dense(), true);
             c.equal("y dense", y.is_non_overlapping_and_dense(), false);
             c.equal("z dense", z.is_non_overlapping_and_dense(), false);
             pytorch().compare_value(c, "dense_big", "big.permute(2, 1, 0).stride()",
                                     permuted.strides());
             pytorch().compare_value(
                 c, "dense_big", "torch.empty(512, 512, 512, 5, device='meta')[..., 0].stride()",
                 stride5.strides());
             pytorch().compare_value(
                 c, "dense_big",
                 "torch.empty(512, 512, 32, 512, device='meta')[..., 0, :].stride()",
                 holes.strides());
             for (const auto& [name, t] :
                  {std::pair{"x", &x}, std::pair{"y", &y}, std::pair{"z", &z}}) {
               pytorch().compare(c, "dense", name, *t);
               pytorch().compare_value(c, "dense", "is_dense(" + std::string(name) + ")",
                                       t->is_non_overlapping_and_dense());
               pytorch().compare_value(c, "dense", "runs(" + std::string(name) + ")",
                                       static_cast<int64_t>(memory_intervals(*t).size()));
             }
             c.table("dense", {"tensor", "sizes", "strides", "dense", "contiguous", "runs of cells"},
                     rows);
             c.value("dense_step", stride5.strides().back());
             c.value("dense_holes", holes.strides());
             c.value("dense_perm", permuted.strides());
             PictureOptions opts;
             opts.links = false;
             c.figure("dense_x", storage_svg(x, "x"), "x: a permutation; every cell used once.");
             c.figure("dense_y", storage_svg(y, "y"), "y: one cell in every " +
                                                         book::show(y.stride(-1)) + ".");
             c.figure("dense_z", storage_svg(z, "z"), "z: runs of " + book::show(z.size(-1)) +
                                                         " cells with holes between them.");
           });
}
