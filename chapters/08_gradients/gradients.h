// Chapter 8's sections and plumbing outside chapters/08_gradients.cpp: the gradients of the view
// ops (views.cpp) and the picture of a graph (graph_svg.cpp). The chapter's program calls them in
// the page's order.
#pragma once

#include <string>
#include <vector>

#include "book/book.h"
#include "book/pytorch_record.h"
#include "strided/autograd/autograd.h"

namespace gradients_chapter {

// PyTorch 1.13's answers for the chapter's expressions (chapters/08_gradients.py, recorded by
// tools/book record-pytorch): the checks compare the library's gradients, grad_fn names and
// refusals with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("08_gradients");
}

// A tensor's elements in row-major order, as the checks compare them.
inline std::vector<double> values(const strided::Tensor& t) { return t.to_vector(); }

// A float32 leaf that requires grad, from its values and shape.
strided::autograd::Variable leaf(const std::vector<double>& values, strided::IntList sizes,
                                 strided::DType dtype = strided::DType::Float32);

// The backward graph behind `output` as an SVG: one box per node, named as PyTorch names it, with
// the values of the tensors it saved; the leaves' AccumulateGrad nodes at the bottom, labelled with
// `leaf_names` in the order a depth-first walk meets them.
std::string graph_svg(const strided::autograd::Variable& output,
                      const std::vector<std::string>& leaf_names, const std::string& title);

// The section "Gradients through views": AG-05, AG-06, ER-35 and the backward of each view op.
void views(book::Chapter& ch);

// NumPy beside PyTorch, at the end of "Writing in place": AG-01.numpy (exercises.cpp).
void numpy(book::Chapter& ch);

// The section "Exercises", last: EX-08.1 … EX-08.5 (exercises.cpp).
void exercises(book::Chapter& ch);

}  // namespace gradients_chapter
