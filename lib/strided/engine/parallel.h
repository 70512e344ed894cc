// Splitting a range of work over threads, as ATen's at::parallel_for (aten/src/ATen/Parallel.h,
// ParallelOpenMP.h): the range is cut into at most get_num_threads() contiguous chunks of at least
// grain_size items, and the calling thread works on the first chunk itself.
//
// The default thread count is the hardware's concurrency, as PyTorch's; set_num_threads changes it
// for the engine and for OpenBLAS together, so "the same thread count" means the same thing for
// every kernel the book times. The library calls OpenBLAS only outside a parallel_for (matmul's
// BLAS path runs on the calling thread, OpenBLAS splitting it), so OpenBLAS's threads and the
// engine's never share the cores at once: n threads in all, not n × n.
#pragma once

#include <cstdint>
#include <functional>

namespace strided {

// ATen's at::internal::GRAIN_SIZE: below this many elements an op runs on one thread, because
// waking a second one costs more than it saves.
inline constexpr int64_t kGrainSize = 32768;

// Threads the engine uses (>= 1). torch.get_num_threads.
int get_num_threads();
// torch.set_num_threads: n >= 1, else an Error naming n. Also sets OpenBLAS's thread count.
// Called inside a parallel_for's chunk it takes effect from the next parallel_for (as
// omp_set_num_threads inside an OpenMP region changes no running region).
void set_num_threads(int n);

// Calls f(chunk_begin, chunk_end) over [begin, end) split into contiguous chunks, one per thread,
// each of at least grain_size items (the last may be shorter); returns when all are done. A range
// of at most grain_size items, one thread, or a call from inside a worker runs f(begin, end)
// serially. As ParallelOpenMP.h: tasks = min(threads, divup(end - begin, grain_size)), chunk =
// divup(end - begin, tasks), task i gets [begin + i·chunk, min(end, begin + (i+1)·chunk)).
//
// First touch: a fresh output's pages are faulted in by whichever thread writes them first.
// Storage::allocate touches nothing (no memset; a block the caching allocator reuses is already
// faulted in), so an element-wise kernel's output is first touched by its own parallel_for, each
// page by the thread whose chunk writes it: the faults run in parallel, in the kernel's partition.
// The first exception a chunk throws is rethrown here after every chunk has finished.
void parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& f);

// True while the calling thread runs a chunk of a parallel_for (at::in_parallel_region).
bool in_parallel_region();

}  // namespace strided
