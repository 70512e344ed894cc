#include "strided/cuda/reduce_plan.h"

#include <array>

#include "strided/core/error.h"

namespace strided::cuda {

ReducePlan reduce_plan(const TensorIterator& it, const char* op) {
  STRIDED_INTERNAL_ASSERT(it.noutputs() == 1 && it.ntensors() == 2);
  const IterOperand& out = it.operand(0);
  const IterOperand& in = it.operand(1);
  ReducePlan plan;
  plan.out = static_cast<char*>(out.data());
  plan.in = static_cast<const char*>(in.data());
  // make_reduction's post-condition: a reduced run longer than 1 is plan dim 0, where the output
  // does not move. A run of 1 has been coalesced away, and every plan dim is kept.
  int first_kept = 0;
  if (it.ndim() > 0 && out.stride_bytes[0] == 0 && it.shape()[0] > 1) {
    plan.reduced = it.shape()[0];
    plan.reduced_step = in.stride_bytes[0];
    first_kept = 1;
  }
  Shape sizes, out_steps, in_steps;
  for (int d = first_kept; d < it.ndim(); ++d) {
    STRIDED_INTERNAL_ASSERT(out.stride_bytes[d] != 0 || it.shape()[d] == 1);
    sizes.push_back(it.shape()[d]);
    out_steps.push_back(out.stride_bytes[d]);
    in_steps.push_back(in.stride_bytes[d]);
  }
  plan.outputs = it.numel() / plan.reduced;
  plan.kept = make_offset_calculator<2, uint64_t>(sizes, {IntList(out_steps), IntList(in_steps)}, op);
  return plan;
}

ReduceKernel auto_version(const ReducePlan& plan, int64_t itemsize) {
  return plan.reduced_step == itemsize ? ReduceKernel::BlockPerRow : ReduceKernel::ColumnSplit;
}

std::vector<int64_t> warp_reads(const ReducePlan& plan, ReduceKernel v, int w, int64_t s) {
  STRIDED_CHECK(v != ReduceKernel::Auto, "warp_reads", "name the kernel: Auto is chosen per plan");
  STRIDED_CHECK(w >= 0 && w < (v == ReduceKernel::ColumnSplit ? kSplitWarps : kRowThreads / 32),
                "warp_reads", "block 0 has no warp ", w);
  std::vector<int64_t> bytes;
  for (int lane = 0; lane < 32; ++lane) {
    const int thread = 32 * w + lane;
    const ReduceRead read =
        v == ReduceKernel::ThreadPerOutput ? thread_per_output_read(thread, s)
        : v == ReduceKernel::BlockPerRow
            ? block_per_row_read(0, thread, s)
            : column_split_read(0, thread % kSplitColumns, thread / kSplitColumns, s);
    if (read.output >= plan.outputs || read.r >= plan.reduced) continue;
    bytes.push_back(plan.kept.get(static_cast<uint64_t>(read.output))[1] +
                    read.r * plan.reduced_step);
  }
  return bytes;
}

}  // namespace strided::cuda
