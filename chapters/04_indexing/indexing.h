// Chapter 4's sections kept in files of their own beside this header; the chapter's program
// (chapters/04_indexing.cpp) adds them to the chapter in the page's order.
#pragma once

#include <string>
#include <vector>

#include "book/book.h"
#include "strided/strided.h"

namespace indexing_chapter {

// PyTorch 1.13's answers for this chapter's expressions (chapters/04_indexing.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("04_indexing");
}

// A table row of a layout: name, sizes, strides, storage offset and whether it is contiguous.
inline std::vector<std::string> layout_row(const std::string& name, const strided::Tensor& t) {
  return {name, book::show(t.sizes()), book::show(t.strides()), book::show(t.storage_offset()),
          t.is_contiguous() ? "True" : "False"};
}

void view_rule(book::Chapter& ch);  // When a new shape can be a view
void attention(book::Chapter& ch);  // A worked case: multi-head attention (attention.cpp)
void numpy_box(book::Chapter& ch);  // NumPy and PyTorch: who owns the memory (exercises.cpp)
void exercises(book::Chapter& ch);  // Exercises, declared last (exercises.cpp)

}  // namespace indexing_chapter
