// Chapter 7, sections "Batched products and broadcasting", "Stride tricks" and "Benchmark notes":
// torch.matmul's batched shape rule (MM-09, MM-10, errata ER-36 and ER-37), a sliding window and a
// convolution as a matmul over a strided view (MM-10.window, MM-10.conv), and the recorded
// benchmark run, which the appendix section docs/checking.md#checking_matmul shows.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "07_matmul/matmul.h"
#include "book/book.h"
#include "strided/engine/matmul.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using book::fixed;
using book::OneThread;
using matmul_chapter::pytorch;

namespace {

// PyTorch's spelling of a random tensor of shape s, as the record keys it: torch.rand(2, 3).
std::string torch_rand(const Shape& s) {
  std::string out = "torch.rand(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

}  // namespace

void matmul_chapter::batched(book::Chapter& ch) {
  // ---- Batched matmul -------------------------------------------------------------------------------
  ch.section("batched", "Batched products and broadcasting");

  ch.claim("MM-09",
           "For operands of at least 2 dims the last two must be (n, k)·(k, m) and the leading "
           "dims broadcast: the result is the broadcast batch + (n, m). A 1-D operand gains a dim "
           "(prepended for the first, appended for the second) that is removed afterwards.",
           [](book::Check& c) {
             struct Case {
               Shape a, b, out;
             };
             // Each row: torch.matmul(torch.randn(a), torch.randn(b)).shape in PyTorch 1.13.
             const std::vector<Case> cases = {
                 {{3}, {3}, {}},
                 {{2, 3}, {3}, {2}},
                 {{3}, {3, 4}, {4}},
                 {{2, 3}, {3, 4}, {2, 4}},
                 {{3}, {5, 3, 4}, {5, 4}},
                 {{5, 2, 3}, {3}, {5, 2}},
                 {{5, 2, 3}, {3, 4}, {5, 2, 4}},
                 {{7, 1, 2, 3}, {5, 3, 4}, {7, 5, 2, 4}},
             };
             Generator gen(10);
             std::vector<std::vector<std::string>> rows;
             for (const Case& k : cases) {
               const Tensor r = matmul(rand(k.a, gen), rand(k.b, gen));
               c.equal("shape of " + book::show(k.a) + " @ " + book::show(k.b), r.sizes(), k.out);
               pytorch().compare_value(
                   c, "shapes",
                   "torch.matmul(" + torch_rand(k.a) + ", " + torch_rand(k.b) + ").shape",
                   r.sizes());
               rows.push_back({book::show(k.a), book::show(k.b), book::show(r.sizes())});
             }
             c.throws("inner dims differ", [&] { (void)matmul(rand({5, 2, 3}, gen), rand({5, 4, 4}, gen)); },
                      "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but "
                      "got: [5, 4].");
             c.throws("batch dims do not broadcast",
                      [&] { (void)matmul(rand({2, 2, 3}, gen), rand({3, 3, 4}, gen)); },
                      "The size of tensor a (2) must match the size of tensor b (3) at "
                      "non-singleton dimension 0");
             c.throws("a 0-d operand", [&] { (void)matmul(scalar_tensor(Scalar(1.0)), rand({3}, gen)); },
                      "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
             pytorch().compare_error(
                 c, "shapes", "torch.matmul(torch.rand(5, 2, 3), torch.rand(5, 4, 4))",
                 [&] { (void)matmul(rand({5, 2, 3}, gen), rand({5, 4, 4}, gen)); });
             pytorch().compare_error(
                 c, "shapes", "torch.matmul(torch.rand(2, 2, 3), torch.rand(3, 3, 4))",
                 [&] { (void)matmul(rand({2, 2, 3}, gen), rand({3, 3, 4}, gen)); });
             pytorch().compare_error(
                 c, "shapes", "torch.matmul(torch.tensor(1.), torch.rand(3))",
                 [&] { (void)matmul(scalar_tensor(Scalar(1.0)), rand({3}, gen)); });
             rows.push_back({"(5, 2, 3)", "(5, 4, 4)", "error: inner dims 3 and 4"});
             rows.push_back({"(2, 2, 3)", "(3, 3, 4)", "error: batch dims 2 and 3"});
             c.table("shapes", {"a", "b", "a @ b"}, rows);
           });

  ch.claim("MM-09.fold",
           "A batch times a matrix is one 2-D product when the batch's matrices lie one after "
           "another: (5, 2, 3)·(3, 4) runs as (10, 3)·(3, 4), 1 product; with each matrix "
           "transposed in place, (5, 3, 2).mT, the rows do not fold, and it runs as 5 products. "
           "Both give the same values.",
           [](book::Check& c) {
             Generator gen(13);
             //! [fold]
             Tensor a = rand({5, 2, 3}, gen), b = rand({3, 4}, gen);
             Tensor at = a.mT().contiguous().mT();  // the same values, each matrix column-major
             MatmulCost folded = matmul_cost(a, b), apart = matmul_cost(at, b);
             //! [fold]
             c.equal("2-D products of a @ b, (5, 2, 3)·(3, 4)", folded.products, int64_t{1},
                     "fold_products");
             c.equal("2-D products of at @ b, at = (5, 3, 2).mT", apart.products, int64_t{5},
                     "apart_products");
             c.that("a @ b and at @ b agree", book::allclose(matmul(a, b), matmul(at, b)));
             c.equal("at's strides", at.strides(), Shape{6, 1, 2}, "fold_at_strides");
             pytorch().compare_value(c, "fold", "at.stride()", at.strides());
             pytorch().compare_value(c, "fold", "torch.allclose(a @ b, at @ b)",
                                     book::allclose(matmul(a, b), matmul(at, b)));
           });

  ch.erratum("ER-36",
             "The batched rule is stated for operands of at least 2 dims only (r-nn).",
             "A 1-D operand is promoted — (k) becomes (1, k) on the left, (k, 1) on the right — "
             "and the added dim is removed from the result: (3)·(3) gives a 0-d tensor, (2, 3)·(3) "
             "gives (2), (3)·(5, 3, 4) gives (5, 4).",
             [](book::Check& c) {
               Generator gen(11);
               //! [one_d]
               Tensor v = rand({3}, gen), m = rand({5, 3, 4}, gen);
               Tensor left = matmul(v, m);                             // (5, 4)
               Tensor promoted = matmul(v.unsqueeze(0), m).squeeze(-2);  // (5, 1, 4) → (5, 4)
               //! [one_d]
               c.equal("shape of (3)·(3)", matmul(v, v).sizes(), Shape{});
               pytorch().compare(c, "one_d", "torch.matmul(v, v)", matmul(v, v));
               pytorch().compare(c, "one_d", "torch.matmul(torch.rand(2, 3), v)",
                                 matmul(rand({2, 3}, gen), v));
               pytorch().compare(c, "one_d", "left", left);
               pytorch().compare(c, "one_d", "promoted", promoted);
               c.equal("shape of (2, 3)·(3)", matmul(rand({2, 3}, gen), v).sizes(), Shape{2});
               c.equal("shape of (3)·(5, 3, 4)", left.sizes(), Shape{5, 4});
               std::vector<double> x = left.to_vector(), y = promoted.to_vector();
               double worst = 0;
               for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
               c.near("largest difference from the promoted product", worst, 0.0, 1e-6);
               pytorch().compare_value(c, "one_d", "torch.allclose(left, promoted)",
                                       book::allclose(left, promoted));
             });

  ch.claim("MM-10",
           "a (3,4,1,2) @ b (1,2,3) gives (3,4,1,3) and equals looping c[i,j] = a[i,j] @ b[0]; "
           "the broadcast b reads as strides (0,0,3,1).",
           [](book::Check& c) {
             Generator gen(12);
             //! [worked]
             Tensor a = randn({3, 4, 1, 2}, gen), b = randn({1, 2, 3}, gen);
             Tensor batched = matmul(a, b);
             Tensor looped = zeros({3, 4, 1, 3});
             for (int64_t i = 0; i < 3; ++i)
               for (int64_t j = 0; j < 4; ++j)
                 looped.select(0, i).select(0, j).copy_(matmul(a.select(0, i).select(0, j),
                                                               b.select(0, 0)));
             //! [worked]
             c.equal("shape", batched.sizes(), Shape{3, 4, 1, 3});
             c.equal("bitwise equal to the loop (the same kernel computes both)",
                     std::memcmp(batched.data_ptr(), looped.data_ptr(),
                                 static_cast<size_t>(batched.nbytes())) == 0,
                     true);
             Tensor wide = b.expand({3, 4, 2, 3});
             c.equal("strides of b broadcast to the batch", wide.strides(), Shape{0, 0, 3, 1});
             pytorch().compare(c, "worked", "batched", batched);
             pytorch().compare(c, "worked", "b.expand(3, 4, 2, 3)", wide, {&b});
             c.value("broadcast_strides", wide.strides());
             c.figure("broadcast_b", storage_svg(wide, "b.expand(3, 4, 2, 3)"),
                      "Every one of the 12 batch entries reads b's 6 elements.");
           });

  ch.erratum("ER-37",
             "torch.equal(matmul(a, b), c) holds for the batched example, presented as always "
             "true (r-nn).",
             "Bitwise equality holds only when one kernel computes both sides in the same order; "
             "two correct kernels may round differently, so results from different kernels are "
             "compared with a tolerance.",
             [](book::Check& c) {
               Generator gen(13);
               Tensor a = rand({32, 1024}, gen), b = rand({1024, 32}, gen);
               Tensor blas = matmul_2d(a, b, MatmulKernel::Blas);
               Tensor naive = matmul_2d(a, b, MatmulKernel::Naive);
               const float* x = blas.data<float>();
               const float* y = naive.data<float>();
               int64_t same = 0;
               double worst = 0;
               for (int64_t i = 0; i < blas.numel(); ++i) {
                 same += std::memcmp(&x[i], &y[i], sizeof(float)) == 0;
                 worst = std::max(worst, std::abs(double(x[i]) - double(y[i])) / std::abs(double(y[i])));
               }
               c.that("BLAS and naive differ in some bits", same < blas.numel(),
                      std::to_string(same) + " of " + std::to_string(blas.numel()) +
                          " bitwise equal");
               c.that("largest relative difference <= 1e-5", worst <= 1e-5, fixed(worst * 1e6, 3) + "e-6");
               c.value("er37_same", same);
               c.value("er37_total", blas.numel());
               c.value("er37_worst", fixed(worst * 1e6, 2));
             });

  // ---- Stride tricks ---------------------------------------------------------------------------------
  // martinlwx's closing pointer (seed 001, §Wrap up): strides chosen so that several indices reach
  // one element give a sliding window without a copy, and a matmul over such a view computes a
  // convolution. The catalogue lists no claim for it; it is checked here as sub-claims of MM-10,
  // whose broadcast b is a view of the same kind: one that reads elements more than once, fed to
  // a matmul.
  ch.section("stride_tricks", "Stride tricks: a sliding window and a convolution as a matmul");

  ch.claim("MM-10.window",
           "A sliding window of 3 over arange(8), x.unfold(0, 3, 1), is a view of shape (6, 3), "
           "strides (1, 1) and offset 0 that allocates nothing, and x.as_strided((6, 3), (1, 1)) "
           "is the same view; its windows overlap (samples 2 to 5 are each in 3 of them), so it "
           "is not dense, and contiguous() copies 6·3 = 18 elements into a new storage. Windows "
           "that start 2 samples apart, x.unfold(0, 3, 2), have shape (3, 3) and strides (2, 1): "
           "the step is the stride of the window dim.",
           [](book::Check& c) {
             //! [window]
             Tensor x = arange(8);                     // a signal of n = 8 samples
             Tensor w = x.unfold(0, 3, 1);             // windows of k = 3, step 1
             Tensor s = x.as_strided({6, 3}, {1, 1});  // the same view, its strides written out
             Tensor dense = w.contiguous();            // a copy: every element of every window
             Tensor hops = x.unfold(0, 3, 2);          // windows that start 2 samples apart
             //! [window]
             c.equal("allocations of x.unfold(0, 3, 1) and x.as_strided((6, 3), (1, 1))",
                     book::allocations_during([&] {
                       (void)x.unfold(0, 3, 1);
                       (void)x.as_strided({6, 3}, {1, 1});
                     }),
                     int64_t{0});
             c.equal("shape of x.unfold(0, 3, 1)", w.sizes(), Shape{6, 3});
             c.equal("strides of x.unfold(0, 3, 1)", w.strides(), Shape{1, 1});
             c.equal("storage offset of x.unfold(0, 3, 1)", w.storage_offset(), int64_t{0});
             c.equal("x.unfold(0, 3, 1) shares x's storage", w.storage().is_same(x.storage()),
                     true);
             c.equal("x.as_strided((6, 3), (1, 1)): shape, strides, offset",
                     book::show(s.sizes()) + " " + book::show(s.strides()) + " " +
                         book::show(s.storage_offset()),
                     book::show(w.sizes()) + " " + book::show(w.strides()) + " " +
                         book::show(w.storage_offset()));
             c.equal("x.as_strided((6, 3), (1, 1)) shares x's storage",
                     s.storage().is_same(x.storage()), true);
             // How many windows read each sample: the overlap, counted from the layout.
             std::vector<int64_t> uses;
             for (const MemoryUse& u : memory_uses(w)) uses.push_back(u.uses);
             c.equal("windows reading each sample of x", uses,
                     std::vector<int64_t>{1, 2, 3, 3, 3, 3, 2, 1});
             c.equal("x.unfold(0, 3, 1) is dense", w.is_non_overlapping_and_dense(), false);
             c.equal("allocations of w.contiguous()",
                     book::allocations_during([&] { (void)w.contiguous(); }), int64_t{1});
             c.equal("elements w.contiguous() writes", dense.numel(), int64_t{6 * 3});
             c.equal("strides of the copy", dense.strides(), Shape{3, 1});
             c.equal("the copy shares x's storage", dense.storage().is_same(x.storage()), false);
             pytorch().compare(c, "window", "w", w, {&x});
             pytorch().compare(c, "window", "s", s, {&x});
             pytorch().compare(c, "window", "dense", dense, {&x});
             c.equal("shape of x.unfold(0, 3, 2)", hops.sizes(), Shape{3, 3});
             c.equal("strides of x.unfold(0, 3, 2)", hops.strides(), Shape{2, 1});
             pytorch().compare(c, "window", "hops", hops, {&x});
             c.value("hops_shape", hops.sizes());
             c.value("hops_strides", hops.strides());
             c.value("window_shape", w.sizes());
             c.value("window_strides", w.strides());
             c.value("window_offset", w.storage_offset());
             c.value("window_most_uses", *std::max_element(uses.begin(), uses.end()));
             c.value("window_copy", dense.numel());
             c.value("window_n", x.numel());
             PictureOptions no_links;
             no_links.links = false;  // 18 lines into 8 cells tangle; the badges say it
             c.figure("window", tensor_svg(w, "x.unfold(0, 3, 1)", no_links),
                      "The six windows of x.unfold(0, 3, 1) over the eight samples of x: each "
                      "row starts one sample after the one before, and a badge counts the windows "
                      "that read a sample.");
           });

  ch.claim("MM-10.conv",
           "The cross-correlation of a 5×6 image with a 3×3 kernel, as "
           "torch.nn.functional.conv2d computes it, is a matmul over a strided view: the "
           "windows as_strided((3, 4, 3, 3), (6, 1, 6, 1)) allocate nothing; their reshape to "
           "the (12, 9) patches matrix cannot be a view and copies, holding a pixel once per "
           "window that covers it (up to 9 times, 108 elements for 30 pixels); the patches "
           "times the flattened kernel give conv2d's (3, 4) output.",
           [](book::Check& c) {
             //! [conv_windows]
             const int64_t H = 5, W = 6, k = 3;
             Tensor image = arange(30, {DType::Float32}).view({H, W});
             Tensor kernel = from_values({1, 2, 0, 0, -1, 3, 1, 0, -2}, {k, k});
             // window (i, j) holds pixel (i + a, j + b), at storage index (i + a)·W + (j + b)
             Tensor windows = image.as_strided({H - k + 1, W - k + 1, k, k}, {W, 1, W, 1});
             //! [conv_windows]
             //! [conv_matmul]
             Tensor patches = windows.reshape({-1, k * k});  // (12, 9), a window a row: a copy
             Tensor out = matmul(patches, kernel.reshape({k * k})).view({H - k + 1, W - k + 1});
             //! [conv_matmul]
             c.equal("allocations of the windows",
                     book::allocations_during([&] {
                       (void)image.as_strided({H - k + 1, W - k + 1, k, k}, {W, 1, W, 1});
                     }),
                     int64_t{0});
             c.equal("shape of windows", windows.sizes(), Shape{3, 4, 3, 3});
             c.equal("strides of windows", windows.strides(), Shape{6, 1, 6, 1});
             c.equal("windows share image's storage", windows.storage().is_same(image.storage()),
                     true);
             const Tensor twice = image.unfold(0, k, 1).unfold(1, k, 1);
             c.equal("image.unfold(0, 3, 1).unfold(1, 3, 1): shape and strides",
                     book::show(twice.sizes()) + " " + book::show(twice.strides()),
                     book::show(windows.sizes()) + " " + book::show(windows.strides()));
             pytorch().compare(c, "conv_windows", "windows", windows, {&image});
             pytorch().compare(c, "conv_windows", "image.unfold(0, 3, 1).unfold(1, 3, 1)", twice,
                               {&image});
             pytorch().compare(c, "conv_windows", "windows[1, 2]",
                               windows.select(0, 1).select(0, 2), {&image});
             // The patches: view refuses (a window's pixels are three runs, W apart), reshape
             // copies, and the copy repeats each pixel once per window that covers it.
             pytorch().compare_error(c, "conv_matmul", "windows.view(-1, 9)",
                                     [&] { (void)windows.view({-1, k * k}); });
             c.equal("allocations of the reshape",
                     book::allocations_during([&] { (void)windows.reshape({-1, k * k}); }),
                     int64_t{1});
             c.equal("shape of patches", patches.sizes(), Shape{12, 9});
             c.equal("patches share image's storage", patches.storage().is_same(image.storage()),
                     false);
             std::vector<int64_t> uses;
             for (const MemoryUse& u : memory_uses(windows)) uses.push_back(u.uses);
             const int64_t most = *std::max_element(uses.begin(), uses.end());
             c.equal("pixels the windows read", static_cast<int64_t>(uses.size()), image.numel());
             c.equal("windows covering the most-covered pixel", most, k * k);
             c.equal("elements of patches", patches.numel(), int64_t{108});
             pytorch().compare(c, "conv_matmul", "patches", patches, {&image});
             pytorch().compare(c, "conv_matmul", "patches[6]", patches.select(0, 6), {&image});
             // The definition, element by element: out[i][j] = Σ image[i+a][j+b]·kernel[a][b].
             std::vector<double> direct;
             for (int64_t i = 0; i + k <= H; ++i)
               for (int64_t j = 0; j + k <= W; ++j) {
                 double sum = 0;
                 for (int64_t a = 0; a < k; ++a)
                   for (int64_t b = 0; b < k; ++b)
                     sum += image.at({i + a, j + b}).to_double() * kernel.at({a, b}).to_double();
                 direct.push_back(sum);
               }
             c.equal("patches @ kernel against the sum written out", out.to_vector(), direct);
             pytorch().compare(c, "conv_matmul", "out", out);
             pytorch().compare(c, "conv_matmul",
                               "torch.nn.functional.conv2d(image[None, None], kernel[None, None])"
                               "[0, 0]",
                               out);
             c.value("conv_strides", windows.strides());
             c.value("conv_most_uses", most);
             c.value("conv_patches_numel", patches.numel());
             c.value("conv_pixels", image.numel());
             c.value("conv_view_error",
                     pytorch().error_message("conv_matmul", "windows.view(-1, 9)"));
             PictureOptions rows;
             rows.cells_per_row = W;  // the storage drawn as the image it holds, row by row
             c.figure("conv_windows", storage_svg(windows, "windows", rows),
                      "The storage of the 5×6 image, drawn row by row: a badge counts the 3×3 "
                      "windows that cover a pixel, and so the copies of it the patches hold.");
             c.text("conv_out", "out\n" + to_string(out));
           });

  // ---- Benchmark notes ---------------------------------------------------------------------------------
  ch.section("bench", "Benchmark notes");

  ch.exhibit([](book::Exhibit& e) {
    // A recorded run of tools/bench/run: shown as recorded, with its machine and commit, never as
    // this build's measurement.
    book::show_recorded_bench(e, "bench_recorded", "bench_goals");
    // The BLAS each library calls: this one's from OpenBLAS's own answer (the run's provenance
    // holds the same), PyTorch's from its recorded build settings.
    // blas_description() is OpenBLAS's configuration ("OpenBLAS 0.3.21 DYNAMIC_ARCH ...; core
    // Haswell"): the page quotes its name and version, and the core.
    const std::string blas = blas_description();
    const size_t core = blas.find("; core ");
    const size_t version_end = blas.find(' ', blas.find(' ') + 1);
    e.value("blas_name", blas.substr(0, std::min(version_end, core)));
    e.value("blas_core", core == std::string::npos ? "unknown" : blas.substr(core + 7));
    // The BLAS that PyTorch's build names, as both records have it (an exhibit: shown, not
    // judged; the versions page shows where the records differ).
    const std::string blas_info = "torch.__config__.show().split(\"BLAS_INFO=\")[1].split(\",\")[0]";
    const auto said = [&](const book::PytorchRecord* r) {
      const nlohmann::json* a = r ? r->find("blas_info", blas_info) : nullptr;
      return a && a->contains("value") ? (*a)["value"].get<std::string>() : "not recorded";
    };
    e.value("pytorch_blas_info", said(&pytorch()));
    e.value("earlier_pytorch_blas_info", said(pytorch().earlier()));
  });
}
