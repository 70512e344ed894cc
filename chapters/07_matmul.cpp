// Chapter 7, Matrix multiplication: row- and column-major operands, what a naive loop asks of the
// cache, blocking, BLAS and its transpose flags, low-rank products, and torch.matmul's batched
// shape rule, then the stride tricks of a sliding window and a convolution as a matmul. Claims
// MM-01…MM-10 (with MM-01.numpy, MM-06.flags, MM-06.plan, MM-06.skinny, MM-07.skinny,
// MM-09.fold, MM-10.window, MM-10.conv), errata ER-12, ER-36, ER-37, ER-38, and the exercises
// EX-07.1…EX-07.5. The code between //! [name] markers is shown on the chapter's page
// (docs/07_matmul.md).
//
// This file holds the sections up to low-rank products. The skinny operand is in
// chapters/07_matmul/skinny.cpp; the batched products, the stride tricks and the benchmark notes
// (shown in docs/checking.md) in chapters/07_matmul/batched.cpp; the NumPy box and the exercises
// in chapters/07_matmul/exercises.cpp, all run from main below.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "07_matmul/matmul.h"
#include "book/book.h"
#include "strided/engine/matmul.h"
#include "strided/models/models.h"
#include "strided/engine/parallel.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

#if __has_include("strided/cuda/cuda.h")
#include "strided/cuda/cuda.h"
#include "strided/cuda/gemm_layout.h"
#define MM_HAVE_CUDA_API 1
#else
#define MM_HAVE_CUDA_API 0
#endif

using namespace strided;
using book::fixed;
using book::OneThread;
using book::timed_ratio;
using matmul_chapter::pytorch;
using models::LruCache;

