// The plan the GPU reductions launch (make_reduction's, serialised) and the three kernels' thread
// mappings over it, run on the host over CPU tensors of the layouts the GPU sees: every input
// element is read exactly once per output, the offsets give the CPU reduction's results in any
// layout, and the sectors a warp's reads span are chapter 6's (PF-13.sectors, ER-11).
#include "strided/cuda/reduce_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "strided/cuda/test_util.h"
#include "strided/engine/reduce.h"
#include "strided/models/models.h"

using namespace strided;
using namespace strided::cuda;
using strided::cuda::testing::small_integers;

namespace {

constexpr ReduceKernel kVersions[] = {ReduceKernel::ThreadPerOutput, ReduceKernel::BlockPerRow,
                                       ReduceKernel::ColumnSplit};

// The plan cuda::sum_out builds, over a CPU input and a fresh contiguous output.
struct PlannedReduction {
  Tensor out;
  ReducePlan plan;
};
PlannedReduction plan_of(const Tensor& x, int64_t dim) {
  Shape kept;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dim) kept.push_back(x.size(d));
  PlannedReduction p{zeros(kept), {}};
  p.plan = reduce_plan(make_reduction("cuda::sum", x, dim, {p.out}), "cuda::sum");
  return p;
}

// Every (output, r) pair each thread of a version reads, in the kernel's loop order, as the
// launch in reduce_kernels.cu would run it with one block per output (or per tile of 32).
template <class F>
void for_each_read(const ReducePlan& p, ReduceKernel v, const F& f) {
  auto walk = [&](auto read_at) {
    for (int64_t s = 0;; ++s) {
      const ReduceRead read = read_at(s);
      if (read.r >= p.reduced) return;
      f(read);
    }
  };
  switch (v) {
    case ReduceKernel::Auto:
      FAIL("for_each_read walks a kernel, not Auto");
      break;
    case ReduceKernel::ThreadPerOutput:
      for (int64_t t = 0; t < p.outputs; ++t) walk([&](int64_t s) { return thread_per_output_read(t, s); });
      break;
    case ReduceKernel::BlockPerRow:
      for (int64_t b = 0; b < p.outputs; ++b)
        for (int th = 0; th < kRowThreads; ++th)
          walk([&](int64_t s) { return block_per_row_read(b, th, s); });
      break;
    case ReduceKernel::ColumnSplit:
      for (int64_t b = 0; b < column_split_strips(p.outputs); ++b)
        for (int y = 0; y < kSplitRows; ++y)
          for (int x = 0; x < kSplitColumns; ++x) {
            if (column_split_read(b, x, y, 0).output >= p.outputs) continue;
            walk([&](int64_t s) { return column_split_read(b, x, y, s); });
          }
      break;
  }
}

// Runs version v on the host: sums through the plan's offsets, into out (as the kernel writes).
void run_on_host(const ReducePlan& p, ReduceKernel v) {
  std::vector<double> acc(static_cast<size_t>(p.outputs), 0.0);
  std::vector<int64_t> visits(static_cast<size_t>(p.outputs * p.reduced), 0);
  for_each_read(p, v, [&](const ReduceRead& read) {
    const Offsets<2> at = p.kept.get(static_cast<uint64_t>(read.output));
    acc[static_cast<size_t>(read.output)] +=
        *reinterpret_cast<const float*>(p.in + at[1] + read.r * p.reduced_step);
    ++visits[static_cast<size_t>(read.output * p.reduced + read.r)];
  });
  CHECK(std::all_of(visits.begin(), visits.end(), [](int64_t n) { return n == 1; }));
  for (int64_t t = 0; t < p.outputs; ++t)
    *reinterpret_cast<float*>(p.out + p.kept.get(static_cast<uint64_t>(t))[0]) =
        static_cast<float>(acc[static_cast<size_t>(t)]);
}

// Each version over x along every dim against the CPU's sum (small integers: exact).
void check_all_dims(const Tensor& x, const char* what) {
  for (int64_t dim = 0; dim < std::max<int64_t>(x.dim(), 1); ++dim)
    for (const ReduceKernel v : kVersions) {
      INFO(what, ", dim ", dim, ", version ", static_cast<int>(v));
      PlannedReduction p = plan_of(x, x.dim() == 0 ? 0 : dim);
      run_on_host(p.plan, v);
      CHECK(p.out.to_vector() == strided::sum(x, dim).to_vector());
    }
}

// Sectors of 32 bytes that the first warp's reads at step s span.
int64_t sectors(const ReducePlan& p, ReduceKernel v, int64_t s = 0) {
  std::set<int64_t> touched;
  for (const int64_t b : warp_reads(p, v, 0, s)) touched.insert(b / 32);
  return static_cast<int64_t>(touched.size());
}

}  // namespace

