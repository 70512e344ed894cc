// Chapter 9: Errors and what they mean. Each error PyTorch raises for a layout, with its words
// from the record of both PyTorches, a trigger the library refuses in the same words, the rule
// behind it, and the fix, compared with PyTorch's answer for it.
#include <optional>
#include <string>
#include <vector>

#include "book/book.h"
#include "book/pytorch_record.h"
#include "strided/autograd/autograd.h"
#include "strided/engine/ops.h"
#include "strided/layout/refusal.h"
#include "strided/memory/memory.h"
#include "strided/strided.h"

using namespace strided;
using autograd::Variable;

namespace {

const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("09_errors"); }

// PyTorch's refusal of `expression` as a Python session shows it, from the records: the line typed,
// then the exception, once when PyTorch 2.6 and 1.13 answer alike, else once per series.
std::string session(const std::string& group, const std::string& expression) {
  auto recorded = [&](const book::PytorchRecord& r) {
    const nlohmann::json* a = r.find(group, expression);
    if (a == nullptr || !a->contains("error"))
      throw std::out_of_range(expression + ": no refusal recorded in " + r.source());
    return (*a)["error"].get<std::string>();
  };
  const std::string now = recorded(pytorch());
  const std::string before = recorded(*pytorch().earlier());
  if (now == before) return ">>> " + expression + "\n" + now;
  return "PyTorch " + std::string(book::PytorchRecord::series) + "\n>>> " + expression + "\n" +
         now + "\n\nPyTorch " + book::PytorchRecord::earlier_series + "\n>>> " + expression +
         "\n" + before;
}

// Shows PyTorch's words for an entry (`name`_message) with a caption naming the series.
void message(book::Check& c, const std::string& name, const std::string& group,
             const std::string& expression) {
  const std::string text = session(group, expression);
  const bool alike = text.rfind(">>> ", 0) == 0;
  c.text(name + "_message", text,
         alike ? "PyTorch 2.6 and 1.13, recorded: the same words"
               : "PyTorch 2.6 and 1.13, recorded: the words differ");
  pytorch().versions(c, group, expression);
}

