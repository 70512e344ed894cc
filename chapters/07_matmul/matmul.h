// Chapter 7's later sections, in chapters/07_matmul/batched.cpp; the chapter's program
// (chapters/07_matmul.cpp) adds them after its own, in the page's order.
#pragma once

#include "book/book.h"

namespace matmul_chapter {

// PyTorch 1.13's answers for the same expressions (chapters/07_matmul.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
inline const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("07_matmul"); }

// Batched products and broadcasting; stride tricks; benchmark notes.
void batched(book::Chapter& ch);

}  // namespace matmul_chapter
