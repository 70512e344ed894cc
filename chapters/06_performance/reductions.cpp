// Chapter 6, section "Reductions": what a reduction's walk asks of a cache (PF-11), the plan of a
// sum and what its order costs (PF-12), and the thread mappings of a GPU's reductions (PF-13.sectors,
// PF-13), with the errata ER-03 and ER-11.
#include <cmath>
#include <string>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
#include "strided/engine/dispatch.h"
#include "strided/engine/iterator.h"
#include "strided/models/models.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
#include "strided/engine/reduce.h"
#include "strided/strided.h"

using namespace strided;
using namespace strided::models;
using indexing::Slice;
using book::fixed;
using performance::pytorch;
using book::OneThread;
using book::quote_notebook;
using book::Timed;
using book::timed_ratio;

namespace {

//! [reduce_plan]
// sum over dim d of a matrix, by the plan of a reduction: the output is viewed over the input's
// shape with stride 0 on d (PyTorch's review_reduce_result), and the plan puts d innermost, so
// each output's inputs are walked one after another. With logical_order the dims keep their own
// order instead: for d = 0, a row at a time, added into the whole output row.
struct SumPlan {
  Tensor out;
  TensorIterator plan;
  SumPlan(const Tensor& x, int64_t d, bool logical_order = false)
      : out(zeros({x.size(1 - d)})),
        plan(TensorIteratorConfig()
                 .add_output(out.as_strided(x.sizes(), d == 0 ? Shape{0, 1} : Shape{1, 0}))
                 .add_input(x)
                 .resize_outputs(false)
                 .is_reduction(true)
                 .set_check_mem_overlap(false)  // the stride-0 output is written many times
                 .enforce_linear_iteration(logical_order)
                 .build()) {}
  void run() const {
    plan.serial_for_each(
        [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          // strides[0], strides[1]: output and input steps along plan dim 0; [2], [3] along dim 1.
          auto in = [&](int64_t i, int64_t j) {
            return *reinterpret_cast<const float*>(data[1] + i * strides[1] + j * strides[3]);
          };
          for (int64_t j = 0; j < size1; ++j) {
            auto* out = reinterpret_cast<float*>(data[0] + j * strides[2]);
            if (strides[0] == 0) {
              // The inner loop reduces into one output: sixteen partial sums, so that additions
              // need not wait for each other (ATen's inner reductions also keep several).
              float part[16] = {};
              int64_t i = 0;
              for (; i + 16 <= size0; i += 16)
                for (int k = 0; k < 16; ++k) part[k] += in(i + k, j);
              float sum = *out;
              for (; i < size0; ++i) sum += in(i, j);
              for (float p : part) sum += p;
              *out = sum;
            } else {
              for (int64_t i = 0; i < size0; ++i)
                *reinterpret_cast<float*>(data[0] + i * strides[0] + j * strides[2]) += in(i, j);
            }
          }
        },
        0, plan.numel());
  }
};
//! [reduce_plan]

//! [warp_view]
// The warp requests of a GPU kernel: at each step, 32 lanes read 32 elements. Put the step in the
// outer dim and the lanes in the inner ones, and the requests are the logical trace of that view,
// 32 elements at a time.
SectorCount sectors_per_request(const Tensor& steps_by_lanes) {
  return warp_sectors(logical_trace(steps_by_lanes));
}
//! [warp_view]

#if PF_HAVE_CUDA_API
// The addresses a CUDA reduction kernel reads, from the plan the CUDA op launches for x reduced
// along dim (kernels/strided/cuda/reduce_plan.h) and the kernel's own thread mapping: block 0's
// first `warps` warps, step by step, each step's requests in warp order.
std::vector<int64_t> kernel_reads(const Tensor& x, int64_t dim, cuda::ReduceKernel v, int warps,
                                  int64_t steps) {
  Shape kept = x.sizes();
  kept.erase(kept.begin() + dim);
  const cuda::ReducePlan plan =
      cuda::reduce_plan(make_reduction("cuda::amax", x, dim, {zeros(kept)}), "cuda::amax");
  std::vector<int64_t> bytes;
  for (int64_t s = 0; s < steps; ++s)
    for (int w = 0; w < warps; ++w)
      for (const int64_t b : cuda::warp_reads(plan, v, w, s)) bytes.push_back(b);
  return bytes;
}
#endif

}  // namespace

