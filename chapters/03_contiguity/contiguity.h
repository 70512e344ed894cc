// Chapter 3's sections kept in files of their own beside this header; the chapter's program
// (chapters/03_contiguity.cpp) adds them to the chapter in the page's order.
#pragma once

#include "book/book.h"

namespace contiguity {

// PyTorch 1.13's answers for this chapter's expressions (chapters/03_contiguity.py, recorded by
// tools/book record-pytorch): the checks compare the library's answers with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("03_contiguity");
}

void dense(book::Chapter& ch);          // Dense layouts: CT-09
void channels_last(book::Chapter& ch);  // Channels last: CT-11.channels, CT-02.channels, CT-13
void numpy_box(book::Chapter& ch);      // NumPy's two flags: CT-14 (exercises.cpp)
void exercises(book::Chapter& ch);      // Exercises: EX-03.k, declared last (exercises.cpp)

}  // namespace contiguity
