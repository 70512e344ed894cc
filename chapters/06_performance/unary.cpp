// Chapter 6, section "Unary ops": which layout a unary op's output takes, and what add(3) costs on
// a permuted cube, a stride-5 slice and a slice with holes, counted (PF-08.lines, PF-09.sectors,
// PF-10) and timed (PF-08 on the CPU, PF-09 on a GPU).
#include <cmath>
#include <string>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
#include "strided/engine/gather.h"
#include "strided/engine/iterator.h"
#include "strided/models/models.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
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
using book::walk_lines;

namespace {

//! [unary_timing]
// The walks of add(3) that PF-08 times over an n×n×n cube x: x itself, its
// permutation p, a stride-5 slice s, and p walked in its logical order. All four
// write into one output buffer, viewed in the layout each op chooses (x + 3 is
// contiguous, p + 3 has p's strides), so that the timings compare walks, not
// allocations or the memory pages behind them. The plans are built once.
struct AddWalks {
  int64_t n;
  Tensor x, p, s, out_x, out_p;
  TensorIterator contiguous, permuted, strided, logical;
  AddWalks(int64_t n, Generator& gen)
      : n(n),
        x(rand({n, n, n}, gen)),
        p(x.permute({2, 1, 0})),
        s(rand({n, n, n, 5}, gen).select(3, 0)),  // stride 5
        out_x(x + 3),
        out_p(out_x.permute({2, 1, 0})),
        contiguous(binary_plan(BinaryOp::Add, out_x, x, Scalar(3.0))),
        permuted(binary_plan(BinaryOp::Add, out_p, p, Scalar(3.0))),
        strided(binary_plan(BinaryOp::Add, out_x, s, Scalar(3.0))),
        logical(binary_plan(BinaryOp::Add, out_x, p, Scalar(3.0), /*logical_order=*/true)) {}
};
//! [unary_timing]

}  // namespace