void performance::reductions(book::Chapter& ch) {
  // ---- Reductions --------------------------------------------------------------------------------------------
  ch.section("reductions", "Reductions");

  ch.claim("PF-11",
           "Walking a 1024×1024 float32 matrix row by row misses 65,536 lines in any LRU cache; "
           "column by column it misses 1,048,576 times in 32 KiB but 65,536 times in 128 KiB.",
           [](book::Check& c) {
             //! [lru]
             Tensor m = zeros({1024, 1024});
             Trace rows = logical_trace(m);      // m[0][0], m[0][1], ...
             Trace columns = logical_trace(m.t());  // m[0][0], m[1][0], ...
             const int64_t small_cache = 32 * 1024, large_cache = 128 * 1024;  // bytes
             int64_t row_misses = lru_misses(rows, small_cache);
             int64_t small = lru_misses(columns, small_cache);
             int64_t large = lru_misses(columns, large_cache);
             //! [lru]
             c.equal("row walk, 32 KiB", row_misses, int64_t{65536});
             c.equal("column walk, 32 KiB", small, int64_t{1048576});
             c.equal("column walk, 128 KiB", large, int64_t{65536});
             pytorch().compare(c, "lru", "m.t()", m.t(), {&m});
             pytorch().compare_value(c, "lru", "row_misses", row_misses);
             pytorch().compare_value(c, "lru", "small", small);
             pytorch().compare_value(c, "lru", "large", large);
             c.value("lru_rows", row_misses);
             c.value("lru_cols_small", small);
             c.value("lru_cols_large", large);
             // The lines one column touches: each of its elements is in a line of its own.
             const int64_t column_lines = distinct_lines(logical_trace(m.t().select(0, 0)));
             c.equal("lines of one column", column_lines, m.size(0));
             c.value("lru_column_lines", column_lines);
             c.value("lru_column_kib", column_lines * 64 / 1024);
             c.value("lru_small_kib", small_cache / 1024);
             c.value("lru_large_kib", large_cache / 1024);
           }).model();

  ch.erratum("ER-03.reductions",
             "The questions on reductions and on binary ops ask the reader to take into account "
             "\"the semantics of unary operations\" (nikitaved, PyTorch for Scientists!).",
             "Each section means its own operation: a reduction over dim d drops d and combines "
             "size[d] inputs into each output; a binary op reads two operands per output. Only "
             "a unary op maps one input element to one output element.",
             [](book::Check& c) {
               Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
               SumPlan rows(x, 1), cols(x, 0);
               rows.run();
               cols.run();
               c.equal("sum over dim 1: shape", rows.out.sizes(), Shape{2});
               c.equal("sum over dim 1: values", rows.out.to_vector(), std::vector<double>{6, 15});
               c.equal("sum over dim 0: values", cols.out.to_vector(), std::vector<double>{5, 7, 9});
               c.equal("inputs per output, dim 1 (the plan's inner loop)", rows.plan.shape()[0],
                       int64_t{3});
               c.equal("a unary op keeps the shape", (-x).sizes(), Shape{2, 3});
               c.value("er03_rows", rows.out.to_vector());
               c.value("er03_cols", cols.out.to_vector());
             });

  ch.claim("PF-12",
           "Summing a 1024×1024 float32 matrix over dim −2 one output at a time, a stride-1024 "
           "column walk, takes at least 1.5 times as long as summing over dim −1; accumulating "
           "whole rows into the output instead, the same sum over dim −2 is at least 1.5 times faster "
           "than the column walk. The engine's max(x, dim), the seed's op, reads memory in order "
           "for both dims, and with 16-byte vectors max(x, −2) still costs at least 1.5 times "
           "max(x, −1); with the run's own, wider kernels the gap is no larger.",
           [](book::Check& c) {
             const int64_t n = 1024;  // the seed's In[15] size
             Generator gen(12);
             Tensor x = rand({n, n}, gen);
             {
               // PyTorch's answers for the same expressions, before any timing (a sanitizer build
               // times nothing but still compares them).
               SumPlan first(x, 0), row_outer(x, 0, true);
               first.run();
               row_outer.run();
               pytorch().compare_value(c, "reduce_timing", "x.sum(1).shape", sum(x, 1).sizes());
               pytorch().compare_value(c, "reduce_timing", "torch.allclose(first(), row_outer())",
                                       book::allclose(first.out, row_outer.out));
               pytorch().compare_value(c, "engine_max", "max_first().shape",
                                       max(x, -2).values.sizes());
             }
             if (book::skip_timing(c)) return;
             OneThread one;
             //! [reduce_timing]
             SumPlan last(x, 1);                 // dim -1: each row walked with unit stride
             SumPlan first(x, 0);                // dim -2: each column walked with stride n
             SumPlan row_outer(x, 0, true);      // dim -2: rows outer, the output row inner
             //! [reduce_timing]
             c.equal("dim -2: plan order, inner loop's input step (bytes)",
                     first.plan.operand(1).stride_bytes[0], 4 * n);
             c.equal("dim -2: rows outer, inner loop's input step (bytes)",
                     row_outer.plan.operand(1).stride_bytes[0], int64_t{4});
             // The three compute the same sums (the rounding order differs, hence near).
             first.run();
             row_outer.run();
             double largest = 0;
             const std::vector<double> a = first.out.to_vector(), b = row_outer.out.to_vector();
             for (size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
             c.near("largest difference between the two dim -2 sums", largest, 0.0, 1e-2);
             // Four sums per measurement: one takes well under a millisecond, too short to time
             // alone on a shared machine.
             auto run = [](const SumPlan& p) { return [&p] { p.run(); }; };
             std::vector<Timed> rows;
             rows.push_back(timed_ratio(c, "dim −2 column walk / dim −1", "sum_cols", run(last),
                                  run(first), book::much_slower(), 4));
             // The same sum over dim -2 in the other order: the column walk against rows outer.
             rows.push_back(timed_ratio(c, "dim −2 column walk / dim −2 rows outer", "sum_rowouter",
                                  run(row_outer), run(first), book::much_slower(), 4));
             //! [engine_max]
             ReducePath along_rows = reduce_path(x, -1);    // each row in vectors
             ReducePath down_columns = reduce_path(x, -2);  // whole rows combined in vectors
             auto max_last = [&] { max(x, -1); };
             auto max_first = [&] { max(x, -2); };
             //! [engine_max]
             c.equal("engine's path for dim -1", std::string(to_string(along_rows)),
                     std::string("inner"));
             c.equal("engine's path for dim -2", std::string(to_string(down_columns)),
                     std::string("outer"));
             c.equal("max(x, -2) is the column maximum",
                     max(x, -2).values.to_vector() == max(x.t().contiguous(), -1).values.to_vector(),
                     true);
             // The gap is in the loops' instructions, so it depends on the vectors the kernels use
             // (dispatch.h): measured with the baseline's 16-byte vectors, and again with the
             // kernels the run chose (the widest the CPU has, unless STRIDED_CPU_CAPABILITY asks
             // for fewer), which may not widen it.
             {
               book::CpuKernelsScope narrow(CpuCapability::Default);
               rows.push_back(timed_ratio(c, "engine max(x, −2) / max(x, −1), 16-byte vectors",
                                          "max_engine", max_last, max_first, book::much_slower(), 4));
             }
             const CpuCapability widest = cpu_capability();  // the run's kernels (dispatch.h)
             c.value("max_widest_kernels", std::string(to_string(widest)));
             if (widest != CpuCapability::Default && rows[2].ratio > 0) {
               book::CpuKernelsScope wide(widest);
               Timed w = timed_ratio(c, "engine max(x, −2) / max(x, −1), the run's kernels",
                                     "max_engine_wide", max_last, max_first,
                                     book::band(0, rows[2].ratio), 4);
               rows.push_back(w);
               // What the run's kernels say of the seed's rule of thumb, in the page's words.
               c.value("max_wide_verdict",
                       w.ratio < book::much_slower().at_least
                           ? std::string("so the rule holds only for the forced 16-byte kernels")
                           : std::string("so the rule holds for these kernels too"));
             } else {
               c.value("max_engine_wide_ratio", std::string("not measured (no wider kernels ran)"));
               c.value("max_wide_verdict", std::string("no wider kernels ran to ask"));
             }
             // The seed timed max, not sum: its ratio stands beside the engine's max alone.
             rows[2].seed_ratio =
                 quote_notebook(c, "", "the seed's x.max(-2) on its CPU", "In[15]", 1).us() /
                 quote_notebook(c, "", "the seed's x.max(-1) on its CPU", "In[15]", 0).us();
             // The model of the sums: misses of the timed plans' input reads in the 32 KiB LRU
             // cache of PF-11. The max paths read every line once, in memory order, both of them:
             // the model has nothing to say about their gap, and the chart shows no model bar.
             auto misses = [](const SumPlan& p) {
               return double(lru_misses(plan_trace(p.plan, 1), 32 * 1024));
             };
             rows[0].model_ratio = misses(first) / misses(last);
             rows[1].model_ratio = misses(first) / misses(row_outer);
             c.value("sum_cols_model", fixed(rows[0].model_ratio, 0));
             c.value("sum_rowouter_model", fixed(rows[1].model_ratio, 0));
             c.value("max_path_last", std::string(to_string(along_rows)));
             c.value("max_path_first", std::string(to_string(down_columns)));
             c.value("sum_n", n);
             c.value("sum_rowouter_ms", fixed(rows[1].a_ms, 3));
             c.value("sum_last_ms", fixed(rows[0].a_ms, 3));
             // Short names for the chart's axis.
             rows[0].label = "sum: column / dim −1";
             rows[1].label = "sum: column / rows outer";
             rows[2].label = "max: −2 / −1, 16-byte";
             if (rows.size() > 3) rows[3].label = std::string("max: −2 / −1, ") + to_string(widest);
             ratio_figure(c, "sum_ratios", rows,
                          "A 1024×1024 matrix: the column walk's time relative to the sum over dim "
                          "−1 and to dim −2 rows outer, and the engine's max over dim −2 relative "
                          "to dim −1; in this run, in the seed notebook (max, dim −2 against dim "
                          "−1), and in the LRU model of PF-11 (32 KiB).");
           }).timing();

  ch.claim("PF-13.sectors",
           "On a GPU the thread mapping decides: reducing dim −1 with a warp cooperating along a "
           "row, or dim −2 with lanes over adjacent columns, costs 4 sectors per request; one "
           "thread per row for dim −1 costs 32.",
           [](book::Check& c) {
             Tensor x = zeros({1024, 1024});
             //! [mappings]
             // The kernels' mappings (kernels/strided/cuda/reduce.h), as steps × lanes views:
             // a warp cooperating along row 0 (BlockPerRow, dim -1): at step i, lane l reads
             // x[0, 32 i + l];
             SectorCount cooperative = sectors_per_request(x.select(0, 0).view({-1, 32}));
             // lanes over 8 adjacent columns of 4 rows (ColumnSplit, dim -2): in request i,
             // lane l reads x[4 i + l / 8, l % 8];
             SectorCount per_column = sectors_per_request(x.slice(1, 0, 8).view({-1, 4, 8}));
             // one thread per row (ThreadPerOutput, dim -1): at step j, lane l reads x[l, j].
             SectorCount per_row = sectors_per_request(x.slice(0, 0, 32).t());
             //! [mappings]
             c.equal("cooperative along a row", cooperative.per_request(), 4.0);
             c.equal("lanes over adjacent columns", per_column.per_request(), 4.0);
             c.equal("thread per row", per_row.per_request(), 32.0);
             pytorch().compare_value(c, "mappings", "max(cooperative)", cooperative.max_per_request);
             pytorch().compare_value(c, "mappings", "max(per_column)", per_column.max_per_request);
             pytorch().compare_value(c, "mappings", "min(per_row)",
                                     book::fewest_per_request(x.slice(0, 0, 32).t()));
#if PF_HAVE_CUDA_API
             // The views are the kernels' walks: the plan the CUDA op launches, read through the
             // kernels' own mappings, gives the same addresses request by request.
             using cuda::ReduceKernel;
             c.that("BlockPerRow reads the cooperative view",
                    kernel_reads(x, 1, ReduceKernel::BlockPerRow, 8, 4) ==
                        logical_trace(x.select(0, 0).view({-1, 32})).bytes);
             c.that("ColumnSplit reads the adjacent-columns view",
                    kernel_reads(x, 0, ReduceKernel::ColumnSplit, cuda::kSplitWarps,
                                 1024 / cuda::kSplitRows) ==
                        logical_trace(x.slice(1, 0, 8).view({-1, 4, 8})).bytes);
             c.that("ThreadPerOutput reads the thread-per-row view",
                    kernel_reads(x, 1, ReduceKernel::ThreadPerOutput, 1, 1024) ==
                        logical_trace(x.slice(0, 0, 32).t()).bytes);
             // The ColumnSplit kernel's strips (reduce_plan.h), for the text on its launch.
             c.value("split_columns", int64_t{cuda::kSplitColumns});
             c.value("split_rows", int64_t{cuda::kSplitRows});
             c.value("split_warp_rows", int64_t{cuda::kSplitWarpRows});
             c.value("split_width", x.size(1));
             c.value("split_blocks", cuda::column_split_strips(x.size(1)));
#endif
             c.value("map_coop", fixed(cooperative.per_request(), 0));
             c.value("map_column", fixed(per_column.per_request(), 0));
             c.value("map_row", fixed(per_row.per_request(), 0));
           }).model();

  ch.erratum("ER-11",
             "For a reduction over dim d, stride[d] = 1 is the best layout (nikitaved, PyTorch for "
             "Scientists!).",
             "That is the rule for one thread walking its output's inputs, as a CPU does. A GPU "
             "spreads the kept dim over a warp's lanes, and then the unit-stride reduced dim is "
             "the uncoalesced one when each thread owns a row: 32 sectors per request against 4.",
             [](book::Check& c) {
               Tensor x = zeros({1024, 1024});
               c.equal("thread per output, reducing the unit-stride dim -1",
                       sectors_per_request(x.t()).per_request(), 32.0);
               c.equal("thread per output, reducing dim -2", sectors_per_request(x).per_request(),
                       4.0);
               const double cpu =
                   quote_notebook(c, "seed_max_first_us", "the seed's x.max(-2) on its CPU", "In[15]", 1).us() /
                   quote_notebook(c, "seed_max_last_us", "the seed's x.max(-1) on its CPU", "In[15]", 0).us();
               const double gpu =
                   quote_notebook(c, "seed_gpu_max_first_us", "the seed's x.max(-2) on its GPU", "In[15]", 3).us() /
                   quote_notebook(c, "seed_gpu_max_last_us", "the seed's x.max(-1) on its GPU", "In[15]", 2).us();
               c.value("seed_max_cpu_ratio", fixed(cpu, 1));
               c.value("seed_max_gpu_ratio", fixed(gpu, 2));
             });

  ch.claim("PF-13",
           "On a GPU, reducing dim −2 of a 1024×1024 matrix takes at most twice as long as "
           "reducing dim −1 when each is mapped to coalesced loads, and one thread per row for "
           "dim −1 is at least 1.5 times slower than the cooperative mapping.",
           [](book::Check& c) {
#if PF_HAVE_CUDA_API
             const int64_t n = 1024;  // the seed's In[15] size, in ctest and in full runs
             Generator gen(13);
             Tensor x = cuda::to_cuda(rand({n, n}, gen));
             Tensor rows = cuda::amax(x, -1), cols = cuda::amax(x, -2);
             // A reduction of 4 MiB takes microseconds: one measurement is 100 launches, timed
             // on a clock that reads CUDA events (book/timing.h's statistics, as on the CPU).
             cuda::EventClock gpu;
             const auto amax = [&gpu](Tensor& out, const Tensor& in, int64_t dim,
                                      cuda::ReduceKernel k) {
               return gpu.timed([&out, &in, dim, k] { cuda::amax_out(out, in, dim, k); }, 100);
             };
             const auto cooperative = amax(rows, x, -1, cuda::ReduceKernel::BlockPerRow);
             book::timed_ratio(c, "dim -2 / dim -1", "gpu_max_dims", cooperative,
                               amax(cols, x, -2, cuda::ReduceKernel::ColumnSplit), book::band(0, 2.0),
                               1, gpu.reader());
             book::timed_ratio(c, "thread per row / cooperative", "gpu_max_naive", cooperative,
                               amax(rows, x, -1, cuda::ReduceKernel::ThreadPerOutput),
                               book::much_slower(), 1, gpu.reader());
#else
             c.not_run(book::gpu().reason);
#endif
           }).needs_gpu();
}
