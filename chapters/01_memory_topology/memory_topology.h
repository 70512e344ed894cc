// Chapter 1's sections kept in files of their own beside this header; the chapter's program
// (chapters/01_memory_topology.cpp) adds them to the chapter in the page's order.
#pragma once

#include "book/book.h"

namespace memory_topology {

// PyTorch 1.13's answers for this chapter's expressions (chapters/01_memory_topology.py, recorded
// by tools/book record-pytorch): the checks compare the library's answers with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("01_memory_topology");
}

void order(book::Chapter& ch);      // Row-major, column-major, and strides in bytes
void exercises(book::Chapter& ch);  // Exercises (EX-01.k), declared last

}  // namespace memory_topology
