// Chapter 2's sections kept in files of their own beside this header; the chapter's program
// (chapters/02_views.cpp) adds them to the chapter in the page's order.
#pragma once

#include "book/book.h"

namespace views {

// PyTorch 1.13's answers for this chapter's expressions (chapters/02_views.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors with them.
inline const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("02_views"); }

void rows(book::Chapter& ch);       // Rows and columns
void aliases(book::Chapter& ch);    // Aliases and one buffer
void dtype(book::Chapter& ch);      // Conversions that look like views
void catalogue(book::Chapter& ch);  // A catalogue of views
void numpy(book::Chapter& ch);      // NumPy and PyTorch (in exercises.cpp)
void exercises(book::Chapter& ch);  // Exercises (EX-02.k), declared last

}  // namespace views
