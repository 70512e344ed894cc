// Chapter 7's later sections, in chapters/07_matmul/batched.cpp; the chapter's program
// (chapters/07_matmul.cpp) adds them after its own, in the page's order.
#pragma once

#include "book/book.h"

namespace matmul_chapter {

// PyTorch 1.13's answers for the same expressions (chapters/07_matmul.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
inline const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("07_matmul"); }

// A skinny operand and its transpose through BLAS (07_matmul/skinny.cpp).
void skinny(book::Chapter& ch);

// Batched products and broadcasting; stride tricks; benchmark notes (07_matmul/batched.cpp).
void batched(book::Chapter& ch);

// The NumPy box of "Row-major and column-major", and the exercises (07_matmul/exercises.cpp).
void numpy_box(book::Chapter& ch);
void exercises(book::Chapter& ch);

}  // namespace matmul_chapter
