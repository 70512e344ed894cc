// The reductions' plan helpers (reduce.cpp, NOTE: [Reduction paths]), shared by the reduction
// loops each CPU capability compiles (reduce_loops.h): how a plan of make_reduction is split over
// threads and walked. Internal to the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/engine/parallel.h"

namespace strided::detail {

// The outer path's column chunk (NOTE: [Reduction paths]): its running results stay in L1.
inline constexpr int64_t kColumns = 256;

// The outer path's column dim: the first kept plan dim along which x has unit stride, or -1.
int outer_dim(const TensorIterator& plan, int64_t R);

// Runs body over the plan with its outputs split over threads, each chunk a run of whole outputs
// of R inputs each; grain: outputs per chunk at least.
void for_outputs(const TensorIterator& plan, int64_t R, int64_t grain,
                 const TensorIterator::Loop2d& body);

// Runs an outer path's body over blocks of R rows by the columns of plan dim c.
void for_outer_blocks(const TensorIterator& plan, int64_t R, int c,
                      const TensorIterator::Loop2d& body);

// The pieces of one long output: one per thread, each at least kGrainSize inputs.
int64_t pieces_for(int64_t R);

// One output (a reduction over all elements, or along a dim with no other to keep): the plan's
// linear range [0, R) cut into `pieces` contiguous ranges reduced in parallel, each into a partial
// result the caller combines in order (ATen's two_pass_reduction keeps one per thread). block(acc,
// p, s0, s1, n0, n1, position) folds one block of the plan into its piece's result: n1 rows of n0
// inputs from byte address p, stepping s0 along a row and s1 between rows; position is the linear
// index of its first input.
template <class P, class Block>
std::vector<std::optional<P>> reduce_pieces(const TensorIterator& plan, int64_t R, int64_t pieces,
                                            const Block& block) {
  const int in = plan.noutputs(), nt = plan.ntensors();
  const int64_t size = (R + pieces - 1) / pieces;
  std::vector<std::optional<P>> partial(static_cast<size_t>(pieces));
  parallel_for(0, pieces, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t lo = t * size, n = std::min(size, R - lo);
      if (n <= 0) continue;
      std::optional<P>& acc = partial[static_cast<size_t>(t)];
      int64_t position = lo;
      plan.serial_for_each(
          [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
            block(acc, data[in], st[in], st[nt + in], n0, n1, position);
            position += n0 * n1;
          },
          lo, lo + n);
    }
  });
  return partial;
}

}  // namespace strided::detail