namespace {

// The notebook's low-rank products (In[21]): (2048×k)@(k×2048) for these k; MM-08 calls their
// times flat when the slowest is within this factor of the fastest.
constexpr int64_t kLowRanks[] = {2, 4, 8, 16, 32};
constexpr double kFlatBand = 1.5;

//! [lru_naive]
// The addresses a triple loop asks for, fed to an LRU cache. A, B and C are float32 n×n matrices
// placed one after another; B is row-major (element (k, j) at k·n + j) or column-major (j·n + k).
struct MatmulTrace {
  int64_t n;
  bool b_column_major;
  LruCache cache;
  void a(int64_t i, int64_t k) { cache.access(4 * (i * n + k), 4); }
  void b(int64_t k, int64_t j) {
    const int64_t at = b_column_major ? j * n + k : k * n + j;
    cache.access(4 * (n * n + at), 4);
  }
  void c(int64_t i, int64_t j) { cache.access(4 * (2 * n * n + i * n + j), 4); }
};

// for i, for j: c[i][j] = Σ_k a[i][k]·b[k][j] — a dot product per element of C.
int64_t misses_ijk(MatmulTrace t, bool with_c) {
  for (int64_t i = 0; i < t.n; ++i)
    for (int64_t j = 0; j < t.n; ++j) {
      for (int64_t k = 0; k < t.n; ++k) {
        t.a(i, k);
        t.b(k, j);
      }
      if (with_c) t.c(i, j);
    }
  return t.cache.misses();
}
//! [lru_naive]

//! [lru_blocked]
// for i, for k: c[i][:] += a[i][k]·b[k][:] — rows of B and C, unit stride.
int64_t misses_ikj(MatmulTrace t) {
  for (int64_t i = 0; i < t.n; ++i)
    for (int64_t k = 0; k < t.n; ++k) {
      t.a(i, k);
      for (int64_t j = 0; j < t.n; ++j) {
        t.b(k, j);
        t.c(i, j);
      }
    }
  return t.cache.misses();
}

// The same i-k-j loops on bs×bs blocks: three blocks (3·bs² floats) are all the cache must hold.
int64_t misses_blocked(MatmulTrace t, int64_t bs) {
  for (int64_t ii = 0; ii < t.n; ii += bs)
    for (int64_t jj = 0; jj < t.n; jj += bs)
      for (int64_t kk = 0; kk < t.n; kk += bs)
        for (int64_t i = ii; i < ii + bs; ++i)
          for (int64_t k = kk; k < kk + bs; ++k) {
            t.a(i, k);
            for (int64_t j = jj; j < jj + bs; ++j) {
              t.b(k, j);
              t.c(i, j);
            }
          }
  return t.cache.misses();
}
//! [lru_blocked]

// The four layouts of In[19]: each operand row-major or column-major (the .mT of a row-major
// matrix), all with the same logical values.
struct Layouts {
  Tensor a, b, at, bt;  // a, b row-major; at = a.mT() and bt = b.mT() of row-major storage
};
Layouts four_layouts(int64_t n, uint64_t seed) {
  Generator gen(seed);
  Layouts l;
  l.a = rand({n, n}, gen);
  l.b = rand({n, n}, gen);
  l.at = rand({n, n}, gen).mT();
  l.bt = rand({n, n}, gen).mT();
  return l;
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("07_matmul", "Matrix multiplication");

  // ---- Row-major and column-major -------------------------------------------------------------------
  ch.section("layouts", "Row-major and column-major");

  ch.claim("MM-01",
           "An m×n matrix is row-major (C-contiguous) when it is contiguous, strides (n, 1), and "
           "column-major (F-contiguous) when its transpose is contiguous, strides (1, m).",
           [](book::Check& c) {
             //! [row_column]
             Tensor row = arange(24).view({6, 4});  // row-major 6×4: strides (4, 1)
             Tensor col = row.t();                  // the same storage read as a 4×6 matrix
             //! [row_column]
             c.equal("strides of the 6×4 row-major matrix", row.strides(), Shape{4, 1});
             c.equal("row is contiguous", row.is_contiguous(), true);
             c.equal("strides of its transpose", col.strides(), Shape{1, 4});
             c.equal("the transpose is contiguous", col.is_contiguous(), false);
             c.equal("the transpose's transpose is contiguous", col.t().is_contiguous(), true);
             pytorch().compare(c, "row_column", "row", row, {&row});
             pytorch().compare(c, "row_column", "row.t()", col, {&row});
             pytorch().compare_value(c, "row_column", "row.t().t().is_contiguous()",
                                     col.t().is_contiguous());
             c.value("row_strides", row.strides());
             c.value("col_strides", col.strides());
             // Figures: one 3×4 matrix, stored both ways (the column-major one is a copy of
             // the row-major one laid out column by column, as Fortran or BLAS would keep it).
             Tensor r = arange(12).view({3, 4});
             Tensor f = r.t().contiguous().t();
             c.equal("the column-major copy holds the same matrix", f.to_vector(), r.to_vector());
             c.equal("the column-major copy's strides", f.strides(), Shape{1, 3});
             pytorch().compare(c, "row_column", "r.t().contiguous().t()", f, {&r});
             c.figure("row_major", tensor_svg(r, "a, row-major"),
                      "A 3×4 matrix stored row-major: a row is a run of the storage.");
             c.figure("column_major", tensor_svg(f, "a, column-major"),
                      "The same 3×4 matrix stored column-major: a column is a run of the storage.");
           });

  ch.claim("MM-02",
           ".mT swaps the last two dims' sizes and strides and is a view: same data_ptr, no "
           "allocation.",
           [](book::Check& c) {
             Tensor m = zeros({4, 6});
             const int64_t before = Storage::allocation_count();
             Tensor v = m.mT();
             c.equal("allocations made by .mT", Storage::allocation_count() - before, int64_t{0});
             c.equal("sizes of m.mT", v.sizes(), Shape{6, 4});
             c.equal("strides of m.mT", v.strides(), Shape{1, 6});
             c.equal("same data_ptr", v.data_ptr() == m.data_ptr(), true);
             Tensor batch = zeros({2, 4, 6});
             c.equal("strides of a batch's .mT", batch.mT().strides(), Shape{24, 1, 6});
             pytorch().compare(c, "mt", "m.mT", v, {&m});
             pytorch().compare(c, "mt", "batch.mT", batch.mT(), {&batch});
             c.value("mt_strides", v.strides());
             c.value("mt_batch_strides", batch.mT().strides());
           });

  matmul_chapter::numpy_box(ch);  // 07_matmul/exercises.cpp: Fortran order in NumPy

  // ---- The naive loop and the cache ------------------------------------------------------------------
  ch.section("naive", "What a naive loop asks of the cache");

  ch.claim("MM-03",
           "In the i-j-k dot-product loop both inner streams are unit-stride only when A is "
           "row-major and B column-major: per dot product of length n, a row-major B touches n "
           "cache lines and a column-major one n/16; an LRU cache of 4 KiB (n = 128) misses "
           "2,228,224 times against 132,096, and one of 32 KiB 132,096 times for both.",
           [](book::Check& c) {
             const int64_t n = 128;
             Tensor b = zeros({n, n});
             Tensor b_col = zeros({n, n}).mT();
             const int64_t lines_row = models::distinct_lines(models::logical_trace(b.select(1, 0)));
             const int64_t lines_col =
                 models::distinct_lines(models::logical_trace(b_col.select(1, 0)));
             c.equal("lines of one column of a row-major B", lines_row, n);
             c.equal("lines of one column of a column-major B", lines_col, n / 16);
             pytorch().compare(c, "lru_run", "b[:, 0]", b.select(1, 0), {&b});
             pytorch().compare(c, "lru_run", "b_col[:, 0]", b_col.select(1, 0), {&b_col});
             //! [lru_run]
             const int64_t row_4k = misses_ijk({n, false, LruCache(4096)}, false);
             const int64_t col_4k = misses_ijk({n, true, LruCache(4096)}, false);
             //! [lru_run]
             const int64_t row_32k = misses_ijk({n, false, LruCache(32768)}, false);
             const int64_t col_32k = misses_ijk({n, true, LruCache(32768)}, false);
             c.equal("4 KiB misses, B row-major", row_4k, int64_t{2228224});
             c.equal("4 KiB misses, B column-major", col_4k, int64_t{132096});
             c.equal("32 KiB misses, B row-major", row_32k, int64_t{132096});
             c.equal("32 KiB misses, B column-major", col_32k, int64_t{132096});
             // The same model written over PyTorch's strides (the companion's lru_run) counts
             // the same misses.
             pytorch().compare_value(c, "lru_run", "row_4k", row_4k);
             pytorch().compare_value(c, "lru_run", "col_4k", col_4k);
             c.value("lru_n", n);
             c.value("lines_row", lines_row);
             c.value("lines_col", lines_col);
             c.value("row_4k", row_4k);
             c.value("col_4k", col_4k);
             c.value("row_32k", row_32k);
             c.value("col_32k", col_32k);
             c.value("lru_ratio", fixed(double(row_4k) / double(col_4k), 1));
             c.value("n_cubed", n * n * n);
           });

  ch.claim("MM-04",
           "Copying B into column-major first is one pass over its n² elements (one allocation) "
           "against n³ multiply-adds, and for large n it pays: the naive loop over a row-major B "
           "takes at least 1.5 times as long as the copy plus the loop.",
           [](book::Check& c) {
             const int64_t n = book::sizes::transpose_n();
             Generator gen(4);
             Tensor a = rand({n, n}, gen), b = rand({n, n}, gen);
             //! [transpose_first]
             const int64_t before = Storage::allocation_count();
             Tensor b_columns = b.t().contiguous();  // (n, n) holding bᵀ: n² elements moved
             const int64_t allocations = Storage::allocation_count() - before;
             //! [transpose_first]
             c.equal("allocations of the copy", allocations, int64_t{1});
             c.equal("elements the copy writes", b_columns.numel(), n * n);
             c.value("copy_n", n);
             c.value("copy_elements", n * n);
             c.value("copy_madds", n * n * n);
             OneThread one;
             timed_ratio(c, "naive with row-major B / transpose first, then naive", "transpose",
                         [&] { (void)matmul_2d(a, b, MatmulKernel::NaiveTransposed); },
                         [&] { (void)matmul_2d(a, b, MatmulKernel::Naive); },
                         {.at_least = 1.5, .repeats = 5});
           })
      .timing();

  ch.erratum("ER-38", "Transposing is an O(N) operation (r-nn), without saying which transpose.",
             ".t() is an O(1) view: it swaps two strides and moves nothing; the physical "
             "transpose, a copy into the other layout, is O(n²): one write per element.",
             [](book::Check& c) {
               for (int64_t n : {64, 512}) {
                 Tensor m = zeros({n, n});
                 const int64_t before = Storage::allocation_count();
                 Tensor v = m.t();
                 c.equal("allocations of .t() at n = " + std::to_string(n),
                         Storage::allocation_count() - before, int64_t{0});
                 c.equal(".t() shares the storage at n = " + std::to_string(n),
                         v.storage().is_same(m.storage()), true);
                 Tensor copy = v.contiguous();
                 c.equal("allocations of .t().contiguous() at n = " + std::to_string(n),
                         Storage::allocation_count() - before, int64_t{1});
                 c.equal("bytes it writes at n = " + std::to_string(n), copy.storage().nbytes(),
                         n * n * 4);
                 if (n == 512) {
                   pytorch().compare(c, "transpose_first", "b.t()", v, {&m});
                   pytorch().compare(c, "transpose_first", "b_columns", copy, {&m});
                 }
               }
             });

  // ---- Blocking ----------------------------------------------------------------------------------------
  ch.section("blocking", "Blocking");

  ch.claim("MM-05",
           "Working on blocks cuts cache misses: for n = 128 and a 4 KiB LRU cache, counting C, "
           "the i-j-k loop misses 2,244,608 times, the i-k-j loop 133,120 and 16×16 blocks "
           "17,408.",
           [](book::Check& c) {
             const int64_t n = 128;
             const int64_t ijk = misses_ijk({n, false, LruCache(4096)}, true);
             const int64_t ikj = misses_ikj({n, false, LruCache(4096)});
             const int64_t blocked = misses_blocked({n, false, LruCache(4096)}, 16);
             c.equal("misses, i-j-k", ijk, int64_t{2244608});
             c.equal("misses, i-k-j", ikj, int64_t{133120});
             c.equal("misses, 16×16 blocks", blocked, int64_t{17408});
             // The floor: every line of A, B and C brought in once.
             const int64_t compulsory = 3 * n * n * 4 / 64;
             const int64_t bound = 6;  // blocks come within this factor of the compulsory misses
             c.equal("blocks miss less than " + std::to_string(bound) +
                         " times the compulsory misses",
                     blocked < bound * compulsory, true);
             c.value("compulsory_bound", bound);
             c.value("ijk_misses", ijk);
             c.value("ikj_misses", ikj);
             c.value("blocked_misses", blocked);
             c.value("compulsory_misses", compulsory);
             c.value("blocked_over_compulsory", fixed(double(blocked) / double(compulsory), 1));
             c.value("blocked_ratio", fixed(double(ijk) / double(blocked), 0));
             c.table("misses", {"loop order", "misses (4 KiB LRU, n = 128)", "per multiply-add"},
                     {{"i-j-k", std::to_string(ijk), fixed(double(ijk) / double(n * n * n), 3)},
                      {"i-k-j", std::to_string(ikj), fixed(double(ikj) / double(n * n * n), 3)},
                      {"16×16 blocks", std::to_string(blocked),
                       fixed(double(blocked) / double(n * n * n), 3)}});
           })
      .model();

  ch.exhibit([](book::Exhibit& e) {
    // The four CPU kernels on one size, one thread: an illustration of this run, not a claim.
    const int64_t n = book::sizes::naive_n();
    Generator gen(5);
    Tensor a = rand({n, n}, gen), b = rand({n, n}, gen);
    OneThread one;
    std::vector<std::vector<std::string>> rows;
    const double flop = 2.0 * double(n) * double(n) * double(n);
    for (MatmulKernel k : {MatmulKernel::Naive, MatmulKernel::NaiveTransposed,
                           MatmulKernel::Blocked, MatmulKernel::Blas}) {
      (void)matmul_2d(a, b, k);  // warm-up
      const double s = book::median_seconds([&] { (void)matmul_2d(a, b, k); }, 3);
      rows.push_back({to_string(k), fixed(s * 1e3), fixed(flop / s * 1e-9, 1)});
      e.value(std::string("kernel_") + to_string(k) + "_ms", fixed(s * 1e3));
    }
    e.value("kernels_n", n);
    e.value("block_size", matmul_block_size());
    e.table("kernels", {"kernel", "ms (median of 3, one thread)", "GFLOP/s"}, rows);
  });

  // ---- BLAS and the four layouts ----------------------------------------------------------------------
  ch.section("blas", "BLAS and the four layouts");

  ch.claim("MM-06.flags",
           "A row-major 3×5 operand goes to gemm as stored and its column-major transpose .mT "
           "with the transpose flag, both with ld 5 and no copy; every second row of a 6×5 "
           "matrix goes as stored too, with ld 10; only an operand with no unit stride, such as "
           "every second column of a 3×10 matrix, is copied first.",
           [](book::Check& c) {
             //! [blas_flags]
             Tensor a = zeros({3, 5});
             BlasOperand row = blas_operand(a);       // row-major: as stored, ld = 5
             BlasOperand col = blas_operand(a.mT());  // column-major: transposed, ld = 5
             //! [blas_flags]
             c.equal("row-major: transpose flag", row.transpose, false);
             c.equal("row-major: ld", row.ld, int64_t{5});
             c.equal("row-major: copy", row.copy, false);
             c.equal("column-major: transpose flag", col.transpose, true);
             c.equal("column-major: ld", col.ld, int64_t{5});
             c.equal("column-major: copy", col.copy, false);
             c.equal("a stride-2 slice is copied", blas_operand(zeros({3, 10}).slice(1, 0, 10, 2)).copy,
                     true);
             // Every second row: unit stride along a row, rows 10 apart: as stored, ld 10.
             const BlasOperand rows2 = blas_operand(zeros({6, 5}).slice(0, 0, 6, 2));
             c.equal("zeros(6, 5)[::2]: copy", rows2.copy, false);
             c.equal("zeros(6, 5)[::2]: ld", rows2.ld, int64_t{10}, "flags_rows_ld");
             pytorch().compare(c, "blas_flags", "a.mT", a.mT(), {&a});
             pytorch().compare(c, "blas_flags", "torch.zeros(3, 10)[:, ::2]",
                               zeros({3, 10}).slice(1, 0, 10, 2));
             c.value("flags_ld", row.ld);
           });

  ch.claim("MM-06",
           "With BLAS the four layouts of In[19] (a@b, a@b.mT, a.mT@b, a.mT@b.mT) take about the "
           "same time (each within [0.67, 1.5] of a@b), because each is one gemm call with "
           "transpose flags and no copy; the naive kernel's worst layout takes at least 1.5 "
           "times its best.",
           [](book::Check& c) {
             const int64_t n = book::sizes::blas_n();
             Layouts l = four_layouts(n, 6);
             OneThread one;
             std::vector<std::vector<std::string>> rows;
             const std::vector<std::pair<std::string, std::function<void()>>> others = {
                 {"a@b.mT", [&] { (void)matmul(l.a, l.bt); }},
                 {"a.mT@b", [&] { (void)matmul(l.at, l.b); }},
                 {"a.mT@b.mT", [&] { (void)matmul(l.at, l.bt); }}};
             const char* keys[] = {"blas_abt", "blas_atb", "blas_atbt"};
             for (size_t i = 0; i < others.size(); ++i) {
               const book::RatioResult r =
                   timed_ratio(c, others[i].first + " / a@b", keys[i],
                               [&] { (void)matmul(l.a, l.b); }, others[i].second,
                               {.at_least = 0.67, .at_most = 1.5, .repeats = 7})
                       .result;
               rows.push_back({others[i].first, fixed(r.median_b_s * 1e3), fixed(r.ratio),
                               fixed(r.noise)});
               if (i == 0) rows.insert(rows.begin(), {"a@b", fixed(r.median_a_s * 1e3), "1.00", ""});
             }
             c.value("blas_n", n);
             c.table("blas_layouts", {"product", "ms (median, one thread)", "/ a@b", "noise"}, rows);
             // The naive kernel on its best (A row-major, B column-major) and worst layouts.
             const int64_t m = book::sizes::naive_n();
             Layouts s = four_layouts(m, 7);
             timed_ratio(c, "naive: a.mT@b / a@b.mT", "naive_layout",
                         [&] { (void)matmul_2d(s.a, s.bt, MatmulKernel::Naive); },
                         [&] { (void)matmul_2d(s.at, s.b, MatmulKernel::Naive); },
                         {.at_least = 1.5, .repeats = book::full_run() ? 5 : 7});
             c.value("naive_layout_n", m);
           })
      .timing();

  ch.claim("MM-07",
           "On the GPU the four layouts of In[20] are each one cuBLAS call with transpose flags "
           "and no copy, and take about the same time (each within [0.67, 1.5] of a@b).",
           [](book::Check& c) {
#if MM_HAVE_CUDA_API
             const int64_t n = 2048;
             Layouts l = four_layouts(n, 8);
             Tensor a = cuda::to_cuda(l.a), b = cuda::to_cuda(l.b);
             Tensor at = cuda::to_cuda(l.at.mT()).mT(), bt = cuda::to_cuda(l.bt.mT()).mT();
             Tensor out = cuda::matmul(a, b);
             struct Other {
               std::string name, key;
               const Tensor *x, *y;
             };
             const std::vector<Other> others = {{"a@b.mT", "gpu_mm_a_bt", &a, &bt},
                                                {"a.mT@b", "gpu_mm_at_b", &at, &b},
                                                {"a.mT@b.mT", "gpu_mm_at_bt", &at, &bt}};
             // Timed as every timing claim is (book/timing.h), on a clock that reads CUDA events.
             cuda::EventClock gpu;
             const auto product = [&gpu, &out](const Tensor& x, const Tensor& y) {
               return gpu.timed([&out, &x, &y] { cuda::matmul_out(out, x, y); }, 3);
             };
             const auto plain = product(a, b);
             for (const Other& o : others) {
               const int64_t before = Storage::allocation_count();
               book::timed_ratio(c, o.name + " / a@b", o.key, plain, product(*o.x, *o.y),
                                 book::about_as_fast(), 1, gpu.reader());
               c.equal(o.name + ": allocations while timing", Storage::allocation_count() - before,
                       int64_t{0});
             }
#else
             c.not_run(book::gpu().reason);
#endif
           })
      .needs_gpu();

  ch.exhibit([](book::Exhibit& e) {
    // The cuBLAS calls of the four layouts, from the kernels' own flag choice (host logic, so it
    // runs without a GPU): the swap trick of kernels/strided/cuda/gemm_layout.h.
#if MM_HAVE_CUDA_API
    const int64_t n = 2048;
    std::vector<std::vector<std::string>> rows;
    const auto op = [](cuda::BlasTranspose t) { return t == cuda::BlasTranspose::N ? "N" : "T"; };
    struct L {
      const char* name;
      bool a_col, b_col;
    };
    for (const L& l : {L{"a@b", false, false}, L{"a@b.mT", false, true},
                       L{"a.mT@b", true, false}, L{"a.mT@b.mT", true, true}}) {
      const auto ta = cuda::transposed_operand(Layout({n, n}, {l.a_col ? 1 : n, l.a_col ? n : 1}));
      const auto tb = cuda::transposed_operand(Layout({n, n}, {l.b_col ? 1 : n, l.b_col ? n : 1}));
      if (!ta || !tb) continue;
      const cuda::GemmCall g = cuda::make_gemm_call(n, n, n, *ta, *tb, n);
      rows.push_back({l.name, op(g.transa), op(g.transb), std::to_string(g.lda),
                      std::to_string(g.ldb), "none"});
    }
    // The skinny product of MM-07.skinny: a 64×8192 batch times the transpose of a 64×8192 w.
    const auto tw = cuda::transposed_operand(Layout({8192, 64}, {1, 8192}));  // w.mT, column-major
    const auto tx = cuda::transposed_operand(Layout({64, 8192}, {8192, 1}));  // x, row-major
    if (tw && tx) {
      const cuda::GemmCall g = cuda::make_gemm_call(64, 64, 8192, *tx, *tw, 64);
      rows.push_back({"x@w.mT (x, w: 64×8192)", op(g.transa), op(g.transb),
                      std::to_string(g.lda), std::to_string(g.ldb), "none"});
    }
    e.table("cublas_calls", {"product", "transa (our b)", "transb (our a)", "lda", "ldb", "copies"},
            rows);
#else
    e.table("cublas_calls", {"product", "transa (our b)", "transb (our a)", "lda", "ldb", "copies"},
            {});
#endif
  });

  matmul_chapter::skinny(ch);  // 07_matmul/skinny.cpp: a skinny operand and its transpose

  // ---- Low-rank products -------------------------------------------------------------------------------
  ch.section("low_rank", "Low-rank products are write-bound");

  ch.erratum("ER-12",
             "A flat time for (2048×k)@(k×2048), k = 2…32, shows PyTorch is not optimised for "
             "such shapes (nikitaved).",
             "The product writes a 16 MiB output whatever k is; for k ≤ 32 the output is at least "
             "96.9% of the bytes moved and the arithmetic intensity at most 15.5 FLOP per byte; "
             "at the bandwidth the notebook's own add(3) reached (In[14]), writing the output "
             "alone takes more than half of each time it measured: most of the time is the write, "
             "the same for every k, so a flat time is what to expect.",
             [](book::Check& c) {
               const int64_t m = 2048, n = 2048;
               std::vector<std::vector<std::string>> rows;
               double min_share = 1.0, max_intensity = 0.0, min_intensity = 1e9;
               for (int64_t k : kLowRanks) {
                 //! [low_rank]
                 const double bytes = 4.0 * double(m * k + k * n + m * n);  // read a, b; write c
                 const double flops = 2.0 * double(m) * double(n) * double(k);
                 const double output_share = 4.0 * double(m * n) / bytes;
                 const double intensity = flops / bytes;  // FLOP per byte moved
                 //! [low_rank]
                 min_share = std::min(min_share, output_share);
                 max_intensity = std::max(max_intensity, intensity);
                 min_intensity = std::min(min_intensity, intensity);
                 rows.push_back({std::to_string(k), fixed(bytes / (1 << 20), 3),
                                 fixed(flops * 1e-6, 1), fixed(100 * output_share, 1),
                                 fixed(intensity, 1)});
               }
               c.equal("output bytes (MiB)", 4 * m * n / (1 << 20), int64_t{16});
               {
                 // The output the bytes count: PyTorch's x @ y for k = 32 is a dense 2048×2048
                 // float32 tensor, 16 MiB, as the library's is.
                 Generator gen(7);
                 const Tensor x = rand({m, 32}, gen), y = rand({32, n}, gen);
                 pytorch().compare(c, "low_rank", "x @ y", matmul(x, y));
               }
               // The notebook's GPU bandwidth, from its own add(3) of a contiguous 512³ float32
               // cube (In[14]): one read and one write of every element in the time it printed.
               const book::QuotedTiming& add = book::quote_timing(
                   c, "", "the seed's contiguous add(3) of 512³ float32 on its GPU",
                   book::notebook_timing("In[14]", 0));
               const double bandwidth = 2.0 * 4.0 * 512 * 512 * 512 / add.seconds;  // bytes/s
               const double write_us = 4.0 * double(m * n) / bandwidth * 1e6;
               double least_share = 1.0;
               for (size_t i = 0; i < std::size(kLowRanks); ++i) {
                 const book::QuotedTiming& t = book::quote_timing(
                     c, i == 0 ? "low_rank_seed_us" : "",
                     "the seed's k = " + std::to_string(kLowRanks[i]), book::notebook_timing("In[21]", i));
                 least_share = std::min(least_share, write_us / t.us());
               }
               c.that("writing the output at that bandwidth takes over half of every time measured",
                      least_share > 0.5,
                      fixed(write_us, 1) + " µs to write, " + fixed(100 * least_share, 1) +
                          "% of the time at the least");
               c.value("low_rank_bandwidth_gbs", fixed(bandwidth / 1e9, 0));
               c.value("low_rank_write_us", fixed(write_us, 1));
               c.value("low_rank_write_share", fixed(100 * least_share, 0));
               c.value("low_rank_output_mib", 4 * m * n / (1 << 20));
               c.that("output share >= 96.9% for every k", min_share >= 0.969,
                      fixed(100 * min_share, 2) + "%");
               c.near("intensity at k = 2 (FLOP/B)", min_intensity, 1.0, 0.05);
               c.near("intensity at k = 32 (FLOP/B)", max_intensity, 15.5, 0.05);
               c.value("low_rank_min_share", fixed(100 * min_share, 1));
               c.value("low_rank_min_intensity", fixed(min_intensity, 1));
               c.value("low_rank_max_intensity", fixed(max_intensity, 1));
               c.table("low_rank", {"k", "MiB moved", "MFLOP", "output share (%)", "FLOP/B"},
                       rows);
             }).quoted();

  ch.claim("MM-08",
           "On the GPU, (2048×k)@(k×2048) takes about the same time for k = 2, 4, 8, 16, 32 "
           "(slowest within 1.5 times the fastest) while the FLOPs grow 16-fold.",
           [](book::Check& c) {
#if MM_HAVE_CUDA_API
             Generator gen(9);
             std::vector<double> times;
             for (int64_t k : kLowRanks) {
               Tensor x = cuda::to_cuda(rand({2048, k}, gen));
               Tensor y = cuda::to_cuda(rand({k, 2048}, gen));
               Tensor out = cuda::matmul(x, y);
               const cuda::GpuTiming t = cuda::time_gpu([&] { cuda::matmul_out(out, x, y); });
               c.record("k = " + std::to_string(k) + ": median ms", t.median_ms);
               times.push_back(t.median_ms);
             }
             const double spread = *std::max_element(times.begin(), times.end()) /
                                   *std::min_element(times.begin(), times.end());
             c.judge("slowest / fastest", fixed(spread), "<= " + fixed(kFlatBand, 1),
                     spread <= kFlatBand);
#else
             c.not_run(book::gpu().reason);
#endif
           })
      .needs_gpu();

  // MM-08's terms, for its sentence, on every machine (the claim itself runs only on a GPU).
  ch.exhibit([](book::Exhibit& e) {
    e.value("mm08_band", fixed(kFlatBand, 1));
    e.value("mm08_flop_fold", kLowRanks[std::size(kLowRanks) - 1] / kLowRanks[0]);
  });

  matmul_chapter::batched(ch);  // 07_matmul/batched.cpp: batched products, stride tricks, notes
  matmul_chapter::exercises(ch);  // 07_matmul/exercises.cpp: the exercises, checked
  return ch.main(argc, argv);
}