void performance::unary(book::Chapter& ch) {
  // ---- Unary ops ----------------------------------------------------------------------------------------------
  ch.section("unary", "Unary ops: layouts at the same cost, and one that is not");

  ch.claim("PF-19",
           "A unary op's output keeps a dense input's permutation (permute(2,1,0) of 8×8×8 + 3 "
           "has strides (1,8,64)), and is dense in the input's dim order for a non-dense one "
           "(the stride-5 slice and the slice with holes give (64,8,1)).",
           [](book::Check& c) {
             Generator gen(19);
             //! [unary_out]
             Tensor x = rand({8, 8, 8}, gen);
             Tensor permuted = x.permute({2, 1, 0}) + 3;
             Tensor stride5 = rand({8, 8, 8, 5}, gen).select(3, 0) + 3;            // [..., 0]
             Tensor holes = rand({8, 8, 4, 8}, gen).select(2, 0) + 3;              // [..., 0, :]
             //! [unary_out]
             c.equal("permute(2,1,0) + 3", permuted.strides(), Shape{1, 8, 64});
             c.equal("stride-5 slice + 3", stride5.strides(), Shape{64, 8, 1});
             c.equal("slice with holes + 3", holes.strides(), Shape{64, 8, 1});
             pytorch().compare(c, "unary_out", "permuted", permuted);
             pytorch().compare(c, "unary_out", "stride5", stride5);
             pytorch().compare(c, "unary_out", "holes", holes);
             c.value("out_permuted", permuted.strides());
             c.value("out_stride5", stride5.strides());
             c.value("out_holes", holes.strides());
           });

  ch.claim("PF-08.lines",
           "Counting the lines that each 16 consecutive elements of add(3)'s walk read and write: "
           "the permuted input costs what the contiguous one does, 2; the stride-5 slice costs "
           "5 + 1 = 6, three times as many; a logical walk of the permuted input touches a new "
           "line at every read, 16 + 1 = 17.",
           [](book::Check& c) {
             Generator gen(8);
             const AddWalks w(32, gen);  // the walks PF-08 times, on a 32³ cube
             const double contiguous = walk_lines(w.contiguous), permuted = walk_lines(w.permuted),
                          strided = walk_lines(w.strided), logical = walk_lines(w.logical);
             c.equal("contiguous", contiguous, 2.0);
             c.equal("permuted", permuted, 2.0);
             c.equal("stride 5", strided, 6.0);
             c.equal("logical walk of the permuted input", logical, 17.0);
             c.value("model_add_stride5", fixed(strided / contiguous, 1));
             c.value("model_add_logical", fixed(logical / contiguous, 1));
           }).model();

  ch.claim("PF-08",
           "add(3) on a permuted cube costs about what it costs on a contiguous one; on the "
           "stride-5 slice it costs more; walking the permuted cube in logical order costs more "
           "still, the order the line model of PF-08.lines gives.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             OneThread one;
             Generator gen(8);
             const AddWalks w(book::sizes::cube(), gen);
             auto run = [](const TensorIterator& plan) {
               return [&plan] { run_binary(BinaryOp::Add, plan); };
             };
             c.equal("layout of p + 3", (w.p + 3).strides(), w.out_p.strides());
             // Which loops gather, by the rule the loops ask (gather.h): the slice's inner step
             // is under a line, the logical walk's is a plane of the cube.
             const IterOperand &slice = w.strided.operand(1), &walk = w.logical.operand(1);
             c.that("the stride-5 slice's loop gathers its input",
                    gathers_stride(slice.stride_bytes[0], slice.element_size()),
                    "inner step " + std::to_string(slice.stride_bytes[0]) + " bytes");
             c.that("the logical walk's loop goes element by element",
                    !gathers_stride(walk.stride_bytes[0], walk.element_size()),
                    "inner step " + std::to_string(walk.stride_bytes[0]) + " bytes");
             // Four calls make one measurement: one call over the ctest cube takes under a
             // millisecond, too short to time alone on a shared machine.
             std::vector<Timed> rows;
             rows.push_back(timed_ratio(c, "permuted / contiguous", "add_perm", run(w.contiguous),
                                  run(w.permuted), book::about_as_fast(), 4));
             rows.push_back(timed_ratio(c, "stride 5 / contiguous", "add_stride5", run(w.contiguous),
                                  run(w.strided), book::slower(), 4));
             rows.push_back(timed_ratio(c, "logical walk / contiguous", "add_logical", run(w.contiguous),
                                  run(w.logical), book::much_slower(), 4));
             // The model's ratios, of the same walks on a 32³ cube (PF-08.lines).
             const AddWalks small(32, gen);
             const double base = walk_lines(small.contiguous);
             rows[0].model_ratio = walk_lines(small.permuted) / base;
             rows[1].model_ratio = walk_lines(small.strided) / base;
             rows[2].model_ratio = walk_lines(small.logical) / base;
             c.that("the run orders the three walks as the line model does",
                    rows[0].ratio < rows[1].ratio && rows[1].ratio < rows[2].ratio,
                    fixed(rows[0].ratio) + " < " + fixed(rows[1].ratio) + " < " + fixed(rows[2].ratio));
             rows[0].seed_ratio = quote_notebook(c, "seed_add_perm_ms", "the seed's permuted add(3)", "In[13]", 1).ms() /
                                  quote_notebook(c, "seed_add_contig_ms", "the seed's contiguous add(3)", "In[13]", 0).ms();
             rows[1].seed_ratio = quote_notebook(c, "seed_add_stride5_ms", "the seed's stride-5 add(3)", "In[13]", 2).ms() /
                                  book::notebook_timing("In[13]", 0).ms();
             c.value("add_n", w.n);
             c.value("band_par_low", fixed(book::about_as_fast().at_least));
             c.value("band_par_high", fixed(book::about_as_fast().at_most));
             c.value("band_mod", fixed(book::slower().at_least));
             c.value("band_gap", fixed(book::much_slower().at_least));
             c.value("seed_add_perm_ratio", fixed(rows[0].seed_ratio));
             c.value("seed_add_stride5_ratio", fixed(rows[1].seed_ratio));
             c.value("add_threads", get_num_threads());
             c.value("add_contig_ms", fixed(rows[0].a_ms));
             c.value("add_stride5_vs_model", fixed(rows[1].ratio / rows[1].model_ratio, 1));
             c.value("add_logical_vs_model", fixed(rows[2].ratio / rows[2].model_ratio, 1));
             timing_table(c, "add_table", rows);
             ratio_figure(c, "add_ratios", rows,
                          "add(3): time relative to the contiguous input, in this run, in the "
                          "seed notebook, and in the line model.");
           }).timing();

  ch.claim("PF-09.sectors",
           "On a GPU, add(3) costs 8 sectors per warp request (read + write) for the contiguous "
           "and the permuted cube, 24 for the stride-5 slice and 8 for the slice with holes: "
           "ratios 1, 3.0 and 1.0, each within 3% of the ratio the seed measured (In[14]).",
           [](book::Check& c) {
             const int64_t n = 32;
             const double contiguous = book::unary_sectors(zeros({n, n, n}));
             const double permuted = book::unary_sectors(zeros({n, n, n}).permute({2, 1, 0}));
             const double strided = book::unary_sectors(zeros({n, n, n, 5}).select(3, 0));
             // The seed's "holes": rows of 512 floats, then a jump (rand(512,512,32,512)[..., 0, :]).
             const double holes = book::unary_sectors(zeros({4, 4, 32, 512}).select(2, 0));
             c.equal("contiguous", contiguous, 8.0);
             c.equal("permuted", permuted, 8.0);
             c.equal("stride 5", strided, 24.0);
             c.equal("holes", holes, 8.0);
             const double seed_contiguous =
                 quote_notebook(c, "seed_gpu_add_ms", "the seed's contiguous add(3) on its GPU", "In[14]", 0).ms();
             const double seed_permuted =
                 quote_notebook(c, "", "the seed's permuted add(3) on its GPU", "In[14]", 1).ms();
             const double seed_strided =
                 quote_notebook(c, "seed_gpu_add_stride5_ms", "the seed's stride-5 add(3) on its GPU", "In[14]", 2).ms() /
                 seed_contiguous;
             const double seed_holes =
                 quote_notebook(c, "", "the seed's add(3) with holes on its GPU", "In[14]", 3).ms() / seed_contiguous;
             c.that("model within 3% of the seed (permuted)",
                    std::abs(permuted / contiguous / (seed_permuted / seed_contiguous) - 1) <= 0.03,
                    fixed(permuted / contiguous, 2) + " against " + fixed(seed_permuted / seed_contiguous, 2));
             c.that("model within 3% of the seed (stride 5)",
                    std::abs(strided / contiguous / seed_strided - 1) <= 0.03,
                    fixed(strided / contiguous, 2) + " against " + fixed(seed_strided, 2));
             c.that("model within 3% of the seed (holes)",
                    std::abs(holes / contiguous / seed_holes - 1) <= 0.03,
                    fixed(holes / contiguous, 2) + " against " + fixed(seed_holes, 2));
             c.value("gpu_add_sectors", std::vector<double>{contiguous, permuted, strided, holes});
             c.value("seed_gpu_add_stride5", fixed(seed_strided));
             c.value("seed_gpu_add_holes", fixed(seed_holes));
           }).model();

  ch.claim("PF-10",
           "Holes between rows do not hurt when the rows are long and unit-stride: the seed's "
           "slice with holes touches numel/16 lines and 4 sectors per request, as a contiguous "
           "tensor does.",
           [](book::Check& c) {
             Tensor holes = zeros({4, 4, 32, 512}).select(2, 0);  // stride[-2] = 32·512
             Trace walk = stride_sorted_trace(holes);
             c.equal("contiguous", holes.is_contiguous(), false);
             c.equal("lines", distinct_lines(walk), holes.numel() / 16);
             c.equal("sectors per request", warp_sectors(walk).per_request(), 4.0);
             c.value("holes_stride", holes.stride(1));
             c.value("holes_sectors", fixed(warp_sectors(walk).per_request(), 0));
           }).model();

  ch.claim("PF-09",
           "On a GPU, add(3) takes about as long on the permuted cube as on the contiguous cube, "
           "at least 1.5 times as long on the stride-5 slice, and less time on the slice with "
           "holes than on the stride-5 slice.",
           [](book::Check& c) {
#if PF_HAVE_CUDA_API
             const int64_t n = book::sizes::cube();
             Generator gen(9);
             Tensor x = cuda::to_cuda(rand({n, n, n}, gen));
             Tensor p = x.permute({2, 1, 0});
             Tensor s = cuda::to_cuda(rand({n, n, n, 5}, gen)).select(3, 0);
             Tensor h = cuda::to_cuda(rand({n, n, 32, n}, gen)).select(2, 0);
             Tensor ox = cuda::add(x, 3.f), op = cuda::add(p, 3.f), os = cuda::add(s, 3.f),
                    oh = cuda::add(h, 3.f);
             // Timed as every timing claim is (book/timing.h), on a clock that reads CUDA events.
             cuda::EventClock gpu;
             const auto add3 = [&gpu](Tensor& out, const Tensor& in) {
               return gpu.timed([&out, &in] { cuda::add_out(out, in, 3.f); }, 3);
             };
             const auto contiguous = add3(ox, x);
             const double timed_contiguous_ms =
                 book::timed_ratio(c, "permuted / contiguous", "gpu_add_permuted", contiguous,
                                   add3(op, p), book::about_as_fast(), 1, gpu.reader())
                     .a_ms;
             book::timed_ratio(c, "stride 5 / contiguous", "gpu_add_stride5", contiguous,
                               add3(os, s), book::much_slower(), 1, gpu.reader());
             // The seed's GPU took the holes at the contiguous cube's time; an H200 does not, for
             // PyTorch's kernel as for this one, though the sectors are the same (PF-10): what the
             // holes cost is shown, and the claim judges only what the sectors predict, that they
             // cost less than the stride-5 slice's wasted sectors.
             const book::Timed holes =
                 book::timed_ratio(c, "stride 5 / holes", "gpu_add_holes", add3(oh, h), add3(os, s),
                                   book::slower(), 1, gpu.reader());
             c.record("holes / contiguous (not judged): ratio of the median times",
                      holes.a_ms / timed_contiguous_ms);
#else
             c.not_run(book::gpu().reason);
#endif
           }).needs_gpu();
}
