// Chapter 7, Matrix multiplication: row- and column-major operands, what a naive loop asks of the
// cache, blocking, BLAS and its transpose flags, low-rank products, and torch.matmul's batched
// shape rule, then the stride tricks of a sliding window and a convolution as a matmul. Claims
// MM-01…MM-10, MM-10.window, MM-10.conv and errata ER-12, ER-36, ER-37, ER-38. The code between
// //! [name] markers is shown on the chapter's page (docs/07_matmul.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/book.h"
#include "book/gpu.h"
#include "book/plumbing.h"
#include "book/pytorch_record.h"
#include "book/timing.h"
#include "strided/matmul.h"
#include "strided/memory.h"
#include "strided/models.h"
#include "strided/parallel.h"
#include "strided/picture.h"
#include "strided/strided.h"

#if __has_include("strided/cuda/cuda.h")
#include "strided/cuda/cuda.h"
#include "strided/cuda/gemm_layout.h"
#define MM_HAVE_CUDA_API 1
#else
#define MM_HAVE_CUDA_API 0
#endif

using namespace strided;
using models::LruCache;

namespace {

// The notebook's low-rank products (In[21]): (2048×k)@(k×2048) for these k; MM-08 calls their
// times flat when the slowest is within this factor of the fastest.
constexpr int64_t kLowRanks[] = {2, 4, 8, 16, 32};
constexpr double kFlatBand = 1.5;

// ---- sizes -----------------------------------------------------------------------------------------
// ctest keeps the chapter short; `tools/book build --full` runs the seed's sizes (book::full_run).
using book::full_run;
// The naive kernels: the catalogue's n = 512, or 256 (a 256 KiB float32 matrix, larger than a
// core's L1 and L2 share on the machines the book runs on, so a column walk still misses).
int64_t naive_n() { return full_run() ? 512 : 256; }
// Transposing first (MM-04): the catalogue's n = 512 in every run (its 1024 would cost minutes of
// naive loops). Below 512 a column of a row-major B still comes from L2 quickly enough that the
// gap is small and unsteady.
int64_t transpose_n() { return 512; }
// BLAS: In[19]'s 2048, or 1024 in ctest (long enough per call for a steady median).
int64_t blas_n() { return full_run() ? 2048 : 1024; }

// ---- teaching helpers: shown on the page ---------------------------------------------------------------

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

// ---- plumbing: not shown ---------------------------------------------------------------------------------

using book::fixed;
using book::OneThread;

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

// One time_ratio (book::timed_ratio: its medians, spread and band kept as named values for the
// prose).
book::RatioResult timed(book::Check& c, const std::string& what, const std::string& key,
                        const std::function<void()>& a, const std::function<void()>& b,
                        const book::RatioBand& band) {
  return book::timed_ratio(c, what, key, a, b, band).result;
}

double seconds_of(const std::function<void()>& f, int repeats) {
  std::vector<double> s;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return book::median(s);
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// PyTorch 1.13's answers for the same expressions (chapters/07_matmul.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("07_matmul"); }

// PyTorch's spelling of a random tensor of shape s: torch.rand(2, 3), torch.rand(3).
std::string torch_rand(const Shape& s) {
  std::string out = "torch.rand(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

[[maybe_unused]] std::string gpu_reason() { return book::gpu().reason; }

// The recorded benchmark run committed beside the pages: tools/bench/run writes compare.json, and
// a copy is kept as docs/recorded/bench/bench-<machine>.json (a folder of its own, because the
// files directly in docs/recorded/ are chapter reports). Empty when none is committed; the
// newest name in sort order when several are.
std::filesystem::path recorded_bench() {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(book::source_dir()) / "docs" / "recorded" / "bench";
  if (!fs::exists(dir)) return {};
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("bench-") && name.ends_with(".json")) found.push_back(e.path());
  }
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path{} : found.back();
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
             const int64_t n = transpose_n();
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
             timed(c, "naive with row-major B / transpose first, then naive", "transpose",
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
    const int64_t n = naive_n();
    Generator gen(5);
    Tensor a = rand({n, n}, gen), b = rand({n, n}, gen);
    OneThread one;
    std::vector<std::vector<std::string>> rows;
    const double flop = 2.0 * double(n) * double(n) * double(n);
    for (MatmulKernel k : {MatmulKernel::Naive, MatmulKernel::NaiveTransposed,
                           MatmulKernel::Blocked, MatmulKernel::Blas}) {
      (void)matmul_2d(a, b, k);  // warm-up
      const double s = seconds_of([&] { (void)matmul_2d(a, b, k); }, 3);
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
           "with the transpose flag, both with ld 5 and no copy; only an operand that is neither, "
           "such as a stride-2 slice, is copied first.",
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
             const int64_t n = blas_n();
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
                   timed(c, others[i].first + " / a@b", keys[i], [&] { (void)matmul(l.a, l.b); },
                         others[i].second, {.at_least = 0.67, .at_most = 1.5, .repeats = 7});
               rows.push_back({others[i].first, fixed(r.median_b_s * 1e3), fixed(r.ratio),
                               fixed(r.noise)});
               if (i == 0) rows.insert(rows.begin(), {"a@b", fixed(r.median_a_s * 1e3), "1.00", ""});
             }
             c.value("blas_n", n);
             c.table("blas_layouts", {"product", "ms (median, one thread)", "/ a@b", "noise"}, rows);
             // The naive kernel on its best (A row-major, B column-major) and worst layouts.
             const int64_t m = naive_n();
             Layouts s = four_layouts(m, 7);
             timed(c, "naive: a.mT@b / a@b.mT", "naive_layout",
                   [&] { (void)matmul_2d(s.a, s.bt, MatmulKernel::Naive); },
                   [&] { (void)matmul_2d(s.at, s.b, MatmulKernel::Naive); },
                   {.at_least = 1.5, .repeats = full_run() ? 5 : 7});
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
             const std::vector<std::pair<std::string, std::pair<Tensor*, Tensor*>>> others = {
                 {"a@b.mT", {&a, &bt}}, {"a.mT@b", {&at, &b}}, {"a.mT@b.mT", {&at, &bt}}};
             for (const auto& [name, ops] : others) {
               const int64_t before = Storage::allocation_count();
               cuda::GpuComparison r = cuda::time_gpu_interleaved(
                   [&] { cuda::matmul_out(out, a, b); },
                   [&, x = ops.first, y = ops.second] { cuda::matmul_out(out, *x, *y); });
               c.equal(name + ": allocations while timing", Storage::allocation_count() - before,
                       int64_t{0});
               c.record(name + ": median ms, a@b", r.a.median_ms);
               c.record(name + ": median ms", r.b.median_ms);
               c.judge(name + " / a@b", fixed(r.ratio()), "in [0.67, 1.5]",
                       r.ratio() >= 0.67 && r.ratio() <= 1.5);
             }
#else
             c.not_run(gpu_reason());
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
      const auto ta = cuda::transposed_operand(n, n, l.a_col ? 1 : n, l.a_col ? n : 1);
      const auto tb = cuda::transposed_operand(n, n, l.b_col ? 1 : n, l.b_col ? n : 1);
      if (!ta || !tb) continue;
      const cuda::GemmCall g = cuda::make_gemm_call(n, n, n, *ta, *tb, n);
      rows.push_back({l.name, op(g.transa), op(g.transb), std::to_string(g.lda),
                      std::to_string(g.ldb), "none"});
    }
    e.table("cublas_calls", {"product", "transa (our b)", "transb (our a)", "lda", "ldb", "copies"},
            rows);
#else
    e.table("cublas_calls", {"product", "transa (our b)", "transb (our a)", "lda", "ldb", "copies"},
            {});
#endif
  });

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
             c.not_run(gpu_reason());
