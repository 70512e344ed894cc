// Chapter 5, section "Stride 0", continued: what a write through a broadcast or through
// overlapping memory does. to() of an expanded tensor (BC-02.to); writes through windows that
// PyTorch's overlap test cannot judge (BC-02.overlap); and an input that overlaps the output in
// part (BC-02.partial).
#include <cstdint>
#include <string>
#include <vector>

#include "05_broadcasting/broadcasting.h"
#include "book/book.h"
#include "strided/memory/memory.h"
#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;

namespace broadcasting {

void writes(book::Chapter& ch) {
  ch.claim("BC-02.to",
           "to() of an expanded tensor to its own dtype returns the tensor itself, stride 0 and "
           "all, so a write through it is still refused; to another dtype it makes a dense copy, "
           "strides (3, 1) for a (2, 3) grid, which add_ may write.",
           [](book::Check& c) {
             //! [expand_to]
             Tensor row = zeros({3});
             Tensor grid = row.expand({2, 3});     // (2,3):(0,1)
             Tensor same = grid.to(DType::Float32);   // grid itself: stride 0 and all
             Tensor other = grid.to(DType::Float64);  // a dense copy, its own storage
             //! [expand_to]
             pytorch().compare_value(c, "expand_to", "same is grid", book::same_layout(same, grid));
             pytorch().compare_error(c, "expand_to", "same.add_(1)",
                                     [&] { add_(same, Scalar(1.0)); });
             pytorch().compare(c, "expand_to", "other", other, {&row});
             add_(other, Scalar(1.0));
             pytorch().compare(c, "expand_to", "other.add_(1)", other, {&row});
             c.equal("other's strides", other.strides(), Shape{3, 1}, "expand_to_strides");
             c.equal("row after other.add_(1)", row.to_vector(), std::vector<double>{0, 0, 0});
             // type_as(t) is to(t.dtype): the library has no type_as; PyTorch's answer agrees.
             pytorch().compare_value(c, "expand_to",
                                     "grid.type_as(torch.zeros(1, dtype=torch.float64)).stride()",
                                     grid.to(DType::Float64).strides());
           });

  ch.claim("BC-02.overlap",
           "An in-place op is refused only where PyTorch's cheap overlap test is sure. Through the "
           "windows of zeros(5).unfold(0, 3, 1), strides (1, 1), which share elements, the test "
           "cannot decide, and add_(1) runs: each element gains 1 once per window that holds it, "
           "1, 2, 3, 2, 1, in PyTorch and in the library alike.",
           [](book::Check& c) {
             //! [write_overlap]
             Tensor base = zeros({5});
             Tensor windows = base.unfold(0, 3, 1);  // (3,3):(1,1): three windows that share elements
             add_(windows, Scalar(1.0));             // runs: each element gains 1 per window holding it
             //! [write_overlap]
             c.equal("has_internal_overlap(windows): stride 0 (Yes), dense (No) or too hard",
                     std::string(has_internal_overlap(windows) == MemOverlap::TooHard ? "too hard"
                                 : has_internal_overlap(windows) == MemOverlap::Yes ? "Yes"
                                                                                    : "No"),
                     std::string("too hard"));
             c.equal("base after windows.add_(1)", base.to_vector(),
                     std::vector<double>{1, 2, 3, 2, 1}, "overlap_base");
             pytorch().compare(c, "write_overlap", "base after windows.add_(1)", base);
             pytorch().compare(c, "write_overlap", "windows", windows, {&base});
             Tensor twice = arange(6, {DType::Float32});
             mul_(twice.unfold(0, 2, 1), Scalar(2.0));
             pytorch().compare(c, "write_overlap", "arange(6.) after unfold(0, 2, 1).mul_(2)",
                               twice);
             c.value("overlap_twice", twice.to_vector());
           });

  ch.claim("BC-02.partial",
           "An in-place op whose input overlaps its output in part is refused where the test can "
           "tell, a -= a[:1]; b -= b[:, :1] runs, and its answer depends on the walk: PyTorch "
           "zeroes each row's first element before it subtracts it from the rest, [[0, 1, 2], "
           "[0, 4, 5]], the library reads it first, [[0, 1, 2], [0, 1, 2]], which is what the "
           "column's clone gives.",
           [](book::Check& c) {
             //! [partial_overlap]
             Tensor a = arange(6, {DType::Float32}).view({2, 3});
             // sub_(a, a[:1]) is refused: a[:1] is dense and overlaps a in part
             Tensor b = arange(6, {DType::Float32}).view({2, 3});
             sub_(b, b.slice(1, 0, 1));          // runs: the test cannot decide
             Tensor d = arange(6, {DType::Float32}).view({2, 3});
             sub_(d, d.slice(1, 0, 1).clone());  // the copy is read: each row less its first
             //! [partial_overlap]
             pytorch().compare_error(c, "partial_overlap", "a.sub_(a[:1])",
                                     [&] { sub_(a, a.slice(0, 0, 1)); });
             pytorch().compare(c, "partial_overlap", "d", d);
             // b's values are the walk's: PyTorch's, from its record, and the library's.
             const nlohmann::json* theirs = pytorch().find("partial_overlap", "b");
             pytorch().versions(c, "partial_overlap", "b");
             const std::vector<double> pytorch_b =
                 theirs && theirs->contains("values") ? (*theirs)["values"].get<std::vector<double>>()
                                                      : std::vector<double>{};
             c.equal("PyTorch's b", pytorch_b, std::vector<double>{0, 1, 2, 0, 4, 5});
             c.equal("the library's b", b.to_vector(), std::vector<double>{0, 1, 2, 0, 1, 2});
             c.equal("the clone's answer, d", d.to_vector(), std::vector<double>{0, 1, 2, 0, 1, 2});
             c.equal("b's layout, as PyTorch's", b.strides(), Shape{3, 1});
             // As nested lists of two rows of three, from the values measured above.
             const auto rows = [](const std::vector<double>& v) {
               std::string out = "[";
               for (size_t i = 0; i + 2 < v.size(); i += 3)
                 out += std::string(i ? ", [" : "[") + book::show(v[i]) + ", " +
                        book::show(v[i + 1]) + ", " + book::show(v[i + 2]) + "]";
               return out + "]";
             };
             c.value("partial_pytorch", rows(pytorch_b));
             c.value("partial_library", rows(b.to_vector()));
           });
}

}  // namespace broadcasting
