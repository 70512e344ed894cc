// Chapter 6, sections "Binary ops want one layout", "The layout of the output" and "When a copy
// pays": the lines and sectors of matched and mismatched operands (PF-14, PF-16.sectors, PF-17),
// their timings (PF-15, PF-16), the output's layout (PF-18) and when one copy pays (PF-20), with
// the errata ER-09 and ER-10.
#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
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
using book::binary_lines_per_16;
using book::OneThread;
using book::quote_notebook;
using book::Timed;
using book::timed_ratio;
using book::walk_lines;

namespace {

// The four products PF-15 times, x·y, x·yᵀ, xᵀ·y and xᵀ·yᵀ (ᵀ: transpose(0, 2)) of n³ cubes, each
// writing into one output buffer viewed in the layout its product chooses (x's, or xᵀ's).
struct MulWalks {
  Tensor x, y, xt, yt, out, out_t;
  std::vector<TensorIterator> plans;
  MulWalks(int64_t n, Generator& gen)
      : x(rand({n, n, n}, gen)),
        y(rand({n, n, n}, gen)),
        xt(x.transpose(0, 2)),
        yt(y.transpose(0, 2)),
        out(x * y),
        out_t(out.transpose(0, 2)) {
    for (auto [a, b, o] : {std::tuple{x, y, out}, std::tuple{x, yt, out}, std::tuple{xt, y, out_t},
                           std::tuple{xt, yt, out_t}})
      plans.push_back(binary_plan(BinaryOp::Mul, o, a, b));
  }
};

// PF-20: how many products share one copy.
constexpr int kProducts = 8;

// The line model of PF-20's two ways, per 16 outputs of one product over n³ cubes: the walks of
// x·yᵀ and x·y, and the copy that yᵀ.contiguous() runs (copy_plan, the engine's copy: its
// destination is walked in order and its source jumps; a 3-d transpose is not one of the 2-d
// blocks the engine copies in tiles, so this is the walk it runs).
struct CopyPays {
  double mismatched = 0, matched = 0, copy_read = 0, copy_write = 0;
  double as_is() const { return kProducts * mismatched; }
  double copy_first() const { return copy_read + copy_write + kProducts * matched; }
};
CopyPays copy_pays_model(int64_t n) {
  Tensor x = zeros({n, n, n}), y = zeros({n, n, n});
  const TensorIterator copy = copy_plan(empty({n, n, n}), y.transpose(0, 2));
  CopyPays m;
  m.mismatched = binary_lines_per_16(x, y.transpose(0, 2));
  m.matched = binary_lines_per_16(x, y);
  m.copy_write = lines_per_window(plan_trace(copy, 0), 16);
  m.copy_read = lines_per_window(plan_trace(copy, 1), 16);
  return m;
}

}  // namespace

