// The problem sizes of the chapters' timings, in one place. ctest runs a short size that keeps the
// ratio's direction; `tools/book build --full` (book::full_run, recorded in every chapter's
// provenance) runs the size the seed notebook or the catalogue timed. The model claims count
// fixed small sizes of their own, stated in their claims.
#pragma once

#include <cstdint>

#include "book/provenance.h"

namespace book::sizes {

// The side of the cubes of In[13] and In[16] (chapter 6): the seed's 512 (512 MiB of float32 per
// tensor), or 128 for ctest (8 MiB per tensor: the ratios keep their direction, the run stays short).
constexpr int64_t kSeedCube = 512;
inline int64_t cube() { return full_run() ? kSeedCube : 128; }

// PF-20 times eight products per measurement: a smaller cube than the other timings in ctest.
inline int64_t copy_cube() { return full_run() ? cube() : 96; }

// Chapter 7's naive kernels: the catalogue's n = 512, or 256 (a 256 KiB float32 matrix, larger
// than a core's L1 and L2 share on the machines the book runs on, so a column walk still misses).
inline int64_t naive_n() { return full_run() ? 512 : 256; }

// Transposing first (MM-04): the catalogue's n = 512 in every run (its 1024 would cost minutes of
// naive loops). Below 512 a column of a row-major B still comes from L2 quickly enough that the
// gap is small and unsteady.
inline int64_t transpose_n() { return 512; }

// BLAS: In[19]'s 2048, or 1024 in ctest (long enough per call for a steady median).
inline int64_t blas_n() { return full_run() ? 2048 : 1024; }

}  // namespace book::sizes
