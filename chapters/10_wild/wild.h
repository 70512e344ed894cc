// Chapter 10's sections outside chapters/10_wild.cpp: the boundaries with NumPy, DLPack,
// torch.save and a C++ kernel, torch.compile, and the exercises (boundaries.cpp). The chapter's
// program calls them in the page's order.
#pragma once

#include <string>

#include "book/book.h"
#include "book/pytorch_record.h"
#include "strided/strided.h"

namespace wild_chapter {

// The dtypes of the chapter's tensors.
inline const strided::TensorOptions f32{strided::DType::Float32};
inline const strided::TensorOptions f64{strided::DType::Float64};

// PyTorch's recorded answers for the chapter's expressions (chapters/10_wild.py).
inline const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("10_wild"); }

// The strides of PyTorch's recorded tensor answer for `expression` of `group` (its 1.13 answer
// asked too); an empty Shape, and a failed check, when there is none.
strided::Shape recorded_strides(book::Check& c, const std::string& group,
                                const std::string& expression);

// The second half of "Copies hidden inside ops": ops that call contiguous(), and what
// contiguous() of a permutation costs (SW-17 … SW-19; inside.cpp).
void hidden_copies(book::Chapter& ch);
// The sections "Devices" (SW-20 … SW-22; devices.cpp) and "Channels last through a network"
// (SW-23, SW-24, SW-26; network.cpp).
void devices(book::Chapter& ch);
void network(book::Chapter& ch);

// The sections "Crossing a boundary" and "Compilers" (SW-11 … SW-15), and the exercises.
void boundaries(book::Chapter& ch);
void exercises(book::Chapter& ch);

}  // namespace wild_chapter
