// Chapter 6's sections on each kind of op, one file each beside this header; the chapter's program
// (chapters/06_performance.cpp) adds them to the chapter in the page's order.
#pragma once

#include "book/book.h"

// The GPU's timing claims call strided::cuda where the build has it; elsewhere they are not run.
#if __has_include("strided/cuda/cuda.h")
#include "strided/cuda/cuda.h"
#include "strided/cuda/reduce_plan.h"
#define PF_HAVE_CUDA_API 1
#else
#define PF_HAVE_CUDA_API 0
#endif

namespace performance {

// PyTorch 1.13's answers for the chapter's expressions (chapters/06_performance.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors with them.
inline const book::PytorchRecord& pytorch() {
  return book::PytorchRecord::of_chapter("06_performance");
}

void unary(book::Chapter& ch);       // Unary ops: layouts at the same cost, and one that is not
void reductions(book::Chapter& ch);  // Reductions
void binary(book::Chapter& ch);      // Binary ops, the layout of the output, when a copy pays
void first_touch(book::Chapter& ch); // First touch: what a fresh output costs
void exercises(book::Chapter& ch);   // Exercises: the answers the page hides (EX-06.k)

}  // namespace performance
