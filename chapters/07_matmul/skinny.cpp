// Chapter 7, section "BLAS and the four layouts", continued: a skinny operand and its transpose.
// A linear layer multiplies a batch by the transpose of a 64×8192 weight, x @ w.mT. The claims say
// which operands BLAS takes as stored and which it copies (MM-06.plan, from the library's own
// plan, matmul_cost), what that costs on this CPU (MM-06.skinny, two ratios of one run) and
// on a GPU (MM-07.skinny, run only where a CUDA device is).
#include <cstdint>
#include <string>

#include "07_matmul/matmul.h"
#include "book/book.h"
#include "strided/engine/matmul.h"
#include "strided/strided.h"

#if __has_include("strided/cuda/cuda.h")
#include "strided/cuda/cuda.h"
#define MM_SKINNY_CUDA 1
#else
#define MM_SKINNY_CUDA 0
#endif

using namespace strided;
using book::OneThread;
using matmul_chapter::pytorch;

namespace {
// The skinny shapes: a weight of 64 outputs by 8192 inputs, and a batch of 64 rows, as skinny.
constexpr int64_t kOut = 64, kIn = 8192, kBatch = 64;
}  // namespace

void matmul_chapter::skinny(book::Chapter& ch) {
  ch.claim("MM-06.plan",
           "x @ w.mT for a 64×8192 weight w and a 64×8192 batch x copies nothing: w.mT has "
           "strides (1, 8192) and goes to BLAS with the transpose flag and ld 8192, and matmul "
           "allocates only the 64×64 result. Every second row of w, w[::2].mT, goes too, with ld "
           "16384; every second column, w[:, ::2].mT, has no unit stride, and matmul copies its "
           "64·4096 = 262,144 elements first.",
           [](book::Check& c) {
             Generator gen(14);
             //! [skinny]
             Tensor w = rand({64, 8192}, gen);   // a weight: 64 outputs, 8192 inputs
             Tensor x = rand({64, 8192}, gen);   // a batch of 64 inputs
             Tensor y = matmul(x, w.mT());       // (64, 64)
             BlasOperand flag = blas_operand(w.mT());  // transpose flag, ld 8192
             MatmulCost plan = matmul_cost(x, w.mT());  // what matmul allocates and copies
             //! [skinny]
             c.equal("w.mT: strides", w.mT().strides(), Shape{1, kIn}, "skinny_wt_strides");
             c.equal("w.mT: transpose flag", flag.transpose, true);
             c.equal("w.mT: ld", flag.ld, kIn, "skinny_ld");
             c.equal("w.mT: copied", flag.copy, false);
             c.equal("x @ w.mT: tensors allocated", plan.allocations, int64_t{1});
             c.equal("x @ w.mT: elements allocated (the result)", plan.allocated, kBatch * kOut,
                     "skinny_result_elements");
             c.equal("x @ w.mT: elements copied", plan.written, int64_t{0});
             c.equal("x @ w.mT: 2-D products", plan.products, int64_t{1});
             c.equal("x @ w.mT: shape", y.sizes(), Shape{kBatch, kOut});
             // Every second row of w: still one unit stride, its run twice as far apart.
             const Tensor rows = w.slice(0, 0, kOut, 2).mT();
             const BlasOperand r = blas_operand(rows);
             c.equal("w[::2].mT: copied", r.copy, false);
             c.equal("w[::2].mT: ld", r.ld, 2 * kIn, "skinny_rows_ld");
             c.equal("x @ w[::2].mT: elements copied", matmul_cost(x, rows).written, int64_t{0});
             // Every second column of w: strides (2, 8192), neither of them 1.
             Generator gen2(15);
             const Tensor x2 = rand({kBatch, kIn / 2}, gen2);
             const Tensor cols = w.slice(1, 0, kIn, 2).mT();
             const MatmulCost copied = matmul_cost(x2, cols);
             c.equal("w[:, ::2].mT: copied", blas_operand(cols).copy, true);
             c.equal("x2 @ w[:, ::2].mT: tensors allocated", copied.allocations, int64_t{2});
             c.equal("x2 @ w[:, ::2].mT: elements copied", copied.written, kOut * (kIn / 2),
                     "skinny_cols_copied");
             const Tensor y2 = matmul(x2, cols);
             c.that("the copy does not change the product",
                    book::allclose(y2, matmul(x2, cols.contiguous())));
             // PyTorch's side: the operands' strides and the result's layout.
             pytorch().compare(c, "skinny", "w.mT", w.mT(), {&w});
             pytorch().compare(c, "skinny", "x @ w.mT", y);
             pytorch().compare(c, "skinny", "w[::2].mT", rows, {&w});
             pytorch().compare(c, "skinny", "w[:, ::2].mT", cols, {&w});
             pytorch().compare(c, "skinny", "x2 @ w[:, ::2].mT", y2);
             c.value("skinny_cols_strides", cols.strides());
           })
      .model();

  ch.claim("MM-06.skinny",
           "On one CPU thread, x @ w.mT (64×8192 by the transpose of a 64×8192 w, a transpose "
           "flag) takes about as long as the same product with w stored transposed (within "
           "[0.67, 1.5]); copying w.mT to contiguous on every call takes longer, at least 1.15 "
           "times as long.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             Generator gen(16);
             const Tensor w = rand({kOut, kIn}, gen);
             const Tensor x = rand({kBatch, kIn}, gen);
             const Tensor wc = w.mT().contiguous();  // (8192, 64), row-major: the same values
             OneThread one;
             book::timed_ratio(c, "x @ w.mT / x @ w.mT.contiguous() made once", "skinny_flag",
                               [&] { (void)matmul(x, wc); }, [&] { (void)matmul(x, w.mT()); },
                               book::about_as_fast());
             book::timed_ratio(c, "x @ w.mT.contiguous() / x @ w.mT", "skinny_copy",
                               [&] { (void)matmul(x, w.mT()); },
                               [&] { (void)matmul(x, w.mT().contiguous()); }, book::slower());
           })
      .timing();

  ch.claim("MM-07.skinny",
           "On the GPU, x @ w.mT (64×8192 by the transpose of a 64×8192 w) is one cuBLAS call "
           "with no copy, and takes about as long as the same product with w stored transposed "
           "(within [0.67, 1.5]).",
           [](book::Check& c) {
#if MM_SKINNY_CUDA
             Generator gen(17);
             const Tensor w_host = rand({kOut, kIn}, gen);
             const Tensor x = cuda::to_cuda(rand({kBatch, kIn}, gen));
             const Tensor wt = cuda::to_cuda(w_host).mT();
             const Tensor wc = cuda::to_cuda(w_host.mT().contiguous());
             Tensor out = cuda::matmul(x, wc);
             cuda::EventClock gpu;
             const auto product = [&gpu, &out, &x](const Tensor& b) {
               return gpu.timed([&out, &x, &b] { cuda::matmul_out(out, x, b); }, 3);
             };
             const int64_t before = Storage::allocation_count();
             book::timed_ratio(c, "x @ w.mT / x @ w.mT.contiguous() made once", "gpu_skinny",
                               product(wc), product(wt), book::about_as_fast(), 1, gpu.reader());
             c.equal("allocations while timing", Storage::allocation_count() - before, int64_t{0});
#else
             c.not_run(book::gpu().reason);
#endif
           })
      .needs_gpu();
}
