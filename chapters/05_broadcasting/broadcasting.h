// Chapter 5's sections kept in files of their own beside this header; the chapter's program
// (chapters/05_broadcasting.cpp) adds them to the chapter in the page's order.
#pragma once

#include "book/book.h"

namespace broadcasting {

// PyTorch's recorded answers for this chapter's expressions (chapters/05_broadcasting.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("05_broadcasting");
}

void writes(book::Chapter& ch);  // Stride 0, writing: BC-02.to, BC-02.overlap, BC-02.partial
void gpu(book::Chapter& ch);     // Memory order and the GPU: BC-08, BC-09, ER-13
void numpy(book::Chapter& ch);       // NumPy beside PyTorch: BC-02.numpy
void exercises(book::Chapter& ch);   // Exercises: EX-05.1 … EX-05.5

}  // namespace broadcasting