// The library's explanation of a refusal (strided/layout/refusal.h), as the explorer prints it.
void explanation(book::Check& c, const std::string& name, const std::optional<LayoutRefusal>& r,
                 const std::string& rule) {
  c.that("the library explains the refusal by the " + rule + " rule",
         r.has_value() && r->rule == rule, r ? r->why : "no explanation");
  if (r) c.text(name + "_why", "why: " + r->why + "\ninstead: " + r->instead);
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("09_errors", "Errors and what they mean");

  // ---- Layout errors ------------------------------------------------------------------------------
  ch.section("layout", "Errors of the layout");

  ch.claim("EM-01",
           "view refuses a shape whose new dim would span two dims that do not step as one, in "
           "PyTorch's words; reshape copies instead, as does contiguous() then view.",
           [](book::Check& c) {
             //! [em_view]
             Tensor x = arange(12).view({3, 4});
             Tensor y = x.t();                  // (4,3):(1,4)
             // y.view({12}) is refused: dims 0 and 1 of y cannot merge
             Tensor flat = y.reshape({12});     // a copy
             Tensor same = y.contiguous().view({12});
             //! [em_view]
             pytorch().compare_error(c, "em_view", "y.view(12)", [&] { y.view({12}); });
             pytorch().compare(c, "em_view", "flat", flat, {&x});
             pytorch().compare(c, "em_view", "same", same, {&x});
             message(c, "em_view", "em_view", "y.view(12)");
             explanation(c, "em_view", view_refusal(y.layout(), {12}), "view");
           });

  ch.claim("EM-02",
           "view and reshape refuse a shape whose sizes do not multiply to the tensor's number of "
           "elements, in PyTorch's words; one -1 lets view work a size out.",
           [](book::Check& c) {
             //! [em_numel]
             Tensor x = arange(6);
             // x.view({4}) is refused: 4 elements cannot hold 6
             Tensor rows = x.view({2, -1});     // -1 is worked out: 3
             //! [em_numel]
             pytorch().compare_error(c, "em_numel", "x.view(4)", [&] { x.view({4}); });
             pytorch().compare_error(c, "em_numel", "x.reshape(4)", [&] { x.reshape({4}); });
             pytorch().compare(c, "em_numel", "rows", rows, {&x});
             message(c, "em_numel", "em_numel", "x.view(4)");
             explanation(c, "em_numel", view_refusal(x.layout(), {4}), "view");
           });

  ch.claim("EM-03",
           "expand refuses to change a size other than 1, in PyTorch's words; a new leading dim "
           "may take any size at stride 0, and repeat copies.",
           [](book::Check& c) {
             //! [em_expand]
             Tensor x = zeros({2, 3});
             // x.expand({4, 3}) is refused: dim 0 has size 2, not 1
             Tensor grown = x.unsqueeze(0).expand({4, 2, 3});  // a new leading dim may grow
             Tensor tiled = x.repeat({2, 1});                  // (4, 3), a copy
             //! [em_expand]
             pytorch().compare_error(c, "em_expand", "x.expand(4, 3)", [&] { x.expand({4, 3}); });
             pytorch().compare(c, "em_expand", "grown", grown, {&x});
             pytorch().compare(c, "em_expand", "tiled", tiled, {&x});
             message(c, "em_expand", "em_expand", "x.expand(4, 3)");
             explanation(c, "em_expand", expand_refusal(x.layout(), {4, 3}), "expand");
           });

  ch.claim("EM-04",
           "An op refuses operands whose sizes, aligned from the right, differ where neither is 1, "
           "in PyTorch's words; a size-1 dim added to one of them pairs every element with every "
           "other.",
           [](book::Check& c) {
             //! [em_broadcast]
             Tensor a = zeros({3});
             Tensor b = zeros({2});
             // a + b is refused: sizes 3 and 2 at dim 0
             Tensor table = a.unsqueeze(1) + b;  // (3, 1) + (2,) -> (3, 2)
             //! [em_broadcast]
             pytorch().compare_error(c, "em_broadcast", "a + b", [&] { (void)(a + b); });
             pytorch().compare(c, "em_broadcast", "table", table);
             message(c, "em_broadcast", "em_broadcast", "a + b");
             explanation(c, "em_broadcast", broadcast_refusal({a.sizes(), b.sizes()}), "broadcast");
           });

  ch.claim("EM-05",
           "An in-place op refuses to write to a tensor with a dim of stride 0 and size above 1, "
           "in PyTorch's words: two of its elements share one memory location; a clone has a "
           "location for each.",
           [](book::Check& c) {
             //! [em_overlap]
             Tensor row = zeros({3});
             Tensor grid = row.expand({2, 3});  // (2,3):(0,1)
             // add_(grid, 1) is refused: two elements of grid share each cell of row
             Tensor owned = grid.clone();
             add_(owned, Scalar(1.0));
             //! [em_overlap]
             pytorch().compare_error(c, "em_overlap", "grid.add_(1)",
                                     [&] { add_(grid, Scalar(1.0)); });
             pytorch().compare(c, "em_overlap", "owned", owned);
             message(c, "em_overlap", "em_overlap", "grid.add_(1)");
             explanation(c, "em_overlap", overlap_refusal(grid.layout()), "overlap");
           });

  ch.claim("EM-06",
           "A slice with a negative step and as_strided with a negative stride are refused, in "
           "PyTorch's words: a tensor's strides are never negative; flip copies in reverse.",
           [](book::Check& c) {
             //! [em_negative]
             Tensor x = arange(6);
             // x[::-1] and x.as_strided({6}, {-1}, 5) are refused: no negative steps
             Tensor backwards = x.flip({0});    // a copy, in reverse
             //! [em_negative]
             pytorch().compare_error(c, "em_negative", "x[::-1]",
                                     [&] { x.index({indexing::Slice(indexing::None, indexing::None, -1)}); });
             pytorch().compare_error(c, "em_negative", "x.as_strided((6,), (-1,), 5)",
                                     [&] { x.as_strided({6}, {-1}, 5); });
             pytorch().compare(c, "em_negative", "backwards", backwards, {&x});
             message(c, "em_negative", "em_negative", "x[::-1]");
             message(c, "em_strided", "em_negative", "x.as_strided((6,), (-1,), 5)");
           });

  ch.claim("EM-07",
           "torch.from_numpy refuses an array with a negative stride, in PyTorch's words (a NumPy "
           "array may have one, a tensor may not); the array's copy has positive strides, in "
           "bytes those of a row-major tensor times the element size.",
           [](book::Check& c) {
             // The library reads no NumPy array: it computes the strides a copy has, in bytes.
             Tensor t = arange(6, {DType::Float32}).view({2, 3});
             Shape bytes = t.strides();
             for (int64_t& s : bytes) s *= t.element_size();
             pytorch().compare_value(c, "em_from_numpy", "a.strides", bytes);
             Shape reversed = bytes;
             reversed[0] = -reversed[0];
             pytorch().compare_value(c, "em_from_numpy", "rev.strides", reversed);
             pytorch().compare(c, "em_from_numpy", "torch.from_numpy(rev.copy())", t.flip({0}));
             const std::string refused = pytorch().error_message("em_from_numpy", "torch.from_numpy(rev)");
             c.that("PyTorch refuses torch.from_numpy(rev), naming the negative stride",
                    refused.find("negative") != std::string::npos &&
                        refused.find("copy()") != std::string::npos,
                    refused);
             message(c, "em_from_numpy", "em_from_numpy", "torch.from_numpy(rev)");
           });

  ch.claim("EM-08",
           "contiguous with memory_format=channels_last refuses a tensor that is not 4-d, in "
           "PyTorch's words; a 4-d one gets the channels-last strides.",
           [](book::Check& c) {
             //! [em_channels_last]
             Tensor m = zeros({3, 4});
             // m.contiguous(MemoryFormat::ChannelsLast) is refused: m is 2-d
             Tensor image = zeros({1, 3, 4, 5}).contiguous(MemoryFormat::ChannelsLast);
             //! [em_channels_last]
             pytorch().compare_error(c, "em_channels_last",
                                     "m.contiguous(memory_format=torch.channels_last)",
                                     [&] { (void)m.contiguous(MemoryFormat::ChannelsLast); });
             pytorch().compare(c, "em_channels_last", "image", image);
             message(c, "em_channels_last", "em_channels_last",
                     "m.contiguous(memory_format=torch.channels_last)");
           });

  // ---- Autograd errors ----------------------------------------------------------------------------
  ch.section("autograd", "Errors of autograd");

  ch.claim("EM-09",
           "backward refuses to use a saved tensor that an in-place op changed since it was saved "
           "(its version counter moved), in PyTorch's words.",
           [](book::Check& c) {
             //! [em_version]
             Variable x(from_values({1, 2, 3}, {3}), /*requires_grad=*/true);
             Variable e = autograd::exp(x);     // ExpBackward0 saves its output, e
             autograd::mul_(e, Scalar(2.0));    // e's version is now 1
             // autograd::sum(e).backward() is refused: the saved e has changed
             //! [em_version]
             pytorch().compare_value(c, "em_version", "e._version", e.version());
             pytorch().compare_error(c, "em_version", "e.sum().backward()",
                                     [&] { autograd::sum(e).backward(); });
             message(c, "em_version", "em_version", "e.sum().backward()");
           });

  ch.claim("EM-10",
           "An in-place op on a leaf that requires grad is refused while grad mode is on, in "
           "PyTorch's words; under no_grad it goes through.",
           [](book::Check& c) {
             //! [em_leaf]
             Variable w(from_values({1, 2, 3}, {3}), /*requires_grad=*/true);
             // autograd::add_(w, 1) is refused while grad mode is on
             {
               autograd::NoGradGuard no_grad;
               autograd::add_(w, Scalar(1.0));  // allowed: no graph records it
             }
             //! [em_leaf]
             Variable fresh(from_values({1, 2, 3}, {3}), /*requires_grad=*/true);
             pytorch().compare_error(c, "em_leaf", "w.add_(1)",
                                     [&] { autograd::add_(fresh, Scalar(1.0)); });
             pytorch().compare(c, "em_leaf", "w", w.tensor());
             message(c, "em_leaf", "em_leaf", "w.add_(1)");
           });

  ch.claim("EM-11",
           "An in-place op on one of several views that one op returned (split, unbind) is "
           "refused under autograd, in PyTorch's words; an out-of-place op makes a new tensor.",
           [](book::Check& c) {
             //! [em_multi]
             Variable x(from_values({0, 1, 2, 3, 4, 5}, {6}), /*requires_grad=*/true);
             Variable y = x * 1.0;
             std::vector<Variable> pieces = autograd::split(y, 3);  // two views, one node's outputs
             // autograd::mul_(pieces[0], 2) is refused; pieces[0] * 2 is a new tensor
             Variable doubled = pieces[0] * 2.0;
             //! [em_multi]
             pytorch().compare_error(c, "em_multi", "pieces[0].mul_(2)",
                                     [&] { autograd::mul_(pieces[0], Scalar(2.0)); });
             pytorch().compare(c, "em_multi", "doubled", doubled.tensor());
             message(c, "em_multi", "em_multi", "pieces[0].mul_(2)");
           });

  ch.claim("EM-12",
           "numpy() refuses a tensor that requires grad, in PyTorch's words, and names the fix: "
           "detach() first, a view of the same storage outside the graph.",
           [](book::Check& c) {
             // The library has no numpy(): the record holds PyTorch's refusal, and detach is
             // compared with PyTorch's.
             Variable p(from_values({1, 1, 1}, {3}), /*requires_grad=*/true);
             const Tensor detached = p.detach().tensor();
             pytorch().compare(c, "em_numpy", "p.detach()", detached, {&p.tensor()});
             const std::string refused = pytorch().error_message("em_numpy", "p.numpy()");
             c.that("PyTorch refuses p.numpy(), naming requires grad and detach()",
                    refused.find("requires grad") != std::string::npos &&
                        refused.find("detach()") != std::string::npos,
                    refused);
             message(c, "em_numpy", "em_numpy", "p.numpy()");
           });

  // ---- Exercises ------------------------------------------------------------------------------------
  ch.section("exercises", "Exercises");

  ch.claim("EX-09.1",
           "x = arange(24).view(2, 3, 4).transpose(1, 2) has strides (12, 1, 4); x.view(2, 12) is "
           "refused because dims 1 and 2 cannot merge: merging needs stride[1] = 3 × 4 = 12, and "
           "stride[1] is 1.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4}).transpose(1, 2);
             pytorch().compare(c, "exercises", "x1", x);
             pytorch().compare_error(c, "exercises", "x1.view(2, 12)", [&] { x.view({2, 12}); });
             const std::optional<LayoutRefusal> why = view_refusal(x.layout(), {2, 12});
             c.equal("the dims that cannot merge", why ? why->dims : Shape{}, Shape{1, 2});
             c.value("ex1_strides", x.strides());
             c.value("ex1_why", why ? why->why : std::string("none"));
           });

  ch.claim("EX-09.2",
           "zeros(3, 1).expand(3, 4) has strides (1, 0); zeros(3, 2).expand(3, 4) is refused: dim "
           "1 has size 2, not 1.",
           [](book::Check& c) {
             Tensor grown = zeros({3, 1}).expand({3, 4});
             pytorch().compare(c, "exercises", "torch.zeros(3, 1).expand(3, 4)", grown);
             pytorch().compare_error(c, "exercises", "torch.zeros(3, 2).expand(3, 4)",
                                     [] { (void)zeros({3, 2}).expand({3, 4}); });
             const std::optional<LayoutRefusal> why =
                 expand_refusal(Layout({3, 2}, {2, 1}), {3, 4});
             c.equal("the dim in the way", why ? why->dims : Shape{}, Shape{1});
             c.value("ex2_strides", grown.strides());
           });

  ch.claim("EX-09.3",
           "zeros(4, 3) + zeros(4) is refused: aligned from the right, size 3 meets size 4; "
           "b[:, None], of shape (4, 1), broadcasts to a (4, 3) sum.",
           [](book::Check& c) {
             Tensor a = zeros({4, 3});
             Tensor b = zeros({4});
             pytorch().compare_error(c, "exercises", "a3 + b3", [&] { (void)(a + b); });
             Tensor sum = a + b.unsqueeze(1);
             pytorch().compare(c, "exercises", "a3 + b3[:, None]", sum);
             c.value("ex3_shape", sum.sizes());
           });

  ch.claim("EX-09.4",
           "Of three in-place writes, only the one through stride 0 is refused: a slice takes it, "
           "and overlapping windows of unfold(0, 3, 1) take it too, each element gaining 1 per "
           "window that holds it: 1, 2, 3, 2, 1.",
           [](book::Check& c) {
             Tensor part = zeros({2, 3}).slice(1, 0, 2);
             add_(part, Scalar(1.0));
             pytorch().compare(c, "exercises", "torch.zeros(2, 3)[:, :2].add_(1)", part);
             pytorch().compare_error(c, "exercises", "torch.zeros(3).expand(2, 3).add_(1)",
                                     [] { add_(zeros({3}).expand({2, 3}), Scalar(1.0)); });
             Tensor win = zeros({5});
             add_(win.unfold(0, 3, 1), Scalar(1.0));
             pytorch().compare(c, "exercises", "win", win);
             c.value("ex4_win", win.to_vector());
           });

  return ch.main(argc, argv);
}