void performance::binary(book::Chapter& ch) {
  // ---- Binary ops ----------------------------------------------------------------------------------------------
  ch.section("binary", "Binary ops want one layout");

  ch.claim("PF-14",
           "Beyond being dense, the operands of a binary op should share strides: x·y walks 3 "
           "lines per 16 outputs, x·y.transpose(0,2) walks 18, whatever the order.",
           [](book::Check& c) {
             const int64_t n = 32;
             Tensor x = zeros({n, n, n}), y = zeros({n, n, n});
             //! [binary_lines]
             double matched = binary_lines_per_16(x, y);
             double mismatched = binary_lines_per_16(x, y.transpose(0, 2));
             double reversed = binary_lines_per_16(x.transpose(0, 2), y);
             //! [binary_lines]
             c.equal("x * y", matched, 3.0);
             c.equal("x * y.transpose(0, 2)", mismatched, 18.0);
             c.equal("x.transpose(0, 2) * y", reversed, 18.0);
             pytorch().compare(c, "binary_lines", "x * y.transpose(0, 2)", x * y.transpose(0, 2));
             pytorch().compare(c, "binary_lines", "x.transpose(0, 2) * y", x.transpose(0, 2) * y);
             c.value("lines_matched", fixed(matched, 0));
             c.value("lines_mismatched", fixed(mismatched, 0));
             // The inner step of y.transpose(0, 2) at the notebook's size, 512³ float32.
             const Shape seed_strides = contiguous_strides({book::sizes::kSeedCube, book::sizes::kSeedCube, book::sizes::kSeedCube});
             c.value("lines_jump_mib", fixed(double(seed_strides[0] * 4) / (1 << 20), 0));
           }).model();

  ch.erratum("ER-09",
             "When the two permutations are equal, x and y are both contiguous (nikitaved, "
             "PyTorch for Scientists!, In[18]).",
             "Only for the identity; for the other five permutations x and y share strides and "
             "neither is contiguous.",
             [](book::Check& c) {
               Tensor t = zeros({4, 4, 4});
               std::vector<std::vector<std::string>> rows;
               int64_t contiguous = 0;
               for (Shape p : {Shape{0, 1, 2}, Shape{0, 2, 1}, Shape{1, 0, 2}, Shape{1, 2, 0},
                               Shape{2, 0, 1}, Shape{2, 1, 0}}) {
                 Tensor x = t.permute(p);
                 contiguous += x.is_contiguous();
                 rows.push_back({book::show(p), book::show(x.strides()),
                                 book::show(x.is_contiguous())});
               }
               c.equal("contiguous pairs of 6", contiguous, int64_t{1});
               c.table("diagonal", {"permutation of x and y", "strides", "is_contiguous()"}, rows);
             });

  ch.claim("PF-15",
           "mul of cubes with mismatched layouts (x·yᵀ, xᵀ·y, transpose(0,2)) costs at least 1.5 "
           "times the matched x·y; with both transposed the plan is x·y's, and x·yᵀ costs at "
           "least 1.5 times it too.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             OneThread one;
             const int64_t n = book::sizes::cube();
             Generator gen(15);
             const MulWalks w(n, gen);
             const std::vector<TensorIterator>& plans = w.plans;
             c.equal("layout of xᵀ·y", (w.xt * w.y).strides(), w.out_t.strides());
             c.equal("layout of x·yᵀ", (w.x * w.yt).strides(), w.out.strides());
             auto run = [&](size_t k) { return [&plans, k] { run_binary(BinaryOp::Mul, plans[k]); }; };
             std::vector<Timed> rows;
             rows.push_back(timed_ratio(c, "x·yᵀ / x·y", "mul_xyt", run(0), run(1), book::much_slower()));
             rows.push_back(timed_ratio(c, "xᵀ·y / x·y", "mul_xty", run(0), run(2), book::much_slower()));
             // Both transposed, the plan is x·y's: one dim over the same bytes, in the same order.
             c.equal("plan of xᵀ·yᵀ: shape", plans[3].shape(), plans[0].shape());
             for (int k = 0; k < 3; ++k)
               c.equal("plan of xᵀ·yᵀ: byte strides of operand " + std::to_string(k),
                       plans[3].operand(k).stride_bytes, plans[0].operand(k).stride_bytes);
             // So its time is x·y's; timed against the mismatched product, whose gap is robust
             // to a shared machine (a ratio near 1 is not: see the chapter's notes on noise).
             rows.push_back(timed_ratio(c, "x·yᵀ / xᵀ·yᵀ", "mul_both", run(3), run(1), book::much_slower()));
             const double seed_mul = quote_notebook(c, "seed_mul_ms", "the seed's x·y", "In[16]", 0).ms();
             const double seed_xyt = quote_notebook(c, "seed_mul_xyt_ms", "the seed's x·yᵀ", "In[16]", 1).ms();
             const double seed_xty = quote_notebook(c, "", "the seed's xᵀ·y", "In[16]", 2).ms();
             const double seed_both = quote_notebook(c, "", "the seed's xᵀ·yᵀ", "In[16]", 3).ms();
             rows[0].seed_ratio = seed_xyt / seed_mul;
             rows[1].seed_ratio = seed_xty / seed_mul;
             rows[2].seed_ratio = seed_xyt / seed_both;
             // The line model of the same four walks, on 32³ cubes (PF-14's count).
             const MulWalks small(32, gen);
             rows[0].model_ratio = walk_lines(small.plans[1]) / walk_lines(small.plans[0]);
             rows[1].model_ratio = walk_lines(small.plans[2]) / walk_lines(small.plans[0]);
             rows[2].model_ratio = walk_lines(small.plans[1]) / walk_lines(small.plans[3]);
             c.value("mul_n", n);
             c.value("mul_ms", fixed(rows[0].a_ms));
             c.value("mul_model", fixed(rows[0].model_ratio, 1));
             c.value("mul_vs_model", fixed(rows[0].ratio / rows[0].model_ratio, 1));
             c.value("seed_mul_ratio", fixed(rows[0].seed_ratio, 1));
             c.value("seed_mul_both_ratio", fixed(seed_both / seed_mul));
             timing_table(c, "mul_table", rows);
             ratio_figure(c, "mul_ratios", rows,
                          "mul: time relative to x * y, in this run, in the seed notebook, and in "
                          "the line model.");
           }).timing();

  ch.claim("PF-16.sectors",
           "On a GPU, mul costs 12 sectors per warp request (two loads and a store) with matched "
           "layouts and 40 with one operand transposed, 3.3 times as many: the transposed "
           "operand uses 4 of every 32 bytes it fetches.",
           [](book::Check& c) {
             const int64_t n = 32;
             Tensor x = zeros({n, n, n}), y = zeros({n, n, n});
             const double matched = book::binary_sectors(x, y);
             const double mismatched = book::binary_sectors(x, y.transpose(0, 2));
             c.equal("matched", matched, 12.0);
             c.equal("mismatched", mismatched, 40.0);
             c.equal("mismatched / matched, to 0.1", fixed(mismatched / matched, 1), std::string("3.3"));
             // The transposed operand's requests: 32 lanes of 4 bytes over the sectors they fetch.
             const TensorIterator plan = binary_plan(BinaryOp::Mul, Tensor(), x, y.transpose(0, 2));
             const SectorCount yt = warp_sectors(plan_trace(plan, 2));
             const double used_per_sector = 32.0 * 4.0 / yt.per_request();
             c.equal("bytes used of each 32-byte sector the transposed operand fetches",
                     used_per_sector, 4.0);
             // The seed's GPU measured more than the sector count: the model does not predict
             // the whole gap, and the page says so rather than call it an explanation.
             const double seed =
                 quote_notebook(c, "seed_gpu_mul_xyt_ms", "the seed's x·yᵀ on its GPU", "In[17]", 1).ms() /
                 quote_notebook(c, "seed_gpu_mul_ms", "the seed's x·y on its GPU", "In[17]", 0).ms();
             c.value("gpu_mul_model", fixed(mismatched / matched, 1));
             c.value("gpu_mul_matched", fixed(matched, 0));
             c.value("gpu_mul_mismatched", fixed(mismatched, 0));
             c.value("seed_gpu_mul_ratio", fixed(seed, 1));
             c.value("seed_gpu_mul_vs_model", fixed(seed / (mismatched / matched), 1));
             c.value("used_fraction", fixed(100.0 * used_per_sector / 32.0, 1));
           }).model();

  ch.claim("PF-16",
           "On a GPU, mul with one operand transposed takes at least 1.5 times as long as with "
           "matched layouts, and with both transposed about as long.",
           [](book::Check& c) {
#if PF_HAVE_CUDA_API
             const int64_t n = book::sizes::cube();
             Generator gen(16);
             Tensor x = cuda::to_cuda(rand({n, n, n}, gen)), y = cuda::to_cuda(rand({n, n, n}, gen));
             Tensor yt = y.transpose(0, 2), xt = x.transpose(0, 2);
             Tensor o = cuda::mul(x, y), omix = cuda::mul(x, yt), oboth = cuda::mul(xt, yt);
             // Timed as every timing claim is (book/timing.h), on a clock that reads CUDA events.
             cuda::EventClock gpu;
             const auto mul = [&gpu](Tensor& out, const Tensor& a, const Tensor& b) {
               return gpu.timed([&out, &a, &b] { cuda::mul_out(out, a, b); }, 3);
             };
             const auto matched = mul(o, x, y);
             book::timed_ratio(c, "x·yᵀ / x·y", "gpu_mul_mix", matched, mul(omix, x, yt),
                               book::much_slower(), 1, gpu.reader());
             book::timed_ratio(c, "xᵀ·yᵀ / x·y", "gpu_mul_both", matched, mul(oboth, xt, yt),
                               book::about_as_fast(), 1, gpu.reader());
#else
             c.not_run(book::gpu().reason);
#endif
           }).needs_gpu();

  ch.claim("PF-17",
           "Not every mismatch hurts: with transpose(0,1) both operands keep a unit-stride inner "
           "dim (3 lines per 16 outputs); with transpose(1,2) the mismatch stays inside one "
           "plane, and an LRU cache that holds the lines one row of outputs needs hides it.",
           [](book::Check& c) {
             const int64_t n = 32;
             Tensor x = zeros({n, n, n}), y = zeros({n, n, n});
             const double t01 = binary_lines_per_16(x, y.transpose(0, 1));
             c.equal("lines per 16 outputs, transpose(0, 1)", t01, 3.0);
             c.value("lines_t01", fixed(t01, 0));
             std::vector<int64_t> capacities = {512, 1024, 2048, 4096, 8192, 16384};
             std::string data = "# capacity_kib\tmatched\ttranspose_1_2\ttranspose_0_2\n";
             std::vector<std::vector<std::string>> rows;
             std::map<int64_t, std::array<int64_t, 3>> m;
             for (int64_t cap : capacities) {
               m[cap] = {book::binary_misses(x, y, cap), book::binary_misses(x, y.transpose(1, 2), cap),
                         book::binary_misses(x, y.transpose(0, 2), cap)};
               data += fixed(cap / 1024.0, 1) + "\t" + std::to_string(m[cap][0]) + "\t" +
                       std::to_string(m[cap][1]) + "\t" + std::to_string(m[cap][2]) + "\n";
               rows.push_back({fixed(cap / 1024.0, cap < 1024 ? 1 : 0) + " KiB", std::to_string(m[cap][0]),
                               std::to_string(m[cap][1]), std::to_string(m[cap][2])});
             }
             // One row of outputs (fixed i, j) reads y[i, k, j] for all k: n lines of y, 2 KiB,
             // besides a line each of x and of the output. x, y and the output are three
             // storages, and the model keeps them in lines of their own (book::binary_misses).
             const int64_t strip = n * 64;
             c.equal("transpose(1, 2), a cache half the strip: misses more than matched",
                     m.at(strip / 2)[1] > 4 * m.at(strip / 2)[0], true);
             c.equal("transpose(1, 2), a cache twice the strip: misses as matched",
                     m.at(2 * strip)[1], m.at(2 * strip)[0]);
             c.equal("transpose(0, 2) at 16 KiB: still misses more",
                     m.at(16384)[2] > 4 * m.at(16384)[0], true);
             c.value("strip_kib", strip / 1024);
             c.value("plane_kib", n * n * 4 / 1024);
             // transpose(0, 2) reuses a line of y only after a whole plane of outputs: n² lines.
             c.value("t02_kib", n * n * 64 / 1024);
             c.value("lru_n", n);
             c.table("lru_table", {"LRU capacity", "x * y", "x * y.transpose(1, 2)",
                                   "x * y.transpose(0, 2)"},
                     rows);
             book::gnuplot_figure(c, "lru_sweep", "lru_sweep", data,
                                  "LRU misses of mul on " + std::to_string(n) + "×" +
                                      std::to_string(n) + "×" + std::to_string(n) +
                                      " float32 against the cache's capacity.");
           }).model();

  // ---- Output layouts ---------------------------------------------------------------------------------------
  ch.section("output", "The layout of the output");

  ch.claim("PF-18",
           "For 4×4×4 tensors and all 36 pairs of permutations, x·y has x's strides and y·x has "
           "y's, with equal values; the operands' strides differ exactly when the permutations "
           "do.",
           [](book::Check& c) {
             Generator gen(18);
             Tensor t1 = rand({4, 4, 4}, gen), t2 = rand({4, 4, 4}, gen);
             const std::vector<Shape> perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                               {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
             int64_t pairs = 0, first = 0, values = 0, differ = 0;
             //! [first_operand]
             for (const Shape& p : perms)
               for (const Shape& q : perms) {
                 Tensor x = t1.permute(p), y = t2.permute(q);
                 Tensor xy = x * y, yx = y * x;
                 first += xy.strides() == x.strides() && yx.strides() == y.strides();
                 values += xy.to_vector() == yx.to_vector();
                 differ += (x.strides() != y.strides()) == (p != q);
                 ++pairs;
               }
             //! [first_operand]
             c.equal("pairs", pairs, int64_t{36});
             c.equal("outputs with the first operand's strides", first, pairs);
             c.equal("x * y == y * x", values, pairs);
             c.equal("strides differ iff permutations differ", differ, pairs);
             pytorch().compare_value(c, "first_operand", "pairs", pairs);
             pytorch().compare_value(c, "first_operand", "first", first);
             pytorch().compare_value(c, "first_operand", "values", values);
             pytorch().compare_value(c, "first_operand", "differ", differ);
             c.value("pf18_pairs", pairs);
           });

  ch.claim("PF-18.numpy",
           "NumPy's element-wise results keep the input's order as PyTorch's do: for the 3×4 "
           "float64 a, a.T * 2 has byte strides (8, 32) and t.t() * 2 element strides (1, 4). "
           "Their copies differ: ndarray.copy() is row-major, (24, 8), while np.copy() and "
           "PyTorch's clone() keep the order, (8, 32) and (1, 4).",
           [](book::Check& c) {
             //! [numpy_order]
             // The library reads no NumPy array; t is a's memory as from_numpy gives it.
             Tensor t = arange(12, {DType::Float64}).view({3, 4});
             Tensor doubled = t.t() * Scalar(int64_t{2});  // keeps t.t()'s order
             Tensor cloned = t.t().clone();                 // clone() keeps it too
             //! [numpy_order]
             const int64_t item = t.element_size();
             Shape bytes;  // doubled's strides as NumPy counts them, in bytes
             for (int64_t s : doubled.strides()) bytes.push_back(s * item);
             pytorch().compare(c, "numpy_order", "doubled", doubled);
             pytorch().compare(c, "numpy_order", "cloned", cloned);
             // NumPy's ufunc keeps the same order: its byte strides are the tensor's times 8.
             pytorch().compare_value(c, "numpy_order", "ufunc.strides", bytes);
             pytorch().compare_value(c, "numpy_order", "function_copy.strides", bytes);
             // ndarray.copy() is row-major: the contiguous strides of the (4, 3) shape, in bytes.
             const Tensor rows = t.t().contiguous();
             Shape row_major;
             for (int64_t s : rows.strides()) row_major.push_back(s * item);
             pytorch().compare_value(c, "numpy_order", "method_copy.strides", row_major);
             c.value("numpy_ufunc_bytes", bytes);
             c.value("numpy_copy_bytes", row_major);
             c.value("numpy_doubled", doubled.strides());
           });

  ch.erratum("ER-10",
             "The result of a binary op has the strides of its first argument (nikitaved, PyTorch "
             "for Scientists!).",
             "It is a fresh dense tensor whose dim order follows the first operand, later operands "
             "deciding ties and stride-0 dims: x = rand(4,4,8)[..., ::2] with strides (32,8,2) "
             "gives x·y strides (16,4,1), and a broadcast x (4,0,1) times a permuted y (1,4,16) "
             "gives (16,1,4).",
             [](book::Check& c) {
               Generator gen(10);
               Tensor x = rand({4, 4, 8}, gen).slice(2, 0, std::nullopt, 2);
               Tensor y = rand({4, 4, 4}, gen);
               Tensor b = rand({4, 1, 4}, gen).expand({4, 4, 4});
               Tensor p = rand({4, 4, 4}, gen).permute({2, 1, 0});
               c.equal("x strides", x.strides(), Shape{32, 8, 2});
               c.equal("x * y", (x * y).strides(), Shape{16, 4, 1});
               c.equal("b strides", b.strides(), Shape{4, 0, 1});
               c.equal("b * p", (b * p).strides(), Shape{16, 1, 4});
               c.equal("p * b", (p * b).strides(), Shape{1, 4, 16});
               pytorch().compare(c, "er10", "x", x);
               pytorch().compare(c, "er10", "x * y", x * y);
               pytorch().compare(c, "er10", "b", b);
               pytorch().compare(c, "er10", "b * p", b * p);
               pytorch().compare(c, "er10", "p * b", p * b);
               c.value("er10_xy", (x * y).strides());
               c.value("er10_bp", (b * p).strides());
               c.value("er10_pb", (p * b).strides());
             });

  // ---- Paying for a copy -----------------------------------------------------------------------------------
  ch.section("copy", "When a copy pays");

  ch.claim("PF-20.lines",
           "Eight products x·yᵀ walk 8·18 lines per 16 outputs; one copy of yᵀ into x's layout "
           "(16 + 1) and eight matched products (8·3) walk 41.",
           [](book::Check& c) {
             const CopyPays m = copy_pays_model(32);
             // The copy the model counts, as PyTorch makes it: a new storage in x's layout.
             Generator gen(20);
             Tensor y = rand({32, 32, 32}, gen);
             pytorch().compare(c, "copy_pays", "yt.contiguous()", y.transpose(0, 2).contiguous(),
                               {&y});
             c.equal("eight mismatched products", m.as_is(), 144.0);
             c.equal("copy, then eight matched", m.copy_first(), 41.0);
             c.value("copy_model_ratio", fixed(m.as_is() / m.copy_first(), 1));
             c.value("copy_k", kProducts);
             c.value("copy_lines_mismatched", fixed(m.mismatched, 0));
             c.value("copy_lines_matched", fixed(m.matched, 0));
             c.value("copy_lines_read", fixed(m.copy_read, 0));
             c.value("copy_lines_write", fixed(m.copy_write, 0));
             c.value("copy_total_mismatched", fixed(m.as_is(), 0));
             c.value("copy_total", fixed(m.copy_first(), 0));
           }).model();

  ch.claim("PF-20",
           "When a layout hurts repeatedly, one copy into a friendly layout pays: eight products "
           "x·yᵀ take at least 1.15 times as long as copying yᵀ once and computing eight x·y.",
           [](book::Check& c) {
             if (book::skip_timing(c)) return;
             OneThread one;
             // Eight products per measurement: a smaller cube than the other timings keeps ctest short.
             const int64_t n = book::sizes::copy_cube();
             Generator gen(20);
             Tensor x = rand({n, n, n}, gen), y = rand({n, n, n}, gen);
             Tensor out = empty({n, n, n});
             auto mul_into = [&](const Tensor& a, const Tensor& b) {  // out = a * b
               run_binary(BinaryOp::Mul, binary_plan(BinaryOp::Mul, out, a, b));
             };
             //! [copy_pays]
             Tensor yt = y.transpose(0, 2);
             auto as_is = [&] {
               for (int k = 0; k < kProducts; ++k) mul_into(x, yt);
             };
             auto copy_first = [&] {
               Tensor packed = yt.contiguous();  // one copy, in x's layout
               for (int k = 0; k < kProducts; ++k) mul_into(x, packed);
             };
             //! [copy_pays]
             std::vector<Timed> rows;
             book::RatioBand band = book::slower();
             band.repeats = 5;
             rows.push_back(timed_ratio(c, "8 × x·yᵀ / (copy + 8 × x·y)", "copy", copy_first, as_is, band));
             const CopyPays m = copy_pays_model(32);
             rows[0].model_ratio = m.as_is() / m.copy_first();
             c.value("copy_vs_model", fixed(rows[0].ratio / rows[0].model_ratio, 1));
             ratio_figure(c, "copy_ratios", rows,
                          "Eight mismatched products against one copy and eight matched ones.");
           }).timing();
}