TEST_CASE("each kernel reads every input of every output once, in any layout") {
  const Tensor m = small_integers({40, 30}, 1);
  check_all_dims(m, "contiguous");
  check_all_dims(m.t(), "transposed");
  check_all_dims(m.slice(1, 0, 30, 3), "every third column");
  check_all_dims(small_integers({3, 4, 5}, 2).permute({2, 0, 1}), "permuted cube");
  check_all_dims(small_integers({5, 1}, 3).expand({5, 70}), "expanded");
  check_all_dims(small_integers({33, 1}, 4), "a dim of size 1");
  check_all_dims(small_integers({}, 5), "0-d");
  check_all_dims(small_integers({2, 3, 300}, 6), "longer rows than a block has threads");
}

TEST_CASE("the plan walks the input in place: no packing, its strides and offset as given") {
  const Tensor base = small_integers({6, 8}, 7);
  const Tensor x = base.slice(0, 1, 6, 2).t();  // sizes (8, 3), strides (1, 16), offset 8
  const PlannedReduction p = plan_of(x, 1);
  CHECK(p.plan.in == static_cast<const char*>(base.data_ptr()) + 8 * 4);
  CHECK(p.plan.reduced == 3);
  CHECK(p.plan.reduced_step == 16 * 4);
  CHECK(p.plan.outputs == 8);
  // An output with a storage offset (a view into a larger tensor) is written where it lies.
  Tensor big = zeros({10});
  Tensor out = big.slice(0, 2, 10);
  const ReducePlan into = reduce_plan(make_reduction("cuda::sum", x, 1, {out}), "cuda::sum");
  run_on_host(into, ReduceKernel::ColumnSplit);
  CHECK(out.to_vector() == strided::sum(x, 1).to_vector());
  CHECK(big.narrow(0, 0, 2).to_vector() == std::vector<double>{0, 0});
}

TEST_CASE("Auto: a block per row for a unit-stride reduced run, columns split otherwise") {
  const Tensor x = zeros({64, 48});
  CHECK(auto_version(plan_of(x, 1).plan, 4) == ReduceKernel::BlockPerRow);
  CHECK(auto_version(plan_of(x, 0).plan, 4) == ReduceKernel::ColumnSplit);
  // The transpose reduced along its dim 1 walks x's rows: unit stride again.
  CHECK(auto_version(plan_of(x.t(), 0).plan, 4) == ReduceKernel::BlockPerRow);
  CHECK(auto_version(plan_of(x.t(), 1).plan, 4) == ReduceKernel::ColumnSplit);
}

TEST_CASE("the sectors a warp's reads span: PF-13's mappings over the kernels' own plan") {
  const Tensor x = zeros({1024, 1024});
  const ReducePlan rows = plan_of(x, 1).plan, cols = plan_of(x, 0).plan;
  for (int64_t s : {0, 1, 3}) {
    CHECK(warp_reads(rows, ReduceKernel::BlockPerRow, 0, s).size() == 32);
    CHECK(sectors(rows, ReduceKernel::BlockPerRow, s) == 4);
    CHECK(sectors(cols, ReduceKernel::ColumnSplit, s) == 4);
    CHECK(sectors(rows, ReduceKernel::ThreadPerOutput, s) == 32);  // ER-11
    CHECK(sectors(cols, ReduceKernel::ThreadPerOutput, s) == 4);
  }
  // One strip per kSplitColumns outputs, the last one partial.
  CHECK(column_split_strips(1) == 1);
  CHECK(column_split_strips(kSplitColumns) == 1);
  CHECK(column_split_strips(kSplitColumns + 1) == 2);
  // ColumnSplit's warp 1 at step 2: rows 2·128 + 4 to 2·128 + 7, columns 0 to 7, x first.
  std::vector<int64_t> block;
  for (int64_t row = 260; row < 264; ++row)
    for (int64_t col = 0; col < 8; ++col) block.push_back((row * 1024 + col) * 4);
  CHECK(warp_reads(cols, ReduceKernel::ColumnSplit, 1, 2) == block);
  // A transposed input reduced along its strided dim: adjacent outputs are adjacent in memory.
  const ReducePlan t = plan_of(x.t(), 1).plan;
  CHECK(auto_version(t, 4) == ReduceKernel::ColumnSplit);
  CHECK(sectors(t, ReduceKernel::ColumnSplit) == 4);
  // Past the end of a row, a lane reads nothing.
  const ReducePlan short_rows = plan_of(zeros({64, 40}), 1).plan;
  CHECK(warp_reads(short_rows, ReduceKernel::BlockPerRow, 0, 0).size() == 32);
  CHECK(warp_reads(short_rows, ReduceKernel::BlockPerRow, 0, 1).empty());
  CHECK(warp_reads(short_rows, ReduceKernel::BlockPerRow, 1, 0).size() == 8);  // lanes 32..39
  const std::string no_warp = "block 0 has no warp " + std::to_string(kSplitWarps);
  CHECK_THROWS_WITH_AS(warp_reads(short_rows, ReduceKernel::ColumnSplit, kSplitWarps, 0),
                       doctest::Contains(no_warp.c_str()), Error);
  CHECK_THROWS_WITH_AS(warp_reads(short_rows, ReduceKernel::Auto, 0, 0),
                       "warp_reads: name the kernel: Auto is chosen per plan", Error);
}