#endif
           })
      .needs_gpu();

  // MM-08's terms, for its sentence, on every machine (the claim itself runs only on a GPU).
  ch.exhibit([](book::Exhibit& e) {
    e.value("mm08_band", fixed(kFlatBand, 1));
    e.value("mm08_flop_fold", kLowRanks[std::size(kLowRanks) - 1] / kLowRanks[0]);
  });

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
               c.equal("shape of " + shape_text(k.a) + " @ " + shape_text(k.b), r.sizes(), k.out);
               pytorch().compare_value(
                   c, "shapes",
                   "torch.matmul(" + torch_rand(k.a) + ", " + torch_rand(k.b) + ").shape",
                   r.sizes());
               rows.push_back({shape_text(k.a), shape_text(k.b), shape_text(r.sizes())});
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
               // torch.allclose's test at its default tolerances: |a − b| ≤ 1e-8 + 1e-5·|b|.
               bool close = x.size() == y.size();
               for (size_t i = 0; close && i < x.size(); ++i)
                 close = std::abs(x[i] - y[i]) <= 1e-8 + 1e-5 * std::abs(y[i]);
               pytorch().compare_value(c, "one_d", "torch.allclose(left, promoted)", close);
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
    const std::filesystem::path path = recorded_bench();
    std::vector<std::vector<std::string>> rows, goal_rows;
    std::string about = "no recorded benchmark run is committed";
    if (!path.empty()) {
      std::ifstream in(path);
      const nlohmann::json j = nlohmann::json::parse(in);
      for (const auto& x : j.at("experiments")) {
        const double s = x.at("strided_ms").get<double>();
        const bool has_torch = x.at("pytorch_ms").is_number();
        const double t = has_torch ? x.at("pytorch_ms").get<double>() : 0.0;
        rows.push_back({x.at("name").get<std::string>(), x.at("shape").get<std::string>(),
                        fixed(s, 3), has_torch ? fixed(t, 3) : "",
                        has_torch ? fixed(s / t, 2) : ""});
      }
      for (const auto& g : j.at("goals")) {
        const bool met = g.at("met").get<bool>();
        goal_rows.push_back({g.at("goal").get<std::string>(),
                             fixed(g.at("measured").get<double>(), 3),
                             g.at("comparison").get<std::string>() + " " +
                                 fixed(g.at("limit").get<double>(), 2),
                             met ? "met" : "missed by " + fixed(g.at("missed_by").get<double>(), 2) + "×"});
      }
      const auto& m = j.at("machine");
      about = "recorded on " + m.at("cpu").get<std::string>() + " with " +
              std::to_string(j.at("threads").get<int>()) + " threads, at commit " +
              j.at("commit").get<std::string>() + " on " + j.at("date").get<std::string>() +
              " (PyTorch " + j.at("pytorch").get<std::string>() + "); STREAM copy " +
              fixed(j.at("stream").at("copy_gbs").get<double>(), 1) + " GB/s, triad " +
              fixed(j.at("stream").at("triad_gbs").get<double>(), 1) + " GB/s";
    }
    e.value("bench_recorded", about);
    e.table("bench_recorded", {"experiment", "shape", "strided ms", "PyTorch ms", "strided / PyTorch"},
            rows);
    e.table("bench_goals", {"goal", "measured ratio", "goal", "verdict"}, goal_rows);
  });

  return ch.main(argc, argv);
}
